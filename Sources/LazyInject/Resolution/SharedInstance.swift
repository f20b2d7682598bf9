import _LazyInjectShims

// Shared instances: building a `.singleton`, `.weak` or custom-scope value once, the one policy
// that decides who keeps it (for synchronous and async builds alike), the handle that slots
// holding it share, and the resets that reach those slots.

extension InitializerRegistry {
  /// How to make the handle that the slots of one property type share for a shared value, and
  /// the key it is shared by: the property type and the rule that serves the property (a forward
  /// asks its target's rule for a handle of its own).
  struct Handles {
    let key: InstanceStore.HandleKey
    let make: (Any, LayersUsed) -> _LazyObjectBox?

    init<Property>(_: Property.Type, rule: RuleSource) {
      key = InstanceStore.HandleKey(
        property: ObjectIdentifier(Property.self), rule: ObjectIdentifier(rule))
      make = { value, uses in
        guard let property = value as? Property else { return nil }
        return _LazyObjectBox(property, origin: .registration(rule), uses: uses)
      }
    }
  }

  /// A shared instance found or built: the value, the handle its slot keeps (if a slot asked for
  /// one), and who keeps it.
  struct SharedValue {
    let value: Any
    let handle: _LazyObjectBox?
    let keeper: Keeper
  }

  /// Who keeps a shared instance: what the one keeper policy decides (`keeper(of:...)`).
  enum Keeper {
    /// The registry whose rule built it.
    case registry
    /// An override layer over that registry.
    case layer(InitializerRegistry)
    /// Nobody: the value goes to the read that asked, alone.
    case nobody
  }

  /// An override layer that may keep an instance of this registry's rule, with how many times the
  /// rule's scope had been reset in it when the build started: a reset since means it keeps
  /// nothing (rule 5 of the keeper policy).
  struct Adopter {
    let layer: InitializerRegistry
    let resetCount: Int
  }

  /// What a resolution finds under the registry's lock: an instance kept, or the build it must
  /// run now.
  private enum SharedLookup {
    case found(SharedValue)
    case started(adopters: [Adopter])
  }

  /// The instance of this registry's shared or async `registration` for `container`, as a
  /// `Property`: the one its scope keeps, or one built now by exactly one thread and kept by whom
  /// the keeper policy says; in `outcome`, the handle the slot keeps (or the forward that asks,
  /// `outcome.handles`) and what the fast path may record.
  ///
  /// `stack` is the calling task's override layers. Other threads wait for a build under way,
  /// unless waiting would close a cycle (see `WaitGraph`). Of an async rule, only the instance
  /// kept, else the error that says to prepare or load it: a synchronous resolution never awaits.
  func sharedInstance<Property>(
    of registration: AnyRegistration, as property: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, stack: OverrideStack?, outcome: inout Outcome
  ) throws -> Property {
    var handles = outcome.handles
    if handles == nil, frame.pointee.slot != nil {
      handles = Handles(Property.self, rule: registration.source)
    }
    let layers = layersThatMayKeep(in: stack)
    let shared: SharedValue
    switch try findOrStartBuild(of: registration, keptBy: layers, handles: handles, frame: frame) {
    case .found(let found):
      shared = found
    case .started(let adopters):
      // Objects made by the build learn from it which layers keep them (see `CreationLayers`).
      let sharedBuild = stack == nil ? nil : SharedBuild()
      let built = Result<Any, any Error> {
        guard let sharedBuild else {
          return try Self.build(registration, as: property, for: container)
        }
        return try OverrideScope.$sharedBuild.withValue(sharedBuild) {
          try Self.build(registration, as: property, for: container)
        }
      }
      frame.pointee.building = nil
      shared = try keep(
        built, of: registration, uses: frame.pointee.uses, stack: stack, adopters: adopters,
        build: sharedBuild, handles: handles)
    }
    outcome.handle = shared.handle
    // The pair's next first reads may take the object the registry keeps from the fast path.
    if let version = outcome.fastPathVersion, case .registry = shared.keeper, !registration.isWeak,
      isSingleReference(Property.self), let handle = shared.handle
    {
      FastPath.record(
        registration, keptHandle: handle, holding: shared.value as AnyObject, for: Property.self,
        in: type(of: container), isObserved: outcome.isObserved, version: version)
    }
    return shared.value as! Property
  }

