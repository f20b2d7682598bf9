import _LazyInjectShims

// Shared instances: building a `.singleton`, `.weak` or custom-scope value once, the one policy
// that decides who keeps it (for synchronous and async builds alike), the handle that slots
// holding it share, and the resets that reach those slots.

extension InitializerRegistry {
  /// The value of `registration`, one of this registry's rules, for `container`, as a
  /// `Property`: built, or found where its scope keeps it; for a shared value asked through a
  /// slot (`outcome.handle` wanted), the handle the slot keeps.
  ///
  /// `stack` is the calling task's override layers. A registration of another type is a rule of
  /// `T` serving a `T?` property: its value is wrapped. Of an async registration, only what its
  /// scope keeps: a synchronous resolution never awaits.
  internal func instance<Property>(
    of registration: AnyRegistration, as property: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, stack: OverrideStack?, outcome: inout Outcome
  ) throws -> Property {
    // No other frame on the stack: deep chains of first reads take this way.
    guard registration.isShared || registration.source.isAsync else {
      return try Self.build(registration, as: property, for: container)
    }
    return try sharedInstance(
      of: registration, as: property, for: container, frame: frame, stack: stack, outcome: &outcome)
  }

  /// Builds `registration`'s value for `container` as a `Property` (wrapped, for a rule of `T`
  /// serving a `T?` property), with no lock of LazyInject held; an error of the initializer other
  /// than a nested resolution's is wrapped with the rule and the chain.
  private static func build<Property>(
    _ registration: AnyRegistration, as property: Property.Type, for container: AnyObject
  ) throws -> Property {
    SlotLock.assertNoLockHeld()
    let start = Recorder.start
    defer { if start != 0 { Recorder.note(.registration(registration.source), since: start) } }
    do {
      guard registration.propertyType == property else {
        return try registration.makeAny(container) as! Property
      }
      return try unsafeDowncast(registration, to: Registration<Property>.self).make(container)
    } catch { throw failure(error, of: registration) }
  }

  /// How to make the handle that the slots of one property type share for a shared value, and
  /// the key it is shared by: the property type and the rule that serves the property (a forward
  /// asks its target's rule for a handle of its own).
  struct Handles {
    let key: InstanceStore.HandleKey
    let make: (Any, LayersUsed) -> _LazyObjectBox?

    init<Property>(_: Property.Type, rule: RuleSource) {
      key = .init(property: ObjectIdentifier(Property.self), rule: ObjectIdentifier(rule))
      make = { value, uses in
        (value as? Property).map { _LazyObjectBox($0, origin: .registration(rule), uses: uses) }
      }
    }
  }

  /// How many times `scope` was reset in this registry: what `keep` compares across a build.
  func generation(of scope: Scope) -> Int { withState { $0.instances.generation(of: scope) } }

  /// The override layers above this registry, over the same registry, outermost first (a layer's
  /// own rules before its in-force ones): those that may keep an instance of this registry's
  /// rules whose build used them.
  private func adopters(in stack: OverrideStack?) -> [InitializerRegistry] {
    (stack?.layers ?? []).flatMap { layer in
      layer.base == root && layer.registry.overrideDepth > overrideDepth
        ? [layer.registry, layer.inForce] : []
    }
  }

  /// The instance of `registration` kept by one of `adopters` (the innermost first) or by this
  /// registry, whose `state` the caller holds, with the handle `handle` asks for; adds the layer
  /// that kept it to `uses`.
  private func kept(
    _ registration: AnyRegistration, in state: inout State, _ adopters: [InitializerRegistry],
    _ handle: Handles?, _ uses: inout LayersUsed
  ) -> (Any, _LazyObjectBox?)? {
    func found(in state: inout State, by layer: InitializerRegistry?) -> (Any, _LazyObjectBox?)? {
      guard let value = state.instances.instance(of: registration) else { return nil }
      if let layer { uses.add(LayersUsed(layer)) }
      return (value, handle.flatMap { share(value, of: registration, in: &state, $0, uses) })
    }
    for layer in adopters.reversed() {
      if let kept = layer.withState({ found(in: &$0, by: layer) }) { return kept }
    }
    return found(in: &state, by: nil)
  }

