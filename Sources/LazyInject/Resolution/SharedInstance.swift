import _LazyInjectShims

extension InitializerRegistry {
  /// The value of `registration`, one of this registry's rules, for `container`, as a
  /// `Property`: built, or found where its scope keeps it.
  ///
  /// `stack` is the calling task's override layers. A registration of another type is a rule
  /// of `T` serving a `T?` property: its value is wrapped. Of an async registration, only what
  /// its scope keeps: a synchronous resolution never awaits.
  internal func instance<Property>(
    of registration: AnyRegistration, as property: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, stack: OverrideStack?
  ) throws -> Property {
    guard registration.propertyType == property, !registration.source.isAsync else {
      return try sharedInstance(of: registration, for: container, frame: frame, stack: stack) {
        if registration.source.isAsync {
          throw ResolutionError.requiresLoad(
            frame.pointee.summary, registration, of: self, slot: frame.pointee.slot)
        }
        do { return try registration.makeAny(container) } catch {
          throw Self.failure(error, of: registration)
        }
      } as! Property
    }
    let typed = unsafeDowncast(registration, to: Registration<Property>.self)
    // No other frame: deep chains of first reads take this way.
    guard registration.policy != .none else { return try Self.build(typed, for: container) }
    return try sharedInstance(of: registration, for: container, frame: frame, stack: stack) {
      try Self.build(typed, for: container)
    }
  }

  /// The instance of `registration` by its scope: `build` for `.unique`; else the instance kept,
  /// or one built by exactly one thread and kept.
  ///
  /// An instance whose build used a rule of an override layer above this registry belongs to
  /// that layer (the innermost one used): it is kept there, seen only by resolutions under that
  /// layer, and dies with it. One whose build used layers that are no single chain (an object's
  /// layers and a reader's, or two registries' layers) is kept by nobody: it goes to that read
  /// alone. Other threads wait for a build under way, unless waiting would close a cycle (see
  /// `WaitGraph`).
  private func sharedInstance<Value>(
    of registration: AnyRegistration, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, stack: OverrideStack?, build: () throws -> Value
  ) throws -> Value {
    guard registration.policy != .none else { return try build() }
    // The registries of the layers above this one, over the same registry, outermost first: a
    // layer's own rules before its in-force ones. Each may keep an instance it adopted.
    let adopters: [InitializerRegistry] = (stack?.layers ?? []).flatMap { layer in
      layer.base == root && layer.registry.overrideDepth > overrideDepth
        ? [layer.registry, layer.inForce] : []
    }
    var adopterGenerations: [Int] = []
    let kept: Any? = try state.lock.withLock {
      while true {
        for layer in adopters.reversed() {
          if let adopted = layer.withState({ $0.instances.instance(of: registration) }) {
            frame.pointee.use(layer)
            return adopted
          }
        }
        if let kept = state.value.instances.instance(of: registration) { return kept }
        let thread = _lazyinject_thread_identity()
        guard let builder = state.value.instances.builder(of: registration) else {
          state.value.instances.setBuilder(thread, of: registration)
          adopterGenerations = adopters.map { layer in
            layer.withState { $0.instances.generation(of: registration.scope) }
          }
          frame.pointee.building = ObjectIdentifier(registration)
          return nil
        }
        if builder == thread {
          throw ResolutionError.dependencyCycle(
            steps: ResolutionFrame.chain.map(\.summary) + ["\(registration.rule) again"])
        }
        if let cycle = WaitGraph.willWait(for: .registration(ObjectIdentifier(registration))) {
          throw cycle
        }
        state.lock.wait()
        WaitGraph.didWait()
      }
    }
    if let kept { return kept as! Value }
    // Objects made by the build learn from it which layers keep them (see `Capture`).
    let sharedBuild = stack == nil ? nil : SharedBuild()
    let built = Result {
      try sharedBuild.map { try OverrideScope.$sharedBuild.withValue($0, operation: build) }
        ?? build()
    }
    // The values the sender keeps may have been built with other layers' rules: the build may
    // have read them.
    if _lazyinject_overrides_used() != 0 {
      frame.pointee.taint.add(LayerTaint.of(container, within: stack))
    }
    let taint = frame.pointee.taint
    let (value, keeper) = try state.lock.withLock { () throws -> (Value, SharedBuild.Keeper) in
      let wasReset = state.value.instances.setBuilder(nil, of: registration)
      frame.pointee.building = nil
      state.lock.broadcast()
      let value = try built.get()
      // A reset of the scope while the value was built: it goes to this caller only, which
      // asked before the reset; resolutions that asked after it build anew. The same for a build
      // whose layers are no single chain.
      guard !wasReset, !taint.forbidsKeeping, stack?.isMerged != true else {
        return (value, .notKept)
      }
      // This registry keeps it if the build used no layer, or only this one and those it nests in
      // (in force now, over the same registry, no deeper).
      guard let used = taint.layer,
        used.depth > overrideDepth || stack?.chain(through: used.identifier) == nil
      else {
        try keep(value, of: registration, in: &state.value)
        return (value, .kept(overrideDepth == 0 ? nil : ObjectIdentifier(self)))
      }
      // Else the layer whose rules it used, if that is one of the adopters, which this
      // resolution holds (a layer that is not in force here cannot keep it).
      guard let index = adopters.firstIndex(where: { ObjectIdentifier($0) == used.identifier }),
        adopters[index].withState({ $0.instances.generation(of: registration.scope) })
          == adopterGenerations[index]
      else { return (value, .notKept) }
      try adopters[index].withState { try keep(value, of: registration, in: &$0) }
      return (value, .kept(used.identifier))
    }
    sharedBuild?.keeper.withLock { $0 = keeper }
    return value
  }

