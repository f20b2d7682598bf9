import _LazyInjectShims

extension InitializerRegistry {
  /// The value of `registration` for `container`, built or found according to its scope.
  ///
  /// `layers` are the calling task's override layers.
  internal func instance<Property>(
    of registration: Registration<Property>, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, layers: [OverrideLayer]
  ) throws -> Property {
    if registration.policy == .none {
      return try registration.build(for: container)
    }
    return try sharedInstance(of: registration, for: container, frame: frame, layers: layers)
  }

  /// The instance of a shared (`.singleton`, `.weak` or custom-scope) registration, built by
  /// exactly one thread.
  ///
  /// An instance whose build used a rule of an override layer above this registry belongs to
  /// that layer (the innermost one used): it is kept there, seen only by resolutions under that
  /// layer, and dies with it (see `OverrideAdoption.swift`). Other threads wait for a build
  /// under way, unless waiting would close a cycle (see `WaitGraph`).
  ///
  /// The kept instance travels as `Any` and is cast once: an optional of the generic `Property`
  /// made this path look up generic metadata on every call (a fifth of its time, measured).
  private func sharedInstance<Property>(
    of registration: Registration<Property>, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, layers: [OverrideLayer]
  ) throws -> Property {
    let adopters = layers.isEmpty ? [] : layersAbove(in: layers)
    // The adopters' generations of the scope when this thread starts a build (see below).
    var adopterGenerations: [Int] = []
    let kept: Any? = try lock.withLock {
      while true {
        for layer in adopters.reversed() {
          if let adopted = layer.adoptedInstance(of: registration) {
            frame.pointee.use(layer)
            return adopted
          }
        }
        if let kept = registration.policy.keptInstance(of: registration) {
          return kept
        }
        let thread = _lazyinject_thread_identity()
        guard let builder = registration.builder else {
          registration.builder = thread
          registration.builtInGeneration = scopeGenerations[registration.scope, default: 0]
          adopterGenerations = adopters.map { $0.generation(of: registration.scope) }
          frame.pointee.building = ObjectIdentifier(registration)
          return nil
        }
        if builder == thread {
          throw ResolutionError.dependencyCycle(
            steps: ResolutionFrame.chain.map(\.summary) + ["\(registration.rule) again"],
            isDepthLimit: false)
        }
        if let cycle = WaitGraph.willWait(for: .registration(ObjectIdentifier(registration))) {
          throw cycle
        }
        waitForAnotherThread()
        WaitGraph.didWait()
      }
    }
    if let kept {
      return kept as! Property
    }
    let finish = { [self] in
      registration.builder = nil
      frame.pointee.building = nil
      wakeWaitingThreads()
    }
    let value: Property
    do {
      value = try registration.build(for: container)
    } catch {
      lock.withLock(finish)
      throw error
    }
    // The layer whose rules the build used, if it lies above this registry: one of the adopters,
    // which this resolution holds (a layer that is not among them cannot adopt).
    let used = frame.pointee.layer.flatMap { $0.depth > overrideDepth ? $0 : nil }
    try lock.withLock {
      finish()
      // A reset of the scope while the value was built: it goes to this caller only, which
      // asked before the reset; resolutions that asked after it build anew. The same for a
      // build that used the layers of several registries, or of a registry other than this
      // one's, or any layer of a merged stack (see `OverrideStack.isMerged`): no layer that
      // this registry's resolutions search may keep it.
      guard registration.builtInGeneration == scopeGenerations[registration.scope, default: 0],
        !frame.pointee.usesSeveralRegistries,
        frame.pointee.layer == nil || OverrideScope.current?.isMerged != true
      else { return }
      guard let used else {
        try registration.policy.keep(value, in: registration)
        return
      }
      if let index = adopters.firstIndex(where: { ObjectIdentifier($0) == used.identifier }),
        adopters[index].generation(of: registration.scope) == adopterGenerations[index]
      {
        try adopters[index].adopt(value, of: registration)
      }
    }
    return value
  }
}