  /// Under this registry's lock: the instance of `registration` that one of `layers` or this
  /// registry keeps, with the handle `handles` asks for; else the build this thread starts, once
  /// no other thread builds it (waiting on the registry's condition, which is why this takes the
  /// lock itself rather than through `withState`).
  ///
  /// - Throws: `.requiresLoad` for an async rule with nothing kept; a cycle, on this thread or
  ///   across threads, that waiting would close.
  private func findOrStartBuild(
    of registration: AnyRegistration, keptBy layers: [InitializerRegistry], handles: Handles?,
    frame: UnsafeMutablePointer<ResolutionFrame>
  ) throws -> SharedLookup {
    try state.lock.withLock {
      while true {
        let kept = kept(
          registration, in: &state.value, layers: layers, handles: handles,
          uses: &frame.pointee.uses)
        if let kept {
          return .found(kept)
        }
        // A synchronous resolution never awaits.
        guard !registration.source.isAsync else {
          throw ResolutionError.requiresLoad(
            for: frame.pointee.step.summary, rule: registration)
        }
        let thread = _lazyinject_thread_identity()
        guard let builder = state.value.instances.builder(of: registration) else {
          state.value.instances.startBuild(of: registration, on: thread)
          frame.pointee.building = ObjectIdentifier(registration)
          return .started(adopters: adopters(of: registration, among: layers))
        }
        if builder == thread {
          let steps = ResolutionFrame.chain.map(\.step.summary) + ["\(registration.rule) again"]
          throw ResolutionError.dependencyCycle(steps: steps)
        }
        if let cycle = WaitGraph.willWait(for: .registration(ObjectIdentifier(registration))) {
          throw cycle
        }
        let start = Recorder.start
        state.lock.wait()
        WaitGraph.didWait()
        Recorder.note(built: nil, of: frame.pointee.step, since: start)
      }
    }
  }

  /// How many times `scope` was reset in this registry: what `keep` compares across a build.
  func resetCount(of scope: Scope) -> Int { withState { $0.instances.resetCount(of: scope) } }

  /// The override layers above this registry, over the same registry, outermost first (a layer's
  /// own rules before its in-force ones): those that may keep an instance of this registry's
  /// rules whose build used them.
  private func layersThatMayKeep(in stack: OverrideStack?) -> [InitializerRegistry] {
    var layers: [InitializerRegistry] = []
    for layer in stack?.layers ?? []
    where layer.base == root && layer.registry.overrideDepth > overrideDepth {
      layers.append(layer.registry)
      layers.append(layer.inForce)
    }
    return layers
  }

  /// `layers`, each with the reset count of `registration`'s scope in it now, as a build starts.
  private func adopters(of registration: AnyRegistration, among layers: [InitializerRegistry])
    -> [Adopter]
  {
    layers.map { layer in
      Adopter(layer: layer, resetCount: layer.resetCount(of: registration.scope))
    }
  }

  /// The instance of `registration` that one of `layers` (the innermost first) or this registry
  /// keeps (the caller holds this registry's `state`), with the handle `handles` asks for; adds
  /// the layer that keeps it to `uses`.
  private func kept(
    _ registration: AnyRegistration, in state: inout State, layers: [InitializerRegistry],
    handles: Handles?, uses: inout LayersUsed
  ) -> SharedValue? {
    for layer in layers.reversed() {
      let kept = layer.withState { layerState -> SharedValue? in
        guard let value = layerState.instances.instance(of: registration) else { return nil }
        uses.add(LayersUsed(layer))
        let handle = handles.flatMap { handles in
          share(value, of: registration, in: &layerState, handles: handles, uses: uses)
        }
        return SharedValue(value: value, handle: handle, keeper: .layer(layer))
      }
      if let kept {
        return kept
      }
    }
    guard let value = state.instances.instance(of: registration) else { return nil }
    let handle = handles.flatMap { handles in
      share(value, of: registration, in: &state, handles: handles, uses: uses)
    }
    return SharedValue(value: value, handle: handle, keeper: .registry)
  }

