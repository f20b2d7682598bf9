import _LazyInjectShims

extension InitializerRegistry {
  /// How many instances a registration builds.
  ///
  /// ```swift
  /// registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
  /// ```
  public enum Scope: Sendable, Hashable, CustomStringConvertible {
    /// A new instance for each property that resolves it. The default.
    case unique

    /// One instance per registration, built on first resolution and kept by the registry.
    ///
    /// Built exactly once even when first resolved from many threads at once: one thread runs
    /// the initializer, the others wait for it and get the same instance. Replacing or removing
    /// the registration drops the instance.
    case singleton

    /// One instance shared while something else holds it, built again after it is released.
    ///
    /// The registry keeps it weakly, so the value must be a class instance.
    case weak

    /// One instance per registration, as for ``singleton``, until ``InitializerRegistry/reset(_:)``
    /// drops every instance of the scope: state an app keeps per user session, dropped at log-out.
    ///
    /// Name the scope once, in an extension:
    ///
    /// ```swift
    /// extension InitializerRegistry.Scope {
    ///   static let session = Self.custom("session")
    /// }
    ///
    /// registry.register(UserProfile.self, scope: .session) { _ in UserProfile.load() }
    /// registry.reset(.session)  // at log-out: the next resolution builds a new profile
    /// ```
    case custom(String)

    /// `"unique"`, `"singleton"`, `"weak"`, or a custom scope's name.
    public var description: String {
      switch self {
      case .unique: "unique"
      case .singleton: "singleton"
      case .weak: "weak"
      case .custom(let name): name
      }
    }
  }

  /// The value of `registration` for `container`, built or found according to its scope.
  ///
  /// `layers` are the calling task's override layers.
  internal func instance<Property>(
    of registration: Registration<Property>, for container: AnyObject,
    frame: UnsafeMutablePointer<ResolutionFrame>, layers: [OverrideLayer]
  ) throws -> Property {
    if case .unique = registration.scope {  // A pattern: == on Scope compares payloads.
      return try build(registration, for: container)
    }
    return try sharedInstance(of: registration, for: container, frame: frame, layers: layers)
  }

  /// The instance of a shared (`.singleton`, `.weak` or custom-scope) registration, built by
  /// exactly one thread.
  ///
  /// An instance whose build used a rule of an override layer above this registry belongs to
  /// that layer (the innermost one used): it is kept there, seen only by resolutions under that
  /// layer, and dies with it. Other threads wait for a build under way, unless waiting would
  /// close a cycle (see `WaitGraph`).
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
        if let kept = keptInstance(of: registration) {
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
      value = try build(registration, for: container)
    } catch {
      lock.withLock(finish)
      throw error
    }
    // The layer whose rules the build used, if it lies above this registry.
    let owner = frame.pointee.layer.flatMap { $0.overrideDepth > overrideDepth ? $0 : nil }
    try lock.withLock {
      finish()
      // A reset of the scope while the value was built: it goes to this caller only, which
      // asked before the reset; resolutions that asked after it build anew. The same for a
      // build that used the layers of several registries, or of a registry other than this
      // one's: no layer that this registry's resolutions search may keep it.
      guard registration.builtInGeneration == scopeGenerations[registration.scope, default: 0],
        !frame.pointee.usesSeveralRegistries
      else { return }
      guard let owner else {
        try keep(value, in: registration)
        return
      }
      if let index = adopters.firstIndex(where: { $0 === owner }),
        owner.generation(of: registration.scope) == adopterGenerations[index]
      {
        try owner.adopt(value, of: registration)
      }
    }
    return value
  }

  /// The override layers in `layers` above this registry (the registry itself, or a layer), over
  /// the same registry, outermost first.
  private func layersAbove(in layers: [OverrideLayer]) -> [InitializerRegistry] {
    layers.compactMap { layer in
      layer.base == root && layer.registry.overrideDepth > overrideDepth ? layer.registry : nil
    }
  }

  internal func build<Property>(_ registration: Registration<Property>, for container: AnyObject)
    throws -> Property
  {
    do {
      return try registration.make(container)
    } catch {
      throw Self.failure(error, of: registration)
    }
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

  /// The instance a shared registration keeps.
  ///
  /// Call with `lock` held.
  internal func keptInstance(of registration: AnyRegistration) -> Any? {
    switch registration.scope {
    case .singleton, .custom: registration.singleton
    case .weak: registration.weakInstance
    case .unique: nil
    }
  }

  /// Keeps `value` according to the registration's scope.
  ///
  /// Call with `lock` held.
  private func keep<Property>(_ value: Property, in registration: Registration<Property>) throws {
    switch registration.scope {
    case .singleton, .custom:
      registration.singleton = value
      registration.singletonObject =
        Lazy<Property>._storesObject ? unsafeBitCast(value, to: AnyObject.self) : nil
    case .weak:
      registration.weakInstance = try Self.weakObject(value, of: registration)
    case .unique:
      break
    }
  }

  /// How many times this registry reset `scope`.
  ///
  /// Call with the lock of a registry below this one held, or none.
  internal func generation(of scope: Scope) -> Int {
    lock.withLock { scopeGenerations[scope, default: 0] }
  }

  /// The instance of another registry's `registration` that this override layer keeps.
  ///
  /// Call with the lock of the registration's registry held; takes this layer's lock (always
  /// after the lock of a registry below it).
  internal func adoptedInstance(of registration: AnyRegistration) -> Any? {
    lock.withLock {
      guard let adopted = adoptedInstances[ObjectIdentifier(registration)] else { return nil }
      return registration.scope == .weak ? adopted.object : adopted.value
    }
  }

  /// Keeps `value`, an instance of another registry's `registration` built with this layer's
  /// rules, in this layer.
  ///
  /// Call with the lock of the registration's registry held.
  internal func adopt<Property>(_ value: Property, of registration: Registration<Property>)
    throws
  {
    let adopted =
      registration.scope == .weak
      ? AdoptedInstance(
        registration: registration, object: try Self.weakObject(value, of: registration))
      : AdoptedInstance(registration: registration, value: value)
    lock.withLock { adoptedInstances[ObjectIdentifier(registration)] = adopted }
  }

  /// The object a `.weak` registration keeps for `value`, looking through `Optional` and
  /// existentials; nil for a nil optional.
  private static func weakObject(_ value: Any, of registration: AnyRegistration) throws
    -> AnyObject?
  {
    guard let unwrapped = unwrappingOptionals(value) else { return nil }
    let dynamicType = type(of: unwrapped)
    guard dynamicType is AnyObject.Type else {
      throw ResolutionError.weakScopeRequiresClass(rule: registration.rule, valueType: dynamicType)
    }
    return unwrapped as AnyObject
  }
}

/// A shared instance of a registry below an override layer, kept by the layer because its build
/// used the layer's rules.
internal struct AdoptedInstance {
  /// Keeps the registration, so that its identifier is not reused while this entry lives.
  let registration: AnyRegistration
  var value: Any?
  weak var object: AnyObject?

  init(registration: AnyRegistration, value: Any) {
    self.registration = registration
    self.value = value
  }

  init(registration: AnyRegistration, object: AnyObject?) {
    self.registration = registration
    self.object = object
  }
}
