// Scopes: how many instances a rule builds, what a registry keeps of them (`InstanceStore`), and
// the boxes a `@Lazy` slot keeps a value in, among them the handle every slot holding a kept
// instance shares, which a reset of its scope empties. Building an instance once and deciding
// who keeps it is resolution's (Resolution/SharedInstance.swift).

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
    /// registry.registerOnMainActor(UserProfile.self, scope: .session) { _ in UserProfile.load() }
    /// registry.reset(.session)  // at log-out: every property holding the profile lets it go
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
}

/// The instances one registry keeps, with the handles that slots holding them share.
///
/// Those of its registrations, and for an override layer, those of registrations of registries
/// below it whose build used its rules (only resolutions under the layer see them, and they die
/// with it); and the handles of shared values handed to one read without being kept.
///
/// Part of its `State`.
package struct InstanceStore {
  package typealias Scope = InitializerRegistry.Scope
  typealias Waiter = CheckedContinuation<Void, Never>

  /// A build under way: its scope, with that scope's reset count when it started; for a
  /// synchronous build, its thread; for an async one (see `asyncInstance`), the tasks that wait
  /// for it, resumed when it ends.
  private struct Build {
    let thread: UnsafeRawPointer?
    let scope: Scope
    let resetCount: Int
    var waiters: [Waiter] = []
  }

  /// A build that ended: whether its scope was reset since it started, and the tasks to resume
  /// (after unlocking).
  struct EndedBuild {
    let wasReset: Bool
    let waiters: [Waiter]
  }

  /// What is kept for a registration, by its identity.
  private var kept: [ObjectIdentifier: Kept] = [:]
  /// The build of each registration's instance under way (a rule's are all synchronous, or all
  /// async).
  private var builds: [ObjectIdentifier: Build] = [:]
  /// How many times each scope was reset: a build that started before a reset keeps nothing.
  private var resetCounts: [Scope: Int] = [:]
  /// The handles of shared values handed to one read without being kept, by scope, held weakly:
  /// a reset of the scope empties them too.
  private var handedOut: [Scope: [Handle]] = [:]
  /// The class instances resets released, by scope, held weakly: what still holds one after a
  /// logout is out of LazyInject's reach (see `heldInstances(afterResetOf:searching:)`).
  private var released: [Scope: [Released]] = [:]

  /// An instance a reset released, and its rule.
  private struct Released {
    weak var object: AnyObject?
    let rule: RuleSource
  }

  private struct Kept {
    /// Keeps the registration, so that its identifier is not reused while this is kept.
    let registration: AnyRegistration
    var value: Any?
    weak var weakObject: AnyObject?
    /// The handles slots hold for the instance: kept strongly for `.singleton` and custom scopes
    /// (the fast path names them), weakly for `.weak` (slots keep the instance alive).
    var handles: [HandleKey: Handle] = [:]
  }

  /// What slots share a handle by: their property type, and the rule that serves the property.
  struct HandleKey: Hashable {
    let property: ObjectIdentifier
    let rule: ObjectIdentifier
  }

  /// A handle, held strongly or weakly.
  private struct Handle {
    var strong: _LazyObjectBox?
    weak var weak: _LazyObjectBox?
    var box: _LazyObjectBox? { strong ?? weak }
  }

  /// The instance kept for `registration`, if any and still alive.
  package func instance(of registration: AnyRegistration) -> Any? {
    kept[ObjectIdentifier(registration)].flatMap { $0.value ?? $0.weakObject }
  }

  /// Keeps `value` for `registration` by its scope; false if the scope is `.weak` and the value
  /// is no object (nil is kept as nothing).
  mutating func keep(_ value: Any, of registration: AnyRegistration) -> Bool {
    var instance = Kept(registration: registration)
    if registration.isWeak {
      guard let unwrapped = unwrappingOptionals(value) else { return true }
      guard type(of: unwrapped) is AnyObject.Type else { return false }
      instance.weakObject = unwrapped as AnyObject
    } else {
      instance.value = value
    }
    kept[ObjectIdentifier(registration)] = instance
    return true
  }

  /// The handle that slots holding the instance kept for `registration` share by `key`, if one
  /// is alive.
  func handle(of registration: AnyRegistration, as key: HandleKey) -> _LazyObjectBox? {
    kept[ObjectIdentifier(registration)]?.handles[key]?.box
  }

  /// Records `handle` as the one slots share by `key` for `registration`'s kept instance, or if
  /// `isKept` is false, as handed out (see `handedOut`).
  mutating func share(
    _ handle: _LazyObjectBox, of registration: AnyRegistration, as key: HandleKey, isKept: Bool
  ) {
    guard isKept, kept[ObjectIdentifier(registration)] != nil else {
      return handOut(handle, of: registration.scope)
    }
    let held = registration.isWeak ? Handle(weak: handle) : Handle(strong: handle)
    kept[ObjectIdentifier(registration)]?.handles[key] = held
  }

  /// Records `handle`, of a value of `scope` that this registry does not keep, weakly: a reset
  /// of the scope empties it.
  private mutating func handOut(_ handle: _LazyObjectBox, of scope: Scope) {
    handedOut[scope, default: []].removeAll { $0.weak == nil }
    handedOut[scope, default: []].append(Handle(weak: handle))
  }

  /// Forgets what is kept for `registration`, a rule replaced or removed; returns it, for release
  /// after unlocking.
  ///
  /// Its deinit may resolve. Its handles stay as they are: slots keep their values, until a reset
  /// of its scope, which reaches them as handles handed out.
  ///
  /// The fast path may name the object: the caller empties its table before unlocking (see
  /// `withStateChange`).
  mutating func drop(_ registration: AnyRegistration) -> Any? {
    let dropped = kept.removeValue(forKey: ObjectIdentifier(registration))
    for handle in dropped?.handles.values.compactMap(\.box) ?? [] {
      handOut(handle, of: registration.scope)
    }
    return dropped
  }

  /// Forgets every instance kept of `scope` (of every scope if nil), and counts a reset of it, so
  /// that builds under way keep nothing; returns what it forgot, for release after unlocking,
  /// and the handles of the scope's values (kept or handed out) for the caller to empty.
  mutating func reset(_ scope: Scope?) -> (dropped: [Any], handles: [_LazyObjectBox]) {
    var dropped: [Kept] = []
    for (key, instance) in kept where scope == nil || instance.registration.scope == scope {
      dropped.append(instance)
      kept[key] = nil
    }
    // The scope asked for; for every scope, each that keeps, builds or handed out something.
    var scopes = Set(scope.map { [$0] } ?? [])
    if scope == nil {
      scopes.formUnion(dropped.map(\.registration.scope))
      scopes.formUnion(builds.values.map(\.scope))
      scopes.formUnion(handedOut.keys)
    }
    for scope in scopes {
      resetCounts[scope, default: 0] += 1
      released[scope]?.removeAll { $0.object == nil }
    }
    var handles: [_LazyObjectBox] = []
    for instance in dropped {
      // The instance of every handle it has: noted once, by its rule's scope.
      handles += instance.handles.values.compactMap(\.box)
      noteReleased(instance.value ?? instance.weakObject, builtBy: instance.registration.source)
    }
    for scope in scopes {
      for handle in handedOut.removeValue(forKey: scope)?.compactMap(\.box) ?? [] {
        handles.append(handle)
        noteReleased(handle.value, builtBy: handle.origin?.source, in: scope)
      }
    }
    return (dropped.map { $0 as Any }, handles)
  }

  /// Remembers `value`, which a reset of `scope` (its rule's, unless given) released, if it is a
  /// class instance: as it is, or in an optional or an existential (a `UserSession?` rule, an
  /// `any Session` property).
  ///
  /// By the scope reset, not by the rule of a handle: a forward's handle has the forward's scope,
  /// which no reset prunes.
  private mutating func noteReleased(
    _ value: Any?, builtBy rule: RuleSource?, in scope: Scope? = nil
  ) {
    guard let rule, let value, let unwrapped = unwrappingOptionals(value),
      type(of: unwrapped) is AnyObject.Type
    else { return }
    let scope = scope ?? rule.scope
    let object = unwrapped as AnyObject
    guard !released[scope, default: []].contains(where: { $0.object === object }) else { return }
    released[scope, default: []].append(Released(object: object, rule: rule))
  }

  /// The class instances that resets of `scope` released and that are still alive, with their
  /// rules.
  package func released(of scope: Scope) -> [(AnyObject, InitializerRegistry.Rule)] {
    released[scope, default: []].compactMap { released in
      released.object.map { object in (object, released.rule.rule) }
    }
  }

  /// Every instance kept, of every scope.
  package var keptInstances: [Any] { kept.values.compactMap { $0.value ?? $0.weakObject } }

  /// How many times `scope` was reset.
  func resetCount(of scope: Scope) -> Int { resetCounts[scope, default: 0] }

  /// The thread building `registration`'s instance, if any.
  func builder(of registration: AnyRegistration) -> UnsafeRawPointer? {
    builds[ObjectIdentifier(registration)]?.thread
  }

  /// Notes that `thread` builds `registration`'s instance (`endBuild` ends it).
  mutating func startBuild(of registration: AnyRegistration, on thread: UnsafeRawPointer?) {
    let scope = registration.scope
    builds[ObjectIdentifier(registration)] = Build(
      thread: thread, scope: scope, resetCount: resetCount(of: scope))
  }

  /// Notes that the calling task builds `registration`'s instance asynchronously, and returns
  /// true; or, if another task does, returns false, and `waiter` is resumed when that build ends.
  mutating func startAsyncBuild(of registration: AnyRegistration, orWait waiter: Waiter) -> Bool {
    let key = ObjectIdentifier(registration)
    if builds[key] != nil {
      builds[key]?.waiters.append(waiter)
      return false
    }
    startBuild(of: registration, on: nil)
    return true
  }

  /// Ends the build of `registration` (synchronous or async).
  mutating func endBuild(of registration: AnyRegistration) -> EndedBuild {
    let build = builds.removeValue(forKey: ObjectIdentifier(registration))
    let wasReset = build?.resetCount != resetCount(of: registration.scope)
    return EndedBuild(wasReset: wasReset, waiters: build?.waiters ?? [])
  }
}