  /// The handle slots share for `value`, `registration`'s instance, in `state`: the one kept
  /// with it, else one made now with `uses` and recorded there, with the instance if `isKept`,
  /// else as handed out.
  private func share(
    _ value: Any, of registration: AnyRegistration, in state: inout State, handles: Handles,
    uses: LayersUsed, isKept: Bool = true
  ) -> _LazyObjectBox? {
    if isKept, let handle = state.instances.handle(of: registration, as: handles.key) {
      return handle
    }
    guard let made = handles.make(value, uses) else { return nil }
    state.instances.share(made, of: registration, as: handles.key, isKept: isKept)
    return made
  }

  /// The one keeper policy: who keeps the value of this registry's `registration`, built with
  /// the layers `uses`, for a reader whose layers are `stack`; `adopters` are the layers that may
  /// keep it, and `wasReset` says whether its scope was reset here during the build.
  ///
  /// One branch per rule of ARCHITECTURE.md's "Shared instances and the one keeper policy", in
  /// its order. Synchronous and async builds alike end here (`keep`).
  private func keeper(
    of registration: AnyRegistration, builtWith uses: LayersUsed, readerStack stack: OverrideStack?,
    adopters: [Adopter], wasReset: Bool
  ) -> Keeper {
    // Rule 1: the rule's scope was reset here during the build.
    if wasReset {
      return .nobody
    }
    // Rule 2: no layer was used.
    guard let used = uses.layer else {
      return .registry
    }
    // Rule 3: the layers used are no single chain, or the reader's stack joins an object's layers
    // and a reader's that are none.
    if uses.isMixed || stack?.isMerged == true {
      return .nobody
    }
    // Rule 4: the innermost layer used is this registry or one it nests in, on the reader's chain.
    if used.depth <= overrideDepth, stack?.chain(through: used.identifier) != nil {
      return .registry
    }
    // Rule 5: that layer, if it is one over this registry in the reader's stack (an adopter) and
    // its scope was not reset since the build began.
    guard let adopter = adopters.first(where: { ObjectIdentifier($0.layer) == used.identifier })
    else {
      return .nobody
    }
    let isResetSince = adopter.layer.resetCount(of: registration.scope) != adopter.resetCount
    return isResetSince ? .nobody : .layer(adopter.layer)
  }

  /// Ends the build of `registration` (waking the threads and tasks that wait for it), then keeps
  /// its value, built with `uses`, with whom the keeper policy says, and tells `build`'s objects;
  /// returns it with the handle `handles` asks for, or throws the build's error.
  private func keep(
    _ built: Result<Any, any Error>, of registration: AnyRegistration, uses: LayersUsed,
    stack: OverrideStack?, adopters: [Adopter], build: SharedBuild?, handles: Handles?
  ) throws -> SharedValue {
    var waiters: [InstanceStore.Waiter] = []
    defer {
      for waiter in waiters { waiter.resume() }  // After unlocking.
    }
    return try withState { state in
      let ended = state.instances.endBuild(of: registration)
      waiters = ended.waiters
      self.state.lock.broadcast()
      let value = try built.get()
      let keeper = keeper(
        of: registration, builtWith: uses, readerStack: stack, adopters: adopters,
        wasReset: ended.wasReset)
      build?.keeper.withLock { $0 = told(keeper) }
      let handle: _LazyObjectBox?
      switch keeper {
      case .registry:
        handle = try keepAndShare(value, of: registration, in: &state, handles: handles, uses: uses)
      case .layer(let layer):
        handle = try layer.withState { layerState in
          try keepAndShare(value, of: registration, in: &layerState, handles: handles, uses: uses)
        }
      case .nobody where ended.wasReset:
        // Built across a reset of its scope: its slot gets an emptied handle and stays
        // unresolved, so that no read after the reset returns it.
        handle = handles.map { _ in _LazyObjectBox.emptied(origin: registration.source) }
      case .nobody:
        // Handed out by this registry, so that a reset of its scope reaches the slots holding it.
        handle = handles.flatMap { handles in
          share(value, of: registration, in: &state, handles: handles, uses: uses, isKept: false)
        }
      }
      return SharedValue(value: value, handle: handle, keeper: keeper)
    }
  }

