import Dispatch
import _LazyInjectShims

extension InitializerRegistry {
  /// Builds, or finds in its scope, the value of type `propertyType` for `container`.
  ///
  /// ```swift
  /// let manager = try registry.resolve(RequestManager.self, for: UsersViewController())
  /// manager.request("/users")
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
    return try Self.resolve(
      propertyType, for: container, slot: nil,
      plan: expressPlan(for: propertyType, in: container), generally: self, outcome: &outcome)
  }

  /// The resolution pipeline: every resolution, explicit or a first read, comes here with the
  /// express plan it found (see `ExpressPlan`), and tells in `outcome` how it went.
  ///
  /// Inlined into the specialized first read of `@Lazy` (through `_FirstRead.resolve`), so that
  /// a kept object is returned and a `.unique` initializer called with no generic code around
  /// them. `slot` is a `@Lazy` or `@WeakLazy` property's, for a first read; nil for an explicit
  /// resolution. The general path asks `registry`, ``shared`` if nil: a first read touches the
  /// registry only if its plan says so.
  @inlinable
  @inline(__always)
  internal static func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer?,
    plan: ExpressPlan, generally registry: InitializerRegistry?, outcome: inout Outcome
  ) throws -> Property {
    switch plan {
    case .keptObject(let object, let isObserved):
      // Kept only for class types. Returned before any frame: nothing can recur from here.
      assert(Lazy<Property>._storesObject, "an object kept for a property that is no class")
      (outcome.isPinned, outcome.isObserved) = (true, isObserved)
      return unsafeBitCast(object.takeRetainedValue(), to: Property.self)
    case .build(let retained, let isObserved):
      let registration = unsafeDowncast(
        retained.takeRetainedValue(), to: Registration<Property>.self)
      (outcome.isPinned, outcome.isObserved) = (true, isObserved)
      if !Lazy<Property>._storesObject {  // An object value finds its rule in its pin.
        outcome.origin = .registration(registration.source)
      }
      let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
      defer { ResolutionFrame.pop(frame) }
      return try registration.build(for: container)
    case .general:
      return try (registry ?? shared).resolveGenerally(
        propertyType, for: container, slot: slot, outcome: &outcome)
    }
  }

  /// The general path of the pipeline: the rules of every layer, scopes, `init()`, optionals,
  /// the tracer.
  @usableFromInline
  internal func resolveGenerally<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer?,
    outcome: inout Outcome
  ) throws -> Property {
    let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
    defer { ResolutionFrame.pop(frame) }
    let value: Property
    var trace = Trace()
    do {
      value = try self.value(
        of: propertyType, for: container, frame: frame, outcome: &outcome, trace: &trace)
    } catch is NoRule {
      throw missingInitializerError(propertyType, in: type(of: container), frame: frame.pointee)
    }
    if let tracer = trace.tracer, let origin = outcome.origin {
      Self.trace(origin, in: type(of: container), since: trace.start, to: tracer)
    }
    return value
  }

  /// The error to throw when `registration`'s initializer threw `error`: nested resolution
  /// errors pass through; others are wrapped with the rule and the chain.
  ///
  /// Out of line: its temporaries would otherwise take stack in every level of a deep chain.
  @usableFromInline
  @inline(never)
  internal static func failure(_ error: any Error, of registration: AnyRegistration)
    -> any Error
  {
    if error is ResolutionError {
      return error
    }
    return ResolutionError.initializerFailed(
      error, rule: registration.rule, chain: ResolutionFrame.chain)
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

    @inlinable
    init() {}
  }

  /// The tracer of a resolution on the general path, and when the resolution started.
  internal struct Trace {
    /// The registry's tracer, if one is set.
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    /// When the resolution started, if it is traced.
    var start: UInt64 = 0
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
    SlotLock.assertNoLockHeld()
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
    frame: UnsafeMutablePointer<ResolutionFrame>, outcome: inout Outcome, trace: inout Trace
  ) throws -> Property {
    let lookup = try lookUp(propertyType, in: container, slot: frame.pointee.slot)
    outcome.isObserved = lookup.isObserved
    trace.tracer = lookup.tracer
    if trace.tracer != nil && trace.start == 0 {
      trace.start = DispatchTime.now().uptimeNanoseconds
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
      of: propertyType, for: container, frame: frame, lookup: lookup, outcome: &outcome,
      trace: &trace)
  }

  /// The value when no registration applies: `init()`, or for `T?`, the rules of `T` (nil if
  /// none applies to `T`).
  ///
  /// Out of line: its temporaries would otherwise take stack in every level of a deep chain.
  @inline(never)
  private func valueWithoutRegistration<Property>(
    of propertyType: Property.Type, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, lookup: Lookup, outcome: inout Outcome,
    trace: inout Trace
  ) throws -> Property {
    if let defaultType = lookup.defaultInitializable {
      outcome.origin = .defaultInitializer(propertyType)
      outcome.isPinned = lookup.isPinned
      SlotLock.assertNoLockHeld()
      return (defaultType.init() as! Property)
    }
    if let optionalType = propertyType as? any _OptionalDependency.Type {
      let value = try optionalType.resolveWrapped(
        from: self, for: container, frame: frame, outcome: &outcome, trace: &trace)
      return (value as! Property)
    }
    throw NoRule()
  }

  /// Thrown by `value(of:for:frame:outcome:trace:)` when no rule applies.
  internal struct NoRule: Error {}

  /// What a resolution uses: the matching registration and the registry that owns it (the
  /// first searched that has one, see `lookUp`), and the tracer.
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

  /// The rule of the first registry searched that has one (the override layers in force, see
  /// `OverrideStack.searchOrder(over:)`, then this registry): in each, a property rule for
  /// `slot` (the nearest root class first), else the type's rule (the nearest class, then the
  /// root default).
  ///
  /// - Throws: The error of a property rule whose key path leads to another object.
  private func lookUp(_ property: Any.Type, in container: AnyObject, slot: UnsafeRawPointer?)
    throws -> Lookup
  {
    let containerClass: AnyClass = type(of: container)
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    let own = match(for: property, in: containerClass, tracer: &tracer)
    var lookup = Lookup(
      registration: own.registration, owner: self, tracer: tracer, isObserved: own.isObserved,
      defaultInitializable: own.defaultInitializable, isPinned: own.isPinned, layers: [])
    // Until a layer exists, the task-local layers are empty: reading them would cost a sixth of
    // a first read.
    if _lazyinject_overrides_used() != 0, let stack = OverrideScope.current {
      lookup.layers = stack.layers
      for layer in stack.searchOrder(over: self) {
        var unused: (@Sendable (ResolutionEvent) -> Void)?
        let found = layer.match(for: property, in: containerClass, tracer: &unused)
        if let registration =
          try layer.propertyRule(
            for: property, in: container, slot: slot, if: found.hasPropertyRules)
          ?? found.registration
        {
          lookup.registration = registration
          lookup.owner = layer
          return lookup
        }
      }
    }
    if let registration = try propertyRule(
      for: property, in: container, slot: slot, if: own.hasPropertyRules)
    {
      lookup.registration = registration
      lookup.isPinned = false  // Its values are boxed with it: a pair has one pin.
    }
    return lookup
  }

  /// The property rule of this registry for the property at `slot` in `container`, looked for
  /// only if `mayApply` (the pair's match says one may) and `slot` is a property's.
  private func propertyRule(
    for property: Any.Type, in container: AnyObject, slot: UnsafeRawPointer?, if mayApply: Bool
  ) throws -> AnyRegistration? {
    guard mayApply, let slot else { return nil }
    return try propertyRule(for: property, in: container, slot: slot)
  }

  /// The property rule of this registry for the property at `slot` in `container`: the first,
  /// nearest root class first, whose key path leads to `slot`.
  ///
  /// Every rule that applies to the class is checked, so that an invalid one is reported
  /// whichever property is read first.
  ///
  /// - Throws: The error of a rule whose key path leads to another object.
  internal func propertyRule(
    for property: Any.Type, in container: AnyObject, slot: UnsafeRawPointer
  ) throws -> AnyRegistration? {
    let rules = withState { table.propertyRules(for: property, in: type(of: container)) }
    let offset = slot - UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    var found: AnyRegistration?
    for rule in rules {
      // Offsets are found without the registry's lock: applying a key path may run user code.
      if let target = rule.source.property,
        try target.offset(in: container, rule: rule.source) == offset, found == nil
      {
        found = rule
      }
    }
    return found
  }

  /// The error for a property no layer and no `init()` can build.
  ///
  /// Lists the registrations for the property's type of every registry searched: the override
  /// layers in force and this registry. Only the registrations are copied under each lock; their
  /// rules are built and sorted after unlocking, so that a miss never holds up other threads'
  /// resolutions.
  @inline(never)
  internal func missingInitializerError(
    _ property: Any.Type, in containerClass: AnyClass, frame: ResolutionFrame
  ) -> ResolutionError {
    let registries = searchedRegistries
    let registered = registries.flatMap { registry in
      registry.withState { registry.table.registrations(for: property) }
    }
    return ResolutionError.missingInitializer(
      property: property, propertyPath: frame.slot == nil ? nil : frame.propertyPath,
      containerClass: containerClass, searched: RuleTable.ancestry(of: containerClass),
      registered: registered.map(\.rule).sorted {  // Innermost layer first, then by name.
        $0.overrideDepth != $1.overrideDepth
          ? $0.overrideDepth > $1.overrideDepth
          : ($0.containerTypeName ?? "") < ($1.containerTypeName ?? "")
      },
      nearMisses: nearMisses(for: property), chain: ResolutionFrame.chain,
      searchedLayers: Self.layerCount(of: registries))
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
}
