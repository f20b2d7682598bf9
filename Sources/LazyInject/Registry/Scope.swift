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

    /// `"unique"`, `"singleton"` or `"weak"`.
    public var description: String {
      switch self {
      case .unique: "unique"
      case .singleton: "singleton"
      case .weak: "weak"
      }
    }
  }

  /// The value of `registration` for `container`, built or found according to its scope.
  internal func instance<Property>(
    of registration: Registration<Property>, for container: AnyObject
  ) throws -> Property {
    guard registration.scope != .unique else {
      return try build(registration, for: container)
    }
    return try sharedInstance(of: registration, for: container)
  }

  /// The instance of a `.singleton` or `.weak` registration, built by exactly one thread.
  ///
  /// The kept instance travels as `Any` and is cast once: an optional of the generic `Property`
  /// made this path look up generic metadata on every call (a fifth of its time, measured).
  private func sharedInstance<Property>(
    of registration: Registration<Property>, for container: AnyObject
  ) throws -> Property {
    let thread = _lazyinject_thread_identity()
    let kept: Any? = try lock.withLock {
      while true {
        if let kept = keptInstance(of: registration) {
          return kept
        }
        guard let builder = registration.builder else {
          registration.builder = thread
          return nil
        }
        if builder == thread {
          throw ResolutionError.dependencyCycle(
            steps: ResolutionFrame.chain.map(\.summary) + ["\(registration.rule) again"],
            isDepthLimit: false)
        }
        waitForAnotherThread()
      }
    }
    if let kept {
      return kept as! Property
    }
    do {
      let value = try build(registration, for: container)
      try lock.withLock {
        registration.builder = nil
        wakeWaitingThreads()
        try keep(value, in: registration)
      }
      return value
    } catch {
      lock.withLock {
        registration.builder = nil
        wakeWaitingThreads()
      }
      throw error
    }
  }

  private func build<Property>(_ registration: Registration<Property>, for container: AnyObject)
    throws -> Property
  {
    do {
      return try registration.make(container)
    } catch let error as ResolutionError {
      throw error
    } catch {
      throw ResolutionError.initializerFailed(
        error, rule: registration.rule, chain: ResolutionFrame.chain)
    }
  }

  /// The instance a `.singleton` or `.weak` registration keeps.
  ///
  /// Call with `lock` held.
  private func keptInstance(of registration: AnyRegistration) -> Any? {
    switch registration.scope {
    case .singleton: registration.singleton
    case .weak: registration.weakInstance
    case .unique: nil
    }
  }

  /// Keeps `value` according to the registration's scope.
  ///
  /// Call with `lock` held.
  private func keep<Property>(_ value: Property, in registration: Registration<Property>) throws {
    switch registration.scope {
    case .singleton:
      registration.singleton = value
    case .weak:
      let dynamicType = type(of: value as Any)
      guard dynamicType is AnyObject.Type else {
        throw ResolutionError.weakScopeRequiresClass(
          rule: registration.rule, valueType: dynamicType)
      }
      registration.weakInstance = value as AnyObject
    case .unique:
      break
    }
  }
}

extension InitializerRegistry {
  /// Drops the instances that `.singleton` and `.weak` registrations keep, and keeps the
  /// registrations: the next resolution builds a new instance.
  ///
  /// ```swift
  /// override func tearDown() {
  ///   InitializerRegistry.shared.resetSingletons()
  /// }
  /// ```
  ///
  /// Values already resolved into `@Lazy` properties stay where they are.
  public func resetSingletons() {
    let dropped: [Any] = withState {
      table.allRegistrations.compactMap { registration in
        defer {
          registration.singleton = nil
          registration.weakInstance = nil
        }
        return registration.singleton
      }
    }
    withExtendedLifetime(dropped) {}  // Released after unlocking: their deinit may resolve.
  }
}
