import _LazyInjectShims

// The async ways into resolution: `$property.load()` (through `Lazy._load`) and `prepare()`.
// They follow the same decision as a first read, and await where its rule is async (see
// Resolution/SharedInstance.swift, `asyncInstance`).

extension _FirstRead {
  /// Resolves `Value` for `container` through its property's `slot`, which the caller claimed (it
  /// held `word`: 0, or an object box the caller still owns), as a first read would, awaiting an
  /// async initializer; tells in `outcome` what the slot keeps.
  ///
  /// What `$property.load()` runs: it throws where a first read stops. It decides first, with the
  /// object's layers: a rule that does not await (or `init()`, or an instance an async rule's
  /// scope keeps) serves as for a read, synchronously, where `load()` was called; an async rule,
  /// or a forward to one, is awaited, while synchronous readers of the slot stop rather than wait.
  nonisolated(nonsending) static func load<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer, box word: UInt,
    outcome: inout InitializerRegistry.Outcome
  ) async throws -> Value {
    let creation = word == 0 ? nil : _LazyObjectBox.box(at: word).creation
    let layers = creation.map { $0.layers(readBy: OverrideScope.current) } ?? OverrideScope.current
    let registry = InitializerRegistry.shared
    let slot = UnsafeRawPointer(slot)
    let offset = slot - RawMemory.address(of: container)
    let decision = OverrideScope.$current.withValue(layers) {
      registry.decide(
        type, in: Swift.type(of: container), for: .object(container, offset: offset),
        searching: registry.searchedRegistries, followingForwards: true)
    }
    let target = decision.target
    guard let rule = decision.registration, let async = target.registration,
      async.source.isAsync, let owner = target.owner
    else {
      return try OverrideScope.$current.withValue(layers) {
        try InitializerRegistry.resolve(
          type, for: container, slot: slot, decided: decision, outcome: &outcome)
      }
    }
    toggleAwaited(slot)
    defer { toggleAwaited(slot) }
    let step = WaitGraph.Held(
      slot: slot, registration: nil,
      what: .property(Value.self, in: Swift.type(of: container), offset: offset))
    var uses = LayersUsed()
    for used in [decision.owner, owner].compactMap({ $0 }) where used !== registry {
      uses.add(LayersUsed(used))
    }
    let shared = try await OverrideScope.$current.withValue(layers) {
      try await AsyncChain.with(step) {
        try await owner.asyncInstance(
          of: async, for: container, stack: layers,
          handles: InitializerRegistry.Handles(Value.self, rule: rule.source), uses: &uses)
      }
    }
    // The rule of `Value`, of `T` for a `T?`, or a forward's target, which a read casts too.
    guard let typed = shared.value as? Value else {
      throw ResolutionError.forwardTargetMismatch(
        forwarded: Value.self, target: async.propertyType, value: shared.value,
        site: "\(rule.source.fileID):\(rule.source.line)", chain: [])
    }
    outcome.origin = .registration(rule.source)
    outcome.uses = uses
    outcome.handle = shared.handle
    outcome.isObserved = decision.isObserved
    return typed
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
  ///
  /// It runs on the caller's actor until the builds start, each in a task of its own: called on
  /// the main actor, it installs the automatic modules there at once, not once the main actor is
  /// free.
  nonisolated(nonsending) public func prepare() async throws {
    await installAutomaticModulesIfNeeded()
    let rules = searchedRegistries.flatMap { owner in owner.registrations.map { (owner, $0) } }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (registry, rule) in rules where rule.isPreparable {
        group.addTask {
          var uses = LayersUsed()
          _ = try await registry.asyncInstance(
            of: rule, for: nil, stack: OverrideScope.current, handles: nil, uses: &uses)
        }
      }
      do { try await group.waitForAll() } catch {
        throw Task.isCancelled ? CancellationError() : error
      }
    }
  }

  /// Builds the async rules that ``prepare()`` builds: it prepares every one, which this did
  /// for one type.
  @available(*, deprecated, message: "use prepare(), which builds every such rule concurrently")
  public func prepare<Property>(_ propertyType: Property.Type) async throws { try await prepare() }
}
