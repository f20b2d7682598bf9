/// The projected value of a `@Lazy` property: its state, seen from outside.
///
/// ```swift
/// let screen = UsersViewController()
/// print(screen.$resourceLoader.isResolved)  // false
/// _ = screen.resourceLoader
/// print(screen.$resourceLoader.isResolved)  // true
/// screen.$resourceLoader.reset()            // the next read resolves again
/// ```
///
/// A key path to the projection, such as `\UsersViewController.$auditLog`, names the property
/// in a rule for that property alone (see <doc:RegisteringInitializers#Rules-for-one-property>).
///
/// A projection holds its object strongly; keep it only as long as you need it.
public struct LazyProjection<Value> {
  /// The object whose property this is.
  internal let container: AnyObject
  /// The property's slot in `container`, at a fixed address while `container` lives.
  internal let slot: _LazySlot

  /// Whether the property holds a value, resolved or assigned.
  public var isResolved: Bool { Lazy<Value>._state(in: container, slot: slot).isResolved }

  /// The rule that produced the current value; nil if the property is unresolved, if its value
  /// was assigned, or if it is an optional that no rule served (nil).
  ///
  /// For a value served through a forward, the forward's rule, whose
  /// ``InitializerRegistry/Rule/forwardTargetTypeName`` names the target.
  public var rule: InitializerRegistry.Rule? { Lazy<Value>._state(in: container, slot: slot).rule }

  /// Drops the current value: the next read resolves again, with the rules and the override
  /// layers in force then, where it is read.
  ///
  /// Like assigning, resetting is a mutation of the object and must not race with reads.
  public func reset() { Lazy<Value>._replace(in: container, slot: slot, with: 0) }

  /// Resolves the property as its first read would, awaiting its initializer if that is async,
  /// keeps the value, and returns it; returns the value it holds if it is resolved.
  ///
  /// ```swift
  /// @MainActor func showAvatar(of screen: ProfileScreen) async throws {
  ///   let avatar = try await screen.$avatar.load()   // later reads: screen.avatar
  ///   print(avatar)
  /// }
  /// ```
  ///
  /// The same rules, override layers and scopes as a read; one value per object, whichever
  /// tasks and threads race. A rule that does not await serves as it does a read. Where a read
  /// would stop the program, this throws; after an error the property stays unresolved, and the
  /// next `load()` tries again. See <doc:AsyncInitializers>.
  nonisolated(nonsending) public func load() async throws -> Value {
    try await Lazy<Value>._load(container, slot: slot)
  }
}
