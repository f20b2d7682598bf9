import Dispatch
import _LazyInjectShims

extension InitializerRegistry {
  /// Builds, or finds in its scope, the value of type `propertyType` for `container`.
  ///
  /// ```swift
  /// let loader = try registry.resolve(ResourceLoader.self, for: UsersViewController())
  /// ```
  ///
  /// The registry never retains `container`.
  ///
  /// - Throws: ``ResolutionError`` if no rule applies, if the initializers form a cycle, or if an
  ///   initializer throws.
  public func resolve<Property, Container: AnyObject>(
    _ propertyType: Property.Type, for container: Container
  ) throws -> Property {
    var outcome = Outcome()
    return try resolve(propertyType, for: container, outcome: &outcome)
  }

  /// Resolves `propertyType` for `container`, through `slot` for a `@Lazy` property's first read,
  /// and tells in `outcome` how.
  internal func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer? = nil,
    outcome: inout Outcome
  ) throws -> Property {
    switch expressPlan(for: propertyType, in: container) {
    case .keptObject(let object, let isObserved):
      // An instance kept already is returned before any frame: nothing can recur from here.
      (outcome.isPinned, outcome.isObserved) = (true, isObserved)
      return unsafeBitCast(object.takeRetainedValue(), to: Property.self)
    case .build(let retained, let isObserved):
      let found = retained.takeRetainedValue()
      (outcome.isPinned, outcome.isObserved) = (true, isObserved)
      outcome.origin = .registration(found.source)
      let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
      defer { ResolutionFrame.pop(frame) }
      return try build(unsafeDowncast(found, to: Registration<Property>.self), for: container)
    case .general:
      return try resolveGenerally(propertyType, for: container, slot: slot, outcome: &outcome)
    }
  }

  /// Resolves as `resolve(_:for:slot:outcome:)` does, without asking for the express plan: for
  /// a caller that asked already.
  internal func resolveGenerally<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer?,
    outcome: inout Outcome
  ) throws -> Property {
    let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
    defer { ResolutionFrame.pop(frame) }
    let value: Property
    do {
      value = try self.value(of: propertyType, for: container, frame: frame, outcome: &outcome)
    } catch is NoRule {
      throw missingInitializerError(propertyType, in: type(of: container), frame: frame.pointee)
    }
    if let tracer = outcome.tracer, let origin = outcome.origin {
      Self.trace(origin, in: type(of: container), since: outcome.start, to: tracer)
    }
    return value
  }

  /// How a resolution goes when a single look under the lock settles it.
  ///
  /// Only for a registration that is its pair's pin (see `RulePin`): the value then needs no
  /// record of its rule besides the pin.
  @usableFromInline
  internal enum ExpressPlan {
    /// Return this object, kept by a `.singleton` or custom-scope registration of a class type.
    /// Retained once: the receiver owns that +1 (a slot takes it as its own).
    case keptObject(Unmanaged<AnyObject>, isObserved: Bool)
    /// Build with this `.unique` registration, after unlocking. Retained once: the receiver
    /// releases it after the build.
    case build(Unmanaged<AnyRegistration>, isObserved: Bool)
    /// Take the general path.
    case general

    /// The plan, its payload retained once.
    fileprivate func retained() -> ExpressPlan {
      switch self {
      case .keptObject(let object, _): _ = object.retain()
      case .build(let registration, _): _ = registration.retain()
      case .general: break
      }
      return self
    }
  }

  /// The express plan, when no override layer was ever made, no tracer is set, and the pair's
  /// registration is its pin and is `.unique` or keeps an object.
  ///
  /// One lock, no task-local read, no copies of the tracer or the layers. The shared registry
  /// also records the plan in the `ExpressTable`, where later first reads of the pair find it
  /// without this lock. Not generic: an optional of the property type would cost a lookup of
  /// its metadata on every call.
  @usableFromInline
  internal func expressPlan(for propertyType: Any.Type, in container: AnyObject) -> ExpressPlan {
    guard _lazyinject_overrides_used() == 0 else { return .general }
    // `withState` would wrap the plan in an optional; the general path installs the automatic
    // modules if they are not yet.
    return lock.withLock {
      guard case .installed = automaticModules, tracerStorage == nil else { return .general }
      let match = table.probe(for: propertyType, in: type(of: container))
      guard match.isPinned, let found = match.registration else { return .general }
      // Other kept instances (structs, weak ones) take the general path, which casts them.
      let plan: ExpressPlan = found._withUnsafeGuaranteedRef { registration in
        if let object = registration.singletonObject {
          return .keptObject(.passUnretained(object), isObserved: match.isObserved)
        }
        if registration.isUnique {
          return .build(found, isObserved: match.isObserved)
        }
        return .general
      }
      if self === Self.shared {  // The registry `@Lazy` reads.
        ExpressTable.insert(plan, property: propertyType, in: type(of: container))
      }
      return plan.retained()
    }
  }

  /// What a resolution learns on the way, besides the value.
  @usableFromInline
  internal struct Outcome {
    /// What produced the value.
    @usableFromInline var origin: _LazyOrigin?
    /// Whether the rule that produced the value is the pair's pin (see `RulePin`): a `@Lazy`
    /// property then stores an object value without a box.
    @usableFromInline var isPinned = false
    /// Whether the container conforms to `InjectionObserving`.
    @usableFromInline var isObserved = false
    /// The registry's tracer, if one is set.
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    /// When the resolution started, if it is traced.
    var start: UInt64 = 0

    @inlinable
    init() {}
  }

  /// Sends the event of a resolution that started at `start` to `tracer`.
  ///
  /// Out of line, like the error above: a deep chain of resolutions pays the stack of this
  /// function's temporaries only once.
  @inline(never)
  private static func trace(
    _ origin: _LazyOrigin, in containerClass: AnyClass, since start: UInt64,
    to tracer: @Sendable (ResolutionEvent) -> Void
  ) {
    tracer(ResolutionEvent(origin: origin, containerClass: containerClass, start: start))
  }

  /// The value of the first rule that applies to `propertyType` in `container`: a registration
  /// (the innermost override layer's first), `init()`, or for an optional type, the rules of the
  /// wrapped type.
  ///
  /// - Throws: `NoRule` if none applies (an optional of `Property` would cost a lookup of its
  ///   generic metadata on every resolution), or the error of a rule that failed.
  internal func value<Property>(
    of propertyType: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, outcome: inout Outcome
  ) throws -> Property {
    let lookup = lookUp(propertyType, in: type(of: container))
    outcome.isObserved = lookup.isObserved
    outcome.tracer = lookup.tracer
    if outcome.tracer != nil && outcome.start == 0 {
      outcome.start = DispatchTime.now().uptimeNanoseconds
    }
    if let found = lookup.registration {
      let registration = unsafeDowncast(found, to: Registration<Property>.self)
      outcome.origin = .registration(registration.source)
      if lookup.owner !== self {
        frame.pointee.use(lookup.owner)
      } else {
        outcome.isPinned = lookup.isPinned
      }
      return try lookup.owner.instance(
        of: registration, for: container, frame: frame, layers: lookup.layers)
    }
    return try valueWithoutRegistration(
      of: propertyType, for: container, frame: frame, lookup: lookup, outcome: &outcome)
  }

  /// The value when no registration applies: `init()`, or for `T?`, the rules of `T` (nil if
  /// none applies to `T`).
  ///
  /// Out of line: its temporaries would otherwise take stack in every level of a deep chain.
  @inline(never)
  private func valueWithoutRegistration<Property>(
    of propertyType: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, lookup: Lookup, outcome: inout Outcome
  ) throws -> Property {
    if let defaultType = lookup.defaultInitializable {
      outcome.origin = .defaultInitializer(propertyType)
      outcome.isPinned = lookup.isPinned
      return (defaultType.init() as! Property)
    }
    if let optionalType = propertyType as? any _OptionalDependency.Type {
      let value = try optionalType.resolveWrapped(
        from: self, for: container, frame: frame, outcome: &outcome)
      return (value as! Property)
    }
    throw NoRule()
  }

  /// Thrown by `value(of:for:frame:outcome:)` when no rule applies.
  internal struct NoRule: Error {}

  /// What a resolution uses: the matching registration and the registry that owns it (the
  /// innermost override layer that has one, else this registry), and the tracer.
  private struct Lookup {
    var registration: AnyRegistration?
    var owner: InitializerRegistry
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    var isObserved: Bool
    /// The property type, if it is `DefaultInitializable`.
    var defaultInitializable: (any DefaultInitializable.Type)?
    /// Whether the registry's own rule for the pair is its pin.
    var isPinned: Bool
    /// The override layers of the calling task, read once per resolution.
    var layers: [OverrideLayer]
  }

  private func lookUp(_ property: Any.Type, in containerClass: AnyClass) -> Lookup {
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    let own = match(for: property, in: containerClass, tracer: &tracer)
    var lookup = Lookup(
      registration: own.registration, owner: self, tracer: tracer, isObserved: own.isObserved,
      defaultInitializable: own.defaultInitializable, isPinned: own.isPinned, layers: [])
    // Until a layer exists, the task-local layers are empty: reading them would cost a sixth of
    // a first read.
    guard _lazyinject_overrides_used() != 0 else { return lookup }
    lookup.layers = OverrideScope.current
    for layer in lookup.layers.reversed() where layer.base == ObjectIdentifier(self) {
      var unused: (@Sendable (ResolutionEvent) -> Void)?
      let found = layer.registry.match(for: property, in: containerClass, tracer: &unused)
      if let registration = found.registration {
        lookup.registration = registration
        lookup.owner = layer.registry
        return lookup
      }
    }
    return lookup
  }

  /// The error for a property no layer and no `init()` can build.
  ///
  /// Only the matching registrations are copied under the lock; their rules are built and sorted
  /// after unlocking, so that a miss never holds up other threads' resolutions.
  @inline(never)
  internal func missingInitializerError(
    _ property: Any.Type, in containerClass: AnyClass, frame: ResolutionFrame
  ) -> ResolutionError {
    let registered = withState { table.registrations(for: property) }
    return ResolutionError.missingInitializer(
      property: property, propertyPath: frame.slot == nil ? nil : frame.propertyPath,
      containerClass: containerClass, searched: RuleTable.ancestry(of: containerClass),
      registered: registered.map(\.rule).sorted {
        ($0.containerTypeName ?? "") < ($1.containerTypeName ?? "")
      },
      nearMisses: nearMisses(for: property), chain: ResolutionFrame.chain)
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