  /// What a shared build tells the objects made during it (see `CreationLayers`): the layer of
  /// `keeper`, or nil for a registry; or that nobody keeps the value.
  private func told(_ keeper: Keeper) -> SharedBuild.Keeper {
    switch keeper {
    case .registry: .kept(overrideDepth == 0 ? nil : ObjectIdentifier(self))
    case .layer(let layer): .kept(ObjectIdentifier(layer))
    case .nobody: .notKept
    }
  }

  /// Keeps `value` for `registration` in `state` by its scope, and returns the handle `handles`
  /// asks for.
  ///
  /// - Throws: `.weakScopeRequiresClass` for a value of a `.weak` scope that is no object.
  private func keepAndShare(
    _ value: Any, of registration: AnyRegistration, in state: inout State, handles: Handles?,
    uses: LayersUsed
  ) throws -> _LazyObjectBox? {
    guard state.instances.keep(value, of: registration) else {
      throw ResolutionError.weakScopeRequiresClass(
        rule: registration.rule, valueType: type(of: unwrappingOptionals(value) ?? value))
    }
    return handles.flatMap { handles in
      share(value, of: registration, in: &state, handles: handles, uses: uses)
    }
  }

  /// The value of this registry's async `registration`: what `load()` and `prepare()` await.
  ///
  /// For `container` (nil for an initializer that takes none), built once per scope and kept
  /// by whom the keeper policy says, with the handle `handles` asks for. `uses` gets the layers
  /// used to build it.
  ///
  /// A task that finds the build under way in another task waits for it, then looks again; a
  /// failed build keeps nothing, and the next caller builds anew. The layers the build uses
  /// across its suspensions are recorded in its `SharedBuild`.
  nonisolated(nonsending) func asyncInstance(
    of registration: AnyRegistration, for container: AnyObject?, stack: OverrideStack?,
    handles: Handles?, uses: inout LayersUsed
  ) async throws -> SharedValue {
    let step = WaitGraph.Held(
      slot: nil, registration: ObjectIdentifier(registration), what: .rule(registration.source))
    let sharedBuild = SharedBuild()
    // What the recorder names: the container's class for `load()`, the rule for `prepare()`.
    let recorded: WaitGraph.Step
    if let container {
      recorded = .property(registration.propertyType, in: type(of: container), offset: nil)
    } else {
      recorded = step.what
    }
    let trigger: Timeline.Build.Trigger = container == nil ? .prepare : .load
    guard registration.isShared else {
      let built = await buildAsync(
        registration, for: container, step: step, sharedBuild: sharedBuild, recorded: recorded,
        trigger: trigger)
      return SharedValue(value: try built.get(), handle: nil, keeper: .nobody)
    }
    if let error = AsyncChain.cycle(closedBy: step) { throw error }
    let layers = layersThatMayKeep(in: stack)
    while true {
      let task = AsyncChain.current ?? AsyncChain([])
      if let error = WaitGraph.willWait(for: step.resource, as: task) { throw error }
      let start = Recorder.start
      // Nil: another task builds it, and resumes this one when its build ends.
      var lookup: SharedLookup?
      await withCheckedContinuation { (waiter: InstanceStore.Waiter) in
        lookup = withState { state in
          let kept = kept(registration, in: &state, layers: layers, handles: handles, uses: &uses)
          if let kept {
            return .found(kept)
          }
          guard state.instances.startAsyncBuild(of: registration, orWait: waiter) else {
            return nil
          }
          return .started(adopters: adopters(of: registration, among: layers))
        }
        if lookup != nil {
          waiter.resume()
        }
      }
      WaitGraph.didWait(as: task)
      switch lookup {
      case .found(let found):
        return found
      case .started(let adopters):
        let built = await buildAsync(
          registration, for: container, step: step, sharedBuild: sharedBuild, recorded: recorded,
          trigger: trigger)
        uses.add(sharedBuild.uses.withLock { $0 })
        return try keep(
          built, of: registration, uses: uses, stack: stack, adopters: adopters, build: sharedBuild,
          handles: handles)
      case nil:
        // The other task's build ended: look again.
        Recorder.note(built: nil, of: recorded, trigger: trigger, since: start)
      }
    }
  }

