import Dispatch
import _LazyInjectShims

extension InitializerRegistry {
  /// The resolution pipeline: every resolution, explicit or a first read, comes here with the
  /// express plan it found (see `ExpressPlan`), and tells in `outcome` how it went.
  ///
  /// Inlined into the specialized first read of `@Lazy` (through `_FirstRead.resolve`), so that
  /// a kept object is returned and a `.unique` initializer called with no generic code around
  /// them. `slot` is a `@Lazy` or `@WeakLazy` property's, for a first read; nil for an explicit
  /// resolution. The general path asks `registry`, ``shared`` if nil: a first read touches the
  /// registry only if its plan says so.
  @inlinable @inline(__always) internal static func resolve<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer?,
    plan: ExpressPlan, generally registry: InitializerRegistry?, outcome: inout Outcome
  ) throws -> Property {
    switch plan {
    case .keptObject(let object, let flags):
      // Kept only for class types. Returned before any frame: nothing can recur from here.
      (outcome.isPinned, outcome.isObserved) = (true, flags & ExpressPlan.observed != 0)
      return unsafeBitCast(object.takeRetainedValue(), to: Property.self)
    case .build(let retained, let flags):
      let registration = unsafeDowncast(
        retained.takeRetainedValue(), to: Registration<Property>.self)
      (outcome.isPinned, outcome.isObserved) = (true, flags & ExpressPlan.observed != 0)
      if !isSingleReference(Property.self) {  // An object value finds its rule in its pin.
        outcome.noteBuilt(by: registration)
      }
      let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
      defer { ResolutionFrame.pop(frame) }
      return try build(registration, for: container)
    case .general:
      return try (registry ?? shared).resolveGenerally(
        propertyType, for: container, slot: slot, outcome: &outcome)
    }
  }

  /// Builds `registration`'s value for `container` with its initializer, with no lock of
  /// LazyInject held; an error of the initializer other than a nested resolution's is wrapped
  /// with the rule and the chain.
  ///
  /// Every build comes here.
  @inlinable internal static func build<Property>(
    _ registration: Registration<Property>, for container: AnyObject
  ) throws -> Property {
    SlotLock.assertNoLockHeld()
    do { return try registration.make(container) } catch { throw failure(error, of: registration) }
  }

  /// The general path of the pipeline: the decision (every layer's rules, `init()`, optionals),
  /// the main-actor check, scopes, the tracer.
  @usableFromInline internal func resolveGenerally<Property>(
    _ propertyType: Property.Type, for container: AnyObject, slot: UnsafeRawPointer?,
    outcome: inout Outcome
  ) throws -> Property {
    let frame = try ResolutionFrame.push(property: propertyType, for: container, slot: slot)
    defer { ResolutionFrame.pop(frame) }
    let stack = _lazyinject_overrides_used() == 0 ? nil : OverrideScope.current
    let served = try serve(propertyType, for: container, frame: frame, stack: stack)
    outcome.isObserved = served.isObserved
    let start = served.tracer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
    let value: Property
    if let registration = served.registration {
      outcome.origin = .registration(registration.source)
      outcome.isPinned = served.isPinned
      value = try served.owner.instance(
        of: registration, as: propertyType, for: container, frame: frame, stack: stack)
    } else if let initializable = served.defaultInitializable {
      outcome.origin = .defaultInitializer(propertyType)
      outcome.isPinned = served.isPinned
      SlotLock.assertNoLockHeld()
      value = initializable.init() as! Property
    } else {
      value = (Property.self as! any _OptionalDependency.Type).none as! Property
    }
    outcome.taint = frame.pointee.taint
    outcome.isPinned = outcome.isPinned && outcome.taint.isEmpty  // Its box keeps the layers used.
    if let tracer = served.tracer, let origin = outcome.origin {
      Self.trace(origin, in: type(of: container), since: start, to: tracer)
    }
    return value
  }

  /// What serves a resolution on the general path: the decision's answer, narrowed to what the
  /// build needs.
  ///
  /// Out of line, so that a deep chain of resolutions keeps only this on its stack.
  private struct Served {
    var registration: AnyRegistration?
    var owner: InitializerRegistry
    var defaultInitializable: (any DefaultInitializable.Type)?
    var isPinned = false
    var isObserved: Bool
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
  }

  /// Decides what serves `property` for `container` under `stack`, checks that a main-actor rule
  /// is asked on the main actor, and whether the rule is the pair's pin.
  ///
  /// - Throws: The error of a property nothing serves, of a key path to another object, or of a
  ///   main-actor rule asked elsewhere.
  @inline(never) private func serve(
    _ property: Any.Type, for container: AnyObject, frame: UnsafeMutablePointer<ResolutionFrame>,
    stack: OverrideStack?
  ) throws -> Served {
    let containerClass: AnyClass = type(of: container)
    let registries = (stack?.searchOrder(over: self) ?? []) + [self]
    let identity = frame.pointee.slot.map {
      PropertyIdentity.object(container, offset: $0 - frame.pointee.container)
    }
    let decision = decide(
      property, in: containerClass, for: identity ?? .none, searching: registries)
    var served = Served(
      owner: decision.owner ?? self, isObserved: decision.isObserved, tracer: decision.tracer)
    // A value the pair's pin built is stored unboxed: only the registry's own (a layer's never).
    served.isPinned =
      decision.isPinned && overrideDepth == 0 && served.owner === self
      && decision.builtType == property
    switch decision.source {
    case .registration(let registration):
      if registration.source.isMainActor && !isOnMainActor() {
        throw ResolutionError.requiresMainActor(frame: frame.pointee)
      }
      served.registration = registration
      if served.owner !== self { frame.pointee.use(served.owner) }
    case .defaultInitializer(let initializable): served.defaultInitializable = initializable
    case .absentOptional: break
    case .missing, .undecided:
      throw ResolutionError.missingInitializer(
        property, in: containerClass, frame: frame.pointee, registries: registries)
    case .invalidKeyPath(let error): throw error
    }
    return served
  }

  /// The error to throw when `registration`'s initializer threw `error`: nested resolution
  /// errors pass through; others are wrapped with the rule and the chain.
  ///
  /// Out of line: its temporaries would otherwise take stack in every level of a deep chain.
  @usableFromInline @inline(never)
  static func failure(_ error: any Error, of registration: AnyRegistration) -> any Error {
    if error is ResolutionError { return error }
    return ResolutionError.initializerFailed(
      error, rule: registration.rule, chain: ResolutionFrame.chain)
  }

  /// What a resolution learns on the way, besides the value.
  @usableFromInline internal struct Outcome {
    /// What produced the value.
    var origin: ValueOrigin?
    /// Whether the rule that produced the value is the pair's pin (see `RulePin`): a `@Lazy`
    /// property then stores an object value without a box.
    @usableFromInline var isPinned = false
    /// Whether the container conforms to `InjectionObserving`.
    @usableFromInline var isObserved = false
    /// The override layers whose rules built the value: its box keeps them.
    var taint = LayerTaint()

    @inlinable init() {}

    /// Records that `registration` built the value.
    ///
    /// Out of line, and only for a value that is boxed anyway: the rule's source need not be
    /// visible to inlined code.
    @usableFromInline mutating func noteBuilt(by registration: AnyRegistration) {
      origin = .registration(registration.source)
    }
  }

  /// Sends the event of a resolution that started at `start` to `tracer`.
  ///
  /// Out of line, like the error above: a deep chain of resolutions pays the stack of this
  /// function's temporaries only once.
  @inline(never) private static func trace(
    _ origin: ValueOrigin, in containerClass: AnyClass, since start: UInt64,
    to tracer: @Sendable (ResolutionEvent) -> Void
  ) {
    SlotLock.assertNoLockHeld()
    let depth = ResolutionFrame.current?.pointee.depth ?? 0
    tracer(
      ResolutionEvent(origin: origin, containerClass: containerClass, depth: depth, start: start))
  }
}
