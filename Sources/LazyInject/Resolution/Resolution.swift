import _LazyInjectShims

extension InitializerRegistry {
  /// Builds, or finds in its scope, the value of type `propertyType` for `container`.
  ///
  /// ```swift
  /// let manager = try registry.resolve(RequestManager.self, for: UsersViewController())
  /// manager.request("/users")
  /// ```
  ///
  /// It uses the type's rules (no rule for one property: it names no property) and the override
  /// layers in force where it is called, whatever layers `container` was made under; the
  /// initializer's own resolutions see the same. The registry never retains `container`.
  ///
  /// - Throws: ``ResolutionError`` if no rule applies, if the initializers form a cycle, or if an
  ///   initializer throws.
  public func resolve<Property, Container: AnyObject>(
    _ propertyType: Property.Type, for container: Container
  ) throws -> Property {
    var outcome = Outcome()
    return try Self.resolve(propertyType, for: container, registry: self, outcome: &outcome)
  }

  /// The resolution, in order: decide what serves `propertyType` for `container` and check that a
  /// main-actor rule is asked on the main actor (`serve`, which also makes what is decided
  /// outright: `init()`'s value, or nil for an optional); then get the rule's value: a forward's
  /// target, a `.unique` rule's build, or a shared instance; then record what was used and tell
  /// the tracer (`finish`).
  ///
  /// The decision takes every layer's rules, `init()` and optionals. A first read that its fast
  /// path does not serve, ``resolve(_:for:)``, the synchronous part of `load()` and a forward's
  /// target come here.
  ///
  /// `slot` is a `@Lazy` or `@WeakLazy` property's, for a first read; nil for an explicit
  /// resolution. `registry` (``shared`` if nil) is asked, with the task's override layers over
  /// it; `decided` is the decision the caller made already, if it did (`load()`). Tells in
  /// `outcome` what the slot keeps.
  static func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer? = nil,
    registry: InitializerRegistry? = nil, decided: Decision? = nil, outcome: inout Outcome
  ) throws -> Property {
    let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
    defer { ResolutionFrame.pop(frame) }
    let served = try serve(
      propertyType, for: container, frame: frame, registry: registry ?? shared, decided: decided,
      outcome: &outcome)
    let value: Property
    switch served.source {
    case .forward(let registration, let target):
      value = try forward(
        registration, to: target, for: container, from: served.asked.baseRegistry,
        outcome: &outcome)
    case .build(let registration):
      value = try build(registration, as: propertyType, for: container)
    case .sharedInstance(let registration, let owner):
      value = try owner.sharedInstance(
        of: registration, as: propertyType, for: container, frame: frame, stack: served.stack,
        outcome: &outcome)
    case .value(let made):
      value = cast(made, to: propertyType)
    }
    finish(served, frame: frame, for: container, outcome: &outcome)
    return value
  }

  /// `made`, a value the decision made (`init()`'s, or nil for an optional), as the property's.
  ///
  /// Out of line: a deep chain of resolutions keeps the cast's temporaries off its stack.
  @inline(never) private static func cast<Property>(_ made: Any, to _: Property.Type) -> Property {
    made as! Property
  }

  /// Records in `outcome` what the resolution of `frame` used, and tells the tracer.
  ///
  /// Out of line, like the errors: a deep chain of resolutions pays the stack of this function's
  /// temporaries only once.
  @inline(never) private static func finish(
    _ served: Served, frame: UnsafeMutablePointer<ResolutionFrame>, for container: AnyObject,
    outcome: inout Outcome
  ) {
    outcome.uses = frame.pointee.uses
    // A value its pair's first rule built with no layer is stored unboxed: only the registry's.
    outcome.isFirstRule = outcome.isFirstRule && outcome.uses.isEmpty && outcome.handle == nil
    guard served.start != 0, let origin = outcome.origin else { return }
    SlotLock.assertNoLockHeld()
    // The registry asked reports what a layer served too.
    served.asked.tracer?(
      ResolutionEvent(
        origin: origin, containerClass: type(of: container), depth: frame.pointee.depth,
        start: served.start))
  }

  /// What serves a resolution: the decision's answer, narrowed to what getting the value needs.
  ///
  /// Small, so that a deep chain of resolutions keeps little of it on the stack.
  private struct Served {
    enum Source {
      /// A forward: its target, resolved for the same container.
      case forward(AnyRegistration, target: Any.Type)
      /// A `.unique` rule, built now.
      case build(AnyRegistration)
      /// A shared (`.singleton`, `.weak`, custom-scope) or async rule of `owner`: the instance its
      /// scope keeps, or one built once.
      case sharedInstance(AnyRegistration, owner: InitializerRegistry)
      /// Made by the decision already: `init()`'s value, or nil for an optional.
      case value(Any)
    }

    let source: Source
    let asked: InitializerRegistry
    let stack: OverrideStack?
    /// When the resolution started, if the registry asked has a tracer; else 0.
    let start: UInt64
  }

  /// Decides what serves `property` for `container` (takes `decided` if the caller decided),
  /// with the task's layers over `asked`, checks that a main-actor rule is asked on the main
  /// actor, and records in `outcome` and `frame` what the decision says of the value; makes
  /// `init()`'s value, or nil for an optional, on the spot.
  ///
  /// Out of line, so that a deep chain of resolutions keeps only `Served` on its stack.
  ///
  /// - Throws: The error of a property nothing serves, of a key path to another object, or of a
  ///   main-actor rule asked elsewhere.
  @inline(never) private static func serve(
    _ property: Any.Type, for container: AnyObject, frame: UnsafeMutablePointer<ResolutionFrame>,
    registry asked: InitializerRegistry, decided: Decision?, outcome: inout Outcome
  ) throws -> Served {
    let stack = _lazyinject_layers_made() == 0 ? nil : OverrideScope.current
    let registries = asked.searched(under: stack)
    let containerClass: AnyClass = type(of: container)
    let identity: PropertyIdentity
    if let slot = frame.pointee.slot {
      identity = .object(container, offset: slot - frame.pointee.container)
    } else {
      identity = .none
    }
    // Not `??`, which copied the decision, given or not; decided into this variable, which a
    // returned decision was copied into.
    var decision = Decision(builtType: property)
    if let decided {
      decision = decided
    } else {
      asked.decide(
        property, in: containerClass, for: identity, searching: registries, into: &decision)
    }
    outcome.isObserved = decision.isObserved
    let owner = decision.owner ?? asked
    // A value its pair's first rule built is stored unboxed: only the registry's own.
    outcome.isFirstRule =
      decision.isFirstRule && owner === asked && asked.overrideDepth == 0
      && decision.builtType == property
    let source: Served.Source
    switch decision.source {
    case .registration(let registration):
      if registration.source.isMainActor && !isOnMainActor() {
        throw ResolutionError.requiresMainActor(frame: frame.pointee)
      }
      if owner !== asked {
        frame.pointee.uses.add(LayersUsed(owner))
      }
      outcome.origin = .registration(registration.source)
      if let target = registration.source.forwardTarget {
        source = .forward(registration, target: target)
      } else if registration.isShared || registration.source.isAsync {
        // The pair's kept instance is recorded once it is found or built.
        outcome.fastPathVersion = decision.fastPathVersion
        source = .sharedInstance(registration, owner: owner)
      } else {
        if let version = decision.fastPathVersion {
          // Before the build: the reads its initializer makes of the same pair take the table.
          FastPath.record(
            registration, for: property, in: containerClass,
            isObserved: decision.isObserved, version: version)
        }
        source = .build(registration)
      }
    case .defaultInitializer(let initializable):
      outcome.origin = .defaultInitializer(property)
      SlotLock.assertNoLockHeld()
      let start = Recorder.start
      source = .value(initializable.init())
      Recorder.note(built: .defaultInitializer(property), since: start)
    case .absentOptional:
      source = .value((property as! any _OptionalDependency.Type).none)
    case .missing, .undecided:
      throw ResolutionError.missingInitializer(
        property, in: containerClass, frame: frame.pointee, registries: registries)
    case .invalidKeyPath(let rule, let ownerClass):
      throw ResolutionError.invalidPropertyKeyPath(
        rule: rule.rule, containerClass: containerClass, ownerClass: ownerClass)
    }
    let isTraced = (owner === asked ? decision.tracer : asked.tracer) != nil
    return Served(
      source: consume source, asked: asked, stack: stack, start: isTraced ? Recorder.now : 0)
  }

  /// Builds `registration`'s value for `container` as a `Property` (wrapped, for a rule of `T`
  /// serving a `T?` property), with no lock of LazyInject held; an error of the initializer other
  /// than a nested resolution's is wrapped with the rule and the chain.
  static func build<Property>(
    _ registration: AnyRegistration, as property: Property.Type, for container: AnyObject
  ) throws -> Property {
    SlotLock.assertNoLockHeld()
    let start = Recorder.start
    defer { Recorder.note(built: .registration(registration.source), since: start) }
    do {
      // A forward or an async rule never comes here: only a `Registration` builds.
      let typed = unsafeDowncast(registration, to: Registration.self)
      guard registration.propertyType == property else {
        return try typed.makeAny(container) as! Property
      }
      return try typed.make(container, as: Property.self)
    } catch {
      throw failure(error, of: registration)
    }
  }

  /// The value of a forward `registration` to `target`: `target` resolved for the same container
  /// from `registry` with the layers in force (a mock of the target is forwarded too), then cast;
  /// for a slot, with the handle of a shared target that slots of the forwarded type share.
  private static func forward<Property>(
    _ registration: AnyRegistration, to target: Any.Type, for container: AnyObject,
    from registry: InitializerRegistry, outcome: inout Outcome
  ) throws -> Property {
    var nested = Outcome()
    let hasSlot = ResolutionFrame.current?.pointee.slot != nil
    nested.handles = hasSlot ? Handles(Property.self, rule: registration.source) : nil
    func resolveTarget<Target>(_: Target.Type) throws -> Any {
      try resolve(Target.self, for: container, registry: registry, outcome: &nested)
    }
    let value = try _openExistential(target, do: resolveTarget)
    outcome.handle = nested.handle
    // The target's value as the forwarded type, an existential or a class: nil if it is not one.
    func cast<Forwarded>(_: Forwarded.Type) -> Any? { (value as? Forwarded).map { $0 as Any } }
    guard let forwarded = _openExistential(registration.propertyType, do: cast) else {
      throw ResolutionError.forwardTargetMismatch(
        forwarded: registration.propertyType, target: target, value: value,
        site: "\(registration.source.fileID):\(registration.source.line)",
        chain: ResolutionFrame.chain)
    }
    return forwarded as! Property
  }

  /// The error to throw when `registration`'s initializer threw `error`: nested resolution
  /// errors pass through; others are wrapped with the rule and the chain.
  ///
  /// Out of line: its temporaries would otherwise take stack in every level of a deep chain.
  @usableFromInline @inline(never)
  static func failure(_ error: any Error, of registration: AnyRegistration) -> any Error {
    (error as? ResolutionError) ?? .initializerFailed(error, rule: registration.rule)
  }

  /// What a resolution learns on the way, besides the value: what the slot keeps of it.
  @usableFromInline internal struct Outcome {
    /// What produced the value.
    var origin: ValueOrigin?
    /// Whether the rule that produced the value is its pair's first rule, with no layer (see
    /// `RuleTable.PairEntry`): a `@Lazy` property then stores an object value without a box.
    @usableFromInline var isFirstRule = false
    /// Whether the container conforms to `InjectionObserving`.
    @usableFromInline var isObserved = false
    /// The override layers used to build the value: its box keeps them.
    var uses = LayersUsed()
    /// For a shared value, the handle that every slot holding it shares.
    var handle: _LazyObjectBox?
    /// The handle a forward asks its target's shared instance for, if any.
    var handles: Handles?
    /// The fast path table's version, if the decision was the pair's plan alone: a shared rule's
    /// kept instance may then be recorded in the table (see `FastPath`).
    var fastPathVersion: UInt64?

    @inlinable init() {}
  }
}
