import _LazyInjectShims

// The async entries into resolution: `$property.load()` (through `Lazy._load`) and `prepare()`.
// They resolve as a first read does, and await where a rule is async (see
// Resolution/SharedInstance.swift, `asyncInstance`).

extension _FirstRead {
  /// Resolves `Value` for `container` through its property's `slot`, which the caller claimed (it
  /// held `word`: 0, or a capture the caller still owns), as a first read would, awaiting an async
  /// initializer; tells in `outcome` how.
  ///
  /// What `$property.load()` runs: it throws where a first read stops.
  ///
  /// The synchronous pipeline runs first: a synchronous rule, `init()`, or an instance an async
  /// rule's scope keeps serve as for a read. When it meets an async rule with nothing kept for
  /// this very slot, this awaits that rule instead, while synchronous readers of the slot stop
  /// rather than wait.
  nonisolated(nonsending) static func load<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer, capture word: UInt,
    outcome: inout InitializerRegistry.Outcome
  ) async throws -> Value {
    let capture = word == 0 ? nil : _LazyObjectBox.box(at: word).capture
    let layers = capture.map { $0.layers(readBy: OverrideScope.current) } ?? OverrideScope.current
    let slot = UnsafeRawPointer(slot)
    let step = WaitGraph.Held(
      slot: UInt(bitPattern: slot), registration: nil, summary: summary(Value.self, container, slot)
    )
    // Synchronously, where `load()` was called: a main-actor rule is built there, as by a read.
    do {
      return try OverrideScope.$current.withValue(layers) {
        try InitializerRegistry.resolve(
          type, for: container, slot: slot, plan: .general, generally: nil, outcome: &outcome)
      }
    } catch let error as ResolutionError {
      guard case (let registration, let owner, step.slot)? = error.pending else { throw error }
      toggleAwaited(slot)
      defer { toggleAwaited(slot) }
      let value = try await OverrideScope.$current.withValue(layers) {
        try await AsyncChain.with(step) {
          try await owner.asyncInstance(of: registration, for: container)
        }
      }
      // The outcome names the rule the decision chose (a forward's, for a forwarded property).
      // The rule of `Value`, of `T` for a `T?`, or a forward's target, which a read casts too.
      guard let typed = value as? Value else { throw error }
      return typed
    }
  }

  /// `"MyApp.Avatar in MyApp.ProfileScreen.avatar"`: the step of a property in messages.
  static func summary(_ property: Any.Type, _ container: AnyObject, _ slot: UnsafeRawPointer)
    -> String
  {
    let offset = slot - UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    return "\(typeName(property)) in \(typeName(type(of: container)))."
      + StoredField.name(at: offset, in: type(of: container))
  }
}

extension InitializerRegistry {
  /// Builds, concurrently, every async rule with no sender whose scope keeps its instance, in
  /// this registry and the override layers over it in force, and keeps what their scopes keep:
  /// afterwards, synchronous reads of the properties they serve return those instances.
  ///
  /// ```swift
  /// @MainActor func applicationDidFinishLaunching() {
  ///   Task { try await InitializerRegistry.shared.prepare() }   // in SwiftUI: the root's .task
  /// }
  /// ```
  ///
  /// An instance already kept is not built again. The first error stops the preparation and is
  /// thrown, a ``ResolutionError`` that names the type and carries the initializer's error as its
  /// ``ResolutionError/underlyingError``; the instances built by then stay kept. Cancelling the
  /// calling task cancels the initializers still running, and the preparation throws
  /// `CancellationError`.
  public func prepare() async throws { try await prepare(nil) }

  /// Builds the async rules with no sender of `propertyType` whose scope keeps their instance,
  /// as ``prepare()`` does.
  ///
  /// ```swift
  /// try await InitializerRegistry.shared.prepare(Database.self)
  /// ```
  ///
  /// - Throws: What ``prepare()`` throws; and a ``ResolutionError`` of kind
  ///   ``ResolutionError/Kind/requiresLoad`` when `propertyType` has no such rule, naming the
  ///   rules it has.
  public func prepare<Property>(_ propertyType: Property.Type) async throws {
    try await prepare(propertyType as Any.Type)
  }

  /// Builds the rules `prepare()` builds, of `type` only if not nil, in a task group.
  private func prepare(_ type: Any.Type?) async throws {
    await installAutomaticModulesIfNeeded()
    let rules = searchedRegistries.flatMap { owner in
      owner.registrations.filter { type == nil || $0.propertyType == type }.map { (owner, $0) }
    }
    if let type, !rules.contains(where: \.1.isPreparable) {
      let found = rules.map(\.1.rule.description).joined(separator: "; ")
      throw ResolutionError(
        .requiresLoad,
        "LazyInject cannot prepare \(typeName(type)): it has no async rule with no sender whose"
          + " scope keeps its instance (its rules: \(found.isEmpty ? "none" : found)).\nFix:"
          + " register one, as `register(T.self, scope: .singleton) { try await ... }`, or load"
          + " the properties it serves with `$property.load()`.")
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (registry, rule) in rules where rule.isPreparable {
        group.addTask { _ = try await registry.asyncInstance(of: rule, for: nil) }
      }
      do { try await group.waitForAll() } catch {
        throw Task.isCancelled ? CancellationError() : error
      }
    }
  }
}
