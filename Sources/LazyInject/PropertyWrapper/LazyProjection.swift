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
/// A projection holds its object strongly; keep it only as long as you need it.
public struct LazyProjection<Value> {
  private let read: () -> (isResolved: Bool, rule: InitializerRegistry.Rule?)
  private let clear: () -> Void

  internal init<Container: AnyObject>(
    container: Container, storage: ReferenceWritableKeyPath<Container, Lazy<Value>>
  ) {
    read = { Lazy._state(in: container, storage) }
    clear = { Lazy._store(0, in: container, storage) }
  }

  /// Whether the property holds a value, resolved or assigned.
  public var isResolved: Bool {
    read().isResolved
  }

  /// The rule that produced the current value; nil if the property is unresolved or its value
  /// was assigned.
  public var rule: InitializerRegistry.Rule? {
    read().rule
  }

  /// Drops the current value: the next read resolves again, with the rules in force then.
  ///
  /// Like assigning, resetting is a mutation of the object and must not race with reads.
  public func reset() {
    clear()
  }
}