  /// The value of this registry's async `registration` for `container` (nil for an initializer
  /// that takes no sender), built once per scope: what `load()` and `prepare()` await.
  ///
  /// A task that finds the build under way in another task waits for it, then looks again; a
  /// failed build keeps nothing, and the next caller builds anew. Under override layers, the
  /// innermost one over this registry keeps the instance: a build's own `load()`s cross
  /// suspensions, where no frame records the rules they use.
  nonisolated(nonsending) func asyncInstance(
    of registration: AnyRegistration, for container: AnyObject?
  ) async throws -> Any {
    let step = WaitGraph.Held(
      slot: 0, registration: ObjectIdentifier(registration), summary: "\(registration.rule)")
    let build = { () async throws -> Any in
      try await AsyncChain.with(step) {
        do { return try await registration.makeAsync(container) } catch {
          throw Self.failure(error, of: registration)
        }
      }
    }
    guard registration.policy != .none else { return try await build() }
    if let error = AsyncChain.cycle(closedBy: step) { throw error }
    let keeper =
      overrideDepth == 0 ? OverrideScope.innermostLayer(over: self)?.registry ?? self : self
    while true {
      if keeper !== self, let kept = withState({ $0.instances.instance(of: registration) }) {
        return kept
      }
      let task = AsyncChain.current ?? AsyncChain([])
      if let error = WaitGraph.willWait(for: step.resource, as: task) { throw error }
      var (kept, isClaimed): (Any?, Bool) = (nil, false)
      await withCheckedContinuation { (waiter: InstanceStore.Waiter) in
        keeper.withState { state in
          kept = state.instances.instance(of: registration)
          isClaimed =
            kept == nil && state.instances.claimAsyncBuild(of: registration, orWait: waiter)
        }
        if kept != nil || isClaimed { waiter.resume() }
      }
      WaitGraph.didWait(as: task)
      if let kept { return kept }
      guard isClaimed else { continue }  // The other task's build ended: look again.
      let result: Result<Any, any Error>
      do { result = .success(try await build()) } catch { result = .failure(error) }
      let (waiters, failure) = keeper.withState { state -> ([InstanceStore.Waiter], (any Error)?) in
        let (wasReset, waiters) = state.instances.endAsyncBuild(of: registration)
        guard !wasReset, case .success(let value) = result else { return (waiters, nil) }
        do { try keep(value, of: registration, in: &state) } catch { return (waiters, error) }
        return (waiters, nil)
      }
      for waiter in waiters { waiter.resume() }
      if let failure { throw failure }
      return try result.get()
    }
  }

  /// Keeps `value` for `registration` in `state`.
  ///
  /// - Throws: For a `.weak` registration whose value is no object.
  private func keep(_ value: Any, of registration: AnyRegistration, in state: inout State) throws {
    guard state.instances.keep(value, of: registration) else {
      throw ResolutionError.weakScopeRequiresClass(
        rule: registration.rule, valueType: type(of: unwrappingOptionals(value) ?? value))
    }
  }
}