  /// The handle slots share for `value`, `registration`'s instance kept in `state` (handed out
  /// there if not kept), made with `uses` if none is alive.
  private func share(
    _ value: Any, of registration: AnyRegistration, in state: inout State, _ handle: Handles,
    _ uses: LayersUsed, isKept: Bool = true
  ) -> _LazyObjectBox? {
    if isKept, let box = state.instances.handle(of: registration, as: handle.key) { return box }
    let made = handle.make(value, uses)
    made.map { state.instances.share($0, of: registration, as: handle.key, isKept: isKept) }
    return made
  }

  /// The instance of a shared or async `registration` by its scope (see `instance`), and in
  /// `outcome` the handle for a slot (or for the forward that asks, `outcome.handles`).
  ///
  /// The instance kept, or one built by exactly one thread and kept by whom `keep` says. Other
  /// threads wait for a build under way, unless waiting would close a cycle (see `WaitGraph`).
  /// Of an async rule, only the instance kept, else the error that says to prepare or load it.
  private func sharedInstance<Property>(
    of registration: AnyRegistration, as property: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, stack: OverrideStack?, outcome: inout Outcome
  ) throws -> Property {
    let handle =
      outcome.handles
      ?? frame.pointee.slot.map { _ in Handles(Property.self, rule: registration.source) }
    let adopters = adopters(in: stack)
    var generations: [Int] = []
    var found: (value: Any, handle: _LazyObjectBox?)? = try state.lock.withLock {
      while true {
        if let found = kept(registration, in: &state.value, adopters, handle, &frame.pointee.uses) {
          return found
        }
        // A synchronous resolution never awaits.
        guard !registration.source.isAsync else {
          throw ResolutionError.requiresLoad(frame.pointee.step.summary, registration)
        }
        let thread = _lazyinject_thread_identity()
        guard let builder = state.value.instances.builder(of: registration) else {
          state.value.instances.setBuilder(thread, of: registration)
          generations = adopters.map { $0.generation(of: registration.scope) }
          frame.pointee.building = ObjectIdentifier(registration)
          return nil
        }
        if builder == thread {
          throw ResolutionError.dependencyCycle(
            steps: ResolutionFrame.chain.map(\.step.summary) + ["\(registration.rule) again"])
        }
        if let cycle = WaitGraph.willWait(for: .registration(ObjectIdentifier(registration))) {
          throw cycle
        }
        let start = Recorder.start
        state.lock.wait()
        WaitGraph.didWait()
        Recorder.note(nil, frame.pointee.step, since: start)
      }
    }
    if found == nil {
      // Objects made by the build learn from it which layers keep them (see `CreationLayers`).
      let sharedBuild = stack == nil ? nil : SharedBuild()
      let build = { try Self.build(registration, as: property, for: container) }
      let built = Result<Any, any Error> {
        try sharedBuild.map { try OverrideScope.$sharedBuild.withValue($0, operation: build) }
          ?? build()
      }
      frame.pointee.building = nil
      found = try keep(
        built, of: registration, uses: frame.pointee.uses, stack: stack, adopters: adopters,
        generations: generations, build: sharedBuild, handle: handle)
    }
    outcome.handle = found?.handle
    return found!.value as! Property
  }

  /// Ends the build of `registration` (waking the threads and tasks that wait for it), then
  /// keeps its value, built with `uses`, with whom the one keeper policy says (this registry or
  /// a layer), and tells `build`'s objects; returns it with the handle `handle` asks for (handed
  /// out in this registry's state when nobody keeps it), or throws the build's error.
  ///
  /// This registry keeps it if the build used no layer, or only this registry's own layer and
  /// those it nests in (in force now); else the innermost layer used, if it keeps instances here
  /// (one of `adopters`) and was not reset since the build began (`generations`); else nobody:
  /// the value goes to that read alone, as when the scope was reset during the build or the
  /// layers used are no single chain.
  private func keep(
    _ built: Result<Any, any Error>, of registration: AnyRegistration, uses: LayersUsed,
    stack: OverrideStack?, adopters: [InitializerRegistry], generations: [Int],
    build: SharedBuild?, handle: Handles?
  ) throws -> (Any, _LazyObjectBox?) {
    var (wasReset, waiters) = (false, [InstanceStore.Waiter]())
    defer { for waiter in waiters { waiter.resume() } }  // After unlocking.
    return try state.lock.withLock {
      (wasReset, waiters) = state.value.instances.endBuild(of: registration)
      state.lock.broadcast()
      let value = try built.get()
      var keeper: InitializerRegistry? = wasReset ? nil : self
      if let used = uses.layer, keeper != nil {
        if uses.isMixed || stack?.isMerged == true {
          keeper = nil
        } else if used.depth > overrideDepth || stack?.chain(through: used.identifier) == nil {
          keeper = adopters.firstIndex { ObjectIdentifier($0) == used.identifier }.flatMap {
            adopters[$0].generation(of: registration.scope) == generations[$0] ? adopters[$0] : nil
          }
        }
      }
      let keepIn = { (state: inout State) throws -> _LazyObjectBox? in
        if keeper != nil, !state.instances.keep(value, of: registration) {
          throw ResolutionError.weakScopeRequiresClass(
            rule: registration.rule, valueType: type(of: unwrappingOptionals(value) ?? value))
        }
        // Built across a reset of its scope: it goes to the read that asked before the reset,
        // and its slot stays unresolved, so that no read after the reset returns it.
        guard !wasReset else { return handle.map { _ in .emptied(origin: registration.source) } }
        return handle.flatMap {
          self.share(value, of: registration, in: &state, $0, uses, isKept: keeper != nil)
        }
      }
      let box =
        try keeper.map { $0 === self ? try keepIn(&state.value) : try $0.withState(keepIn) }
        ?? keepIn(&state.value)
      build?.keeper.withLock {
        $0 = keeper.map { .kept($0.overrideDepth == 0 ? nil : ObjectIdentifier($0)) } ?? .notKept
      }
      return (value, box)
    }
  }

