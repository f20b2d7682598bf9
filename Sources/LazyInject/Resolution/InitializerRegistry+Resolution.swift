import Dispatch
import _LazyInjectShims

extension InitializerRegistry {

  /// Builds, or finds in its scope, the value of type `propertyType` for `container`.
  ///
  /// ```swift
  /// let loader = try registry.resolve(ResourceLoader.self, for: usersViewController)
  /// ```
  ///
  /// The registry never retains `container`.
  ///
  /// - Throws: ``ResolutionError`` if no rule applies, if the initializers form a cycle, or if an
  ///   initializer throws.
  public func resolve<Property, Container: AnyObject>(
    _ propertyType: Property.Type, for container: Container
  ) throws -> Property {
    var origin: _LazyOrigin?
    var isObserved = false
    return try resolve(propertyType, for: container, origin: &origin, isObserved: &isObserved)
  }

  /// Resolves; sets `origin` to what produced the value, and `isObserved` to whether the
  /// container conforms to `InjectionObserving`.
  internal func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, origin: inout _LazyOrigin?,
    isObserved: inout Bool
  ) throws -> Property {
    try ResolutionFrame.push(property: propertyType, for: container) {
      let containerClass: AnyClass = type(of: container)
      let lookup = self.lookUp(propertyType, in: containerClass)
      isObserved = lookup.isObserved
      let start = lookup.tracer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
      let value: Property
      if let found = lookup.registration {
        let registration = unsafeDowncast(found, to: Registration<Property>.self)
        origin = .registration(registration)
        value = try lookup.owner.instance(of: registration, for: container)
      } else if let defaultType = propertyType as? any DefaultInitializable.Type {
        origin = .defaultInitializer(propertyType)
        value = defaultType.init() as! Property
      } else {
        throw missingInitializerError(propertyType, in: containerClass)
      }
      if let tracer = lookup.tracer {
        tracer(ResolutionEvent(origin: origin!, containerClass: containerClass, start: start))
      }
      return value
    }
  }

  /// What a resolution uses: the matching registration and the registry that owns it (the
  /// innermost override layer that has one, else this registry), and the tracer.
  private struct Lookup {
    var registration: AnyRegistration?
    var owner: InitializerRegistry
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    var isObserved: Bool
  }

  private func lookUp(_ property: Any.Type, in containerClass: AnyClass) -> Lookup {
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    let own = match(for: property, in: containerClass, tracer: &tracer)
    let layers = OverrideScope.current
    for layer in layers.reversed() where layer.base == ObjectIdentifier(self) {
      var unused: (@Sendable (ResolutionEvent) -> Void)?
      let found = layer.registry.match(for: property, in: containerClass, tracer: &unused)
      if let registration = found.registration {
        return Lookup(
          registration: registration, owner: layer.registry, tracer: tracer,
          isObserved: own.isObserved)
      }
    }
    return Lookup(
      registration: own.registration, owner: self, tracer: tracer, isObserved: own.isObserved)
  }

  /// The error for a property no layer and no `init()` can build.
  ///
  /// Only the matching registrations are copied under the lock; their rules are built and sorted
  /// after unlocking, so that a miss never holds up other threads' resolutions.
  internal func missingInitializerError(_ property: Any.Type, in containerClass: AnyClass)
    -> ResolutionError
  {
    let registered = withState { table.registrations(for: property) }
    return ResolutionError.missingInitializer(
      property: property, containerClass: containerClass,
      searched: RuleTable.ancestry(of: containerClass),
      registered: registered.map(\.rule).sorted {
        ($0.containerTypeName ?? "") < ($1.containerTypeName ?? "")
      },
      chain: ResolutionFrame.chain)
  }

  /// The most specific registration of this registry; also reads the tracer, under the same
  /// lock.
  private func match(
    for property: Any.Type, in containerClass: AnyClass,
    tracer: inout (@Sendable (ResolutionEvent) -> Void)?
  ) -> RuleTable.Match {
    let (match, currentTracer) = withState {
      (table.rule(for: property, in: containerClass), tracerStorage)
    }
    tracer = currentTracer
    return match
  }

  /// Waits for `wakeWaitingThreads()`.
  ///
  /// Call with `lock` held.
  internal func waitForAnotherThread() {
    waitingThreads += 1
    lock.wait()
    waitingThreads -= 1
  }

  /// Wakes the threads in `waitForAnotherThread()`.
  ///
  /// Call with `lock` held.
  internal func wakeWaitingThreads() {
    if waitingThreads > 0 {
      lock.broadcast()
    }
  }
}
