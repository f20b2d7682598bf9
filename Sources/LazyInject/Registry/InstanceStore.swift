/// What a scope keeps of the instances its registrations build.
internal enum ScopePolicy: Equatable {
  /// `.unique`: nothing is kept; every resolution builds.
  case none
  /// `.singleton` and custom scopes: the instance, until a reset or until the registration goes.
  case strong
  /// `.weak`: a weak reference, while something else holds the instance.
  case weak

  init(_ scope: InitializerRegistry.Scope) {
    self = scope == .unique ? .none : scope == .weak ? .weak : .strong
  }
}

/// The instances one registry keeps: those of its registrations, and for an override layer,
/// those of registrations of registries below it whose build used its rules (it "adopts" them:
/// only resolutions under the layer see them, and they die with it).
///
/// Part of its `State`.
internal struct InstanceStore {
  typealias Scope = InitializerRegistry.Scope
  /// A build under way: its thread, and its scope with that scope's generation when it started.
  private typealias Build = (thread: UnsafeRawPointer, scope: Scope, generation: Int)

  /// What is kept for a registration, by its identity.
  private var kept: [ObjectIdentifier: Kept] = [:]
  /// The thread building each registration's instance, and the scope's generation then.
  private var builders: [ObjectIdentifier: Build] = [:]
  /// How many times each scope was reset: a build that started before a reset keeps nothing.
  private var generations: [Scope: Int] = [:]
  /// The async builds under way (see `asyncInstance`): their scope's generation when they
  /// started, and the tasks that wait for them, resumed when they end.
  private var asyncBuilds = [ObjectIdentifier: (scope: Scope, generation: Int, waiters: [Waiter])]()
  typealias Waiter = CheckedContinuation<Void, Never>

  private struct Kept {
    /// Keeps the registration, so that its identifier is not reused while the entry lives.
    let registration: AnyRegistration
    var value: Any?
    /// The value when it is an object kept strongly: returned with no cast (casting from `Any`
    /// took a sixth of a singleton's first read, measured), and named by the express table.
    var object: AnyObject?
    weak var weakObject: AnyObject?
  }

  /// The instance kept for `registration`, if any and still alive.
  func instance(of registration: AnyRegistration) -> Any? {
    guard let kept = kept[ObjectIdentifier(registration)] else { return nil }
    return registration.policy == .weak ? kept.weakObject : kept.value
  }

  /// The object kept strongly for `registration`, if its value is one.
  func object(of registration: AnyRegistration) -> AnyObject? {
    kept[ObjectIdentifier(registration)]?.object
  }

  /// Keeps `value` for `registration` by its scope; false if the scope is `.weak` and the value
  /// is no object (nil is kept as nothing).
  mutating func keep(_ value: Any, of registration: AnyRegistration) -> Bool {
    var entry = Kept(registration: registration)
    switch registration.policy {
    case .none: return true
    case .strong:
      entry.value = value
      entry.object = type(of: value) is AnyObject.Type ? value as AnyObject : nil
    case .weak:
      guard let unwrapped = unwrappingOptionals(value) else { return true }
      guard type(of: unwrapped) is AnyObject.Type else { return false }
      entry.weakObject = unwrapped as AnyObject
    }
    kept[ObjectIdentifier(registration)] = entry
    return true
  }

  /// Forgets what is kept for `registration`; returns it, for release after unlocking (its deinit
  /// may resolve).
  ///
  /// The express table may name the object: the caller empties it before unlocking (see
  /// `withStateChange`).
  mutating func drop(_ registration: AnyRegistration) -> Any? {
    kept.removeValue(forKey: ObjectIdentifier(registration)).map { $0 as Any }
  }

  /// Forgets every instance kept of `scope` (of every scope if nil), and counts a reset of it, so
  /// that builds under way keep nothing; returns what it forgot, for release after unlocking.
  mutating func reset(_ scope: Scope?) -> [Any] {
    let dropped = kept.filter { scope == nil || $0.value.registration.scope == scope }
    var scopes = Set(
      dropped.values.map(\.registration.scope) + builders.values.map(\.scope)
        + asyncBuilds.values.map(\.scope))
    if let scope { scopes = [scope] }
    for key in dropped.keys { kept[key] = nil }
    for scope in scopes { generations[scope, default: 0] += 1 }
    return Array(dropped.values)
  }

  /// How many times `scope` was reset.
  func generation(of scope: Scope) -> Int { generations[scope, default: 0] }

  /// The thread building `registration`'s instance, if any.
  func builder(of registration: AnyRegistration) -> UnsafeRawPointer? {
    builders[ObjectIdentifier(registration)]?.thread
  }

  /// Notes that `thread` builds `registration`'s instance, or with nil, that the build ended;
  /// returns whether the build's scope was reset meanwhile (at its end).
  @discardableResult
  mutating func setBuilder(_ thread: UnsafeRawPointer?, of registration: AnyRegistration) -> Bool {
    let key = ObjectIdentifier(registration)
    guard let thread else {
      return builders.removeValue(forKey: key)?.generation != generation(of: registration.scope)
    }
    builders[key] = (thread, registration.scope, generation(of: registration.scope))
    return false
  }

  /// Notes that the calling task builds `registration`'s instance asynchronously, and returns
  /// true; or, if another task does, returns false, and `waiter` is resumed when that build ends.
  mutating func claimAsyncBuild(of registration: AnyRegistration, orWait waiter: Waiter) -> Bool {
    let key = ObjectIdentifier(registration)
    guard asyncBuilds[key] == nil else {
      asyncBuilds[key]?.waiters.append(waiter)
      return false
    }
    asyncBuilds[key] = (registration.scope, generation(of: registration.scope), [])
    return true
  }

  /// Ends the async build of `registration`: whether its scope was reset meanwhile, and the
  /// tasks to resume (after unlocking).
  mutating func endAsyncBuild(of registration: AnyRegistration) -> (wasReset: Bool, [Waiter]) {
    let build = asyncBuilds.removeValue(forKey: ObjectIdentifier(registration))
    return (build?.generation != generation(of: registration.scope), build?.waiters ?? [])
  }
}