  /// The value of this registry's async `registration`: what `load()` and `prepare()` await.
  ///
  /// For `container` (nil for an initializer that takes no sender), built once per scope and kept
  /// by whom the one keeper policy says, with the handle `handle` asks for. `uses` gets the
  /// layers used to build it.
  ///
  /// A task that finds the build under way in another task waits for it, then looks again; a
  /// failed build keeps nothing, and the next caller builds anew. The layers the build uses
  /// across its suspensions are recorded in its `SharedBuild`.
  nonisolated(nonsending) func asyncInstance(
    of registration: AnyRegistration, for container: AnyObject?, stack: OverrideStack?,
    handle: Handles?, uses: inout LayersUsed
  ) async throws -> (Any, _LazyObjectBox?) {
    let source = registration.source
    let step = WaitGraph.Held(
      slot: 0, registration: ObjectIdentifier(registration), what: .rule(source))
    let record = SharedBuild()
    // What the recorder names: the container's class for `load()`, the rule for `prepare()`.
    let recorded =
      container.map { .property(registration.propertyType, in: type(of: $0), offset: nil) }
      ?? step.what
    let entry: Timeline.Build.Entry = container == nil ? .prepare : .load
    // Its value, or the cycle it closes in this task, or its initializer's error.
    let build = { () async -> Result<Any, any Error> in
      let start = Recorder.start
      defer { Recorder.note(.registration(source), recorded, entry: entry, since: start) }
      do {
        return .success(
          try await AsyncChain.with(step) {
            try await OverrideScope.$sharedBuild.withValue(record) {
              SlotLock.assertNoLockHeld()
              return try await registration.makeAsync(container)
            }
          })
      } catch { return .failure(Self.failure(error, of: registration)) }
    }
    guard registration.isShared else { return (try await build().get(), nil) }
    if let error = AsyncChain.cycle(closedBy: step) { throw error }
    let adopters = adopters(in: stack)
    while true {
      var (found, isClaimed, generations): ((Any, _LazyObjectBox?)?, Bool, [Int]) = (nil, false, [])
      let task = AsyncChain.current ?? AsyncChain([])
      if let error = WaitGraph.willWait(for: step.resource, as: task) { throw error }
      let start = Recorder.start
      await withCheckedContinuation { (waiter: InstanceStore.Waiter) in
        withState { state in
          found = kept(registration, in: &state, adopters, handle, &uses)
          isClaimed =
            found == nil && state.instances.claimAsyncBuild(of: registration, orWait: waiter)
        }
        if isClaimed { generations = adopters.map { $0.generation(of: registration.scope) } }
        if found != nil || isClaimed { waiter.resume() }
      }
      WaitGraph.didWait(as: task)
      if found == nil, !isClaimed { Recorder.note(nil, recorded, entry: entry, since: start) }
      if let found { return found }
      guard isClaimed else { continue }  // The other task's build ended: look again.
      let built = await build()
      uses.add(record.uses.withLock { $0 })
      return try keep(
        built, of: registration, uses: uses, stack: stack, adopters: adopters,
        generations: generations, build: record, handle: handle)
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