  /// The value of the async `registration`'s initializer for `container`, or the cycle it closes
  /// in this task, or the initializer's error; recorded as a build of `recorded` by `trigger`.
  private nonisolated(nonsending) func buildAsync(
    _ registration: AnyRegistration, for container: AnyObject?, step: WaitGraph.Held,
    sharedBuild: SharedBuild, recorded: WaitGraph.Step, trigger: Timeline.Build.Trigger
  ) async -> Result<Any, any Error> {
    let start = Recorder.start
    defer {
      Recorder.note(
        built: .registration(registration.source), of: recorded, trigger: trigger, since: start)
    }
    do {
      let value = try await AsyncChain.with(step) {
        try await OverrideScope.$sharedBuild.withValue(sharedBuild) {
          SlotLock.assertNoLockHeld()
          return try await registration.makeAsync(container)
        }
      }
      return .success(value)
    } catch {
      return .failure(Self.failure(error, of: registration))
    }
  }

  /// Drops every instance that registrations of `scope` keep, and releases it from every
  /// `@Lazy` and `@WeakLazy` property that holds it: the next read of each resolves again.
  ///
  /// ```swift
  /// extension InitializerRegistry.Scope {
  ///   static let session = Self.custom("session")
  /// }
  ///
  /// func logOut() {
  ///   InitializerRegistry.shared.reset(.session)  // singletons and other scopes stay
  /// }
  /// ```
  ///
  /// Once it returns, no property holds a value that a rule of `scope` in this registry built
  /// before the reset, whether the scope kept it or handed it to one read, and whether the rule
  /// is still registered or was replaced or removed since: the old instance's `deinit` runs as
  /// soon as nothing else holds it, and each property resolves again at its next read, as after
  /// `$property.reset()`. What LazyInject did not put there stays: the app's own references,
  /// values an initializer captured, results of ``resolve(_:for:)``, values assigned by hand.
  /// Unlike `$property.reset()`, it may race with reads: a read racing it returns the old
  /// instance or a new one; a read after it returns never returns one built before it.
  ///
  /// Inside ``withOverrides(_:operation:)`` (or a test under the trait or `OverridingTestCase`),
  /// it resets the instances the innermost layer keeps instead (those its rules built, and
  /// registry instances whose build used them), so that a test never resets the instances
  /// parallel tests share. A layer's instances are its own: a reset outside it never reaches
  /// them, even once it has ended and objects made in it live on.
  public func reset(_ scope: Scope) { resetInstances(of: scope) }

  /// Drops the instances that every scope keeps (`.singleton`, `.weak` and custom scopes), and
  /// releases them from every property that holds them, as ``reset(_:)`` does for one scope.
  ///
  /// ```swift
  /// nonisolated final class CheckoutTests: XCTestCase {
  ///   override func tearDown() {
  ///     InitializerRegistry.shared.resetAllScopes()
  ///   }
  /// }
  /// ```
  ///
  /// Inside ``withOverrides(_:operation:)``, it resets the innermost layer's instances instead.
  public func resetAllScopes() { resetInstances(of: nil) }

  /// Drops the instances of every scope: renamed ``resetAllScopes()``, which says that `.weak`
  /// and custom scopes are reset too.
  @available(*, deprecated, renamed: "resetAllScopes()")
  public func resetSingletons() { resetAllScopes() }

  /// Resets `scope` (every scope if nil) in every registry of `changeTargets`.
  ///
  /// The handles are emptied under the registry's lock: a reset that begins later waits for
  /// them, so that none returns while a property still reads an instance an earlier one dropped.
  /// The instances are released after unlocking: their deinits may resolve.
  private func resetInstances(of scope: Scope?) {
    for target in changeTargets {
      let released = target.withStateChange { state in
        let reset = state.instances.reset(scope)
        return (dropped: reset.dropped, values: _LazyObjectBox.empty(reset.handles))
      }
      _LazyObjectBox.release(released.values)
      withExtendedLifetime(released.dropped) {}
    }
  }
}
