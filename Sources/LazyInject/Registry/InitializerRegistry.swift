import Dispatch
import _LazyInjectShims

/// The initializers that build `@Lazy` properties, keyed by property type and container class.
///
/// Register initializers at start-up, usually grouped in ``InitializerModule``s:
///
/// ```swift
/// let registry = InitializerRegistry.shared
/// // For UsersViewController and its subclasses, built on the main actor (an app type):
/// registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { sender in
///   ResourceLoader.usersLoader()
/// }
/// // The root default, for every other container, built on the main actor (a UI service):
/// registry.registerOnMainActor(ProgressViewService.self) { sender in
///   ProgressViewService(owner: sender)
/// }
/// // One instance for the whole app, of a nonisolated service, built on any thread:
/// registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
/// ```
///
/// For a property of type `P` in an object of class `C`, the registry uses a rule registered for
/// that property by key path (see `register(_:scope:fileID:line:_:)` (a rule for one property)),
/// else the registration for `(P, C)`, else the one for the nearest superclass of `C`, else the
/// root default for `P`, else `init()` if `P` is ``DefaultInitializable``; otherwise resolution
/// fails with a ``ResolutionError``. A forward (``forward(_:to:fileID:line:)``) is a registration
/// like the others, which resolves its target type. The most specific registration wins whatever the order of registration,
/// and a change applies to every resolution made after it.
///
/// ## Concurrency
///
/// All methods are thread-safe. Initializers run without any lock of the registry held, so an
/// initializer may read other `@Lazy` properties of its sender or resolve from the registry.
/// `@Lazy` properties always resolve from ``shared``; other registries serve explicit
/// ``resolve(_:for:)`` calls.
public final class InitializerRegistry: Sendable {
  /// The registry that `@Lazy` properties resolve from.
  ///
  /// Before its first use of any kind it installs the modules an app lists through
  /// ``AutomaticModuleInstallation``, if the app conforms to it; see there.
  public static let shared = InitializerRegistry(modules: .pending)

  /// Everything that changes: rules, kept instances, settings (see `State`), behind the
  /// registry's lock.
  package let state: Protected<State>

  /// 0 for a registry; n for the registries holding the n-th override layer over another.
  package let overrideDepth: Int

  /// Whether this registry holds the rules registered while its override layer is in force (see
  /// `OverrideLayer`), rather than the layer's own.
  package let isInForce: Bool

  /// The registry an override layer overrides; nil for a registry.
  private let overridden: InitializerRegistry?

  /// The registry itself, or for an override layer, the registry it overrides: where a
  /// resolution that sees every layer in force starts.
  internal var baseRegistry: InitializerRegistry { overridden ?? self }

  /// The identity of `baseRegistry`.
  internal var root: ObjectIdentifier { ObjectIdentifier(baseRegistry) }

  /// Creates an empty registry, independent of ``shared``.
  ///
  /// ```swift
  /// let registry = InitializerRegistry()
  /// registry.install(NetworkInitializers())
  /// let manager = try registry.resolve(RequestManager.self, for: UsersViewController())
  /// manager.request("/users")
  /// ```
  public convenience init() { self.init(modules: .installed) }

  /// Creates a registry whose automatic modules are `modules` (only ``shared`` has any to
  /// install); for an override layer, `depth` layers above `base`, holding its own rules or
  /// those registered while it is in force, with the handler of duplicates of `base`.
  internal init(
    modules: AutomaticModules = .installed, overriding base: InitializerRegistry? = nil,
    depth: Int = 0, inForce isInForce: Bool = false
  ) {
    let handler = base?.withState(\.duplicateHandler) ?? DuplicateRegistration.warnOnce
    state = Protected(State(modules: modules, duplicateHandler: handler))
    overrideDepth = depth
    self.isInForce = isInForce
    overridden = base
  }
}

extension InitializerRegistry: CustomStringConvertible {
  /// Every registration, grouped by property type; types, then containers, in name order.
  ///
  /// ```text
  /// InitializerRegistry, 5 registrations
  /// any MyApp.Tracking
  ///   root default: forwarded to MyApp.SharedAnalytics (AnalyticsInitializers.swift:5)
  /// MyApp.Logger
  ///   for MyApp.UsersViewController.auditLog: unique scope (LoggerInitializers.swift:4)
  /// MyApp.RequestManager
  ///   root default: singleton scope (NetworkInitializers.swift:4)
  /// MyApp.ResourceLoader
  ///   in MyApp.ProjectsViewController: unique scope (LoaderInitializers.swift:14)
  ///   in MyApp.UsersViewController: unique scope (LoaderInitializers.swift:12)
  /// ```
  ///
  /// Rules for one property come before the type's rules, as a resolution tries them. The
  /// ``LinkedModule``s installed are listed under the first line, as in
  /// `linked modules: Feed.FeedInitializers, Profile.ProfileInitializers`, then what packages
  /// ``require(_:fileID:line:)``, as in `Feed requires Core.AnalyticsClient (module
  /// Feed.FeedInitializers, Feed/FeedInitializers.swift:9)`.
  public var description: String {
    // Each of the three lists is read under the lock on its own, its references only; names are
    // built and sorted after unlocking.
    let rules = registrations.map(\.rule)
    let linkedModules = self.linkedModules.installed
    let byType = Dictionary(grouping: rules, by: \.propertyTypeName)
    let count = "\(rules.count) registration\(rules.count == 1 ? "" : "s")"
    var lines = ["InitializerRegistry, \(count)"]
    if !linkedModules.isEmpty {
      lines.append("linked modules: " + linkedModules.joined(separator: ", "))
    }
    lines += requirements.map(\.description)
    for typeName in byType.keys.sorted() {
      lines.append(typeName)
      // Each rule's line is made once: sorting compares them many times.
      let described = byType[typeName, default: []].map(DescribedRule.init)
      lines += described.sorted().map(\.line)
    }
    return lines.joined(separator: "\n")
  }

  /// A rule's line in `description`, ordered as a resolution tries rules: those for one property
  /// first, then by container, then by the line itself.
  private struct DescribedRule: Comparable {
    let isPropertyRule: Bool
    let container: String
    let line: String

    init(_ rule: Rule) {
      isPropertyRule = rule.isPropertyRule
      container = rule.containerTypeName ?? ""
      line = "  \(rule.subject): \(rule.what)\(rule.details)"
    }

    static func < (first: Self, second: Self) -> Bool {
      if first.isPropertyRule != second.isPropertyRule {
        return first.isPropertyRule
      }
      if first.container != second.container {
        return first.container < second.container
      }
      return first.line < second.line
    }
  }

  /// Every registration of this registry (not of its layers), in no order.
  package var registrations: [AnyRegistration] { withState { $0.rules.allRegistrations } }
}

// The registry's one state, and the way to it: the lock, the installation of automatic modules on the
// first use, waiting for another thread, and the one place that empties the fast path's table.

extension InitializerRegistry {
  /// Everything of a registry that changes, guarded by its lock (`Protected`, which checks in
  /// debug builds that every access holds it).
  package struct State {
    /// Whether the automatic modules of ``shared`` are installed; every other registry starts
    /// `.installed`.
    package var modules: AutomaticModules
    var duplicateHandler: @Sendable (DuplicateRegistration) -> Void
    package var rules = RuleTable()
    package var instances = InstanceStore()
    package var linkedModules = LinkedModules()
    package var requirements: [Requirement] = []
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    /// For an override layer's own registry, the test that runs inside it, if a helper named it.
    package var testName: String?
  }

  package enum AutomaticModules {
    case pending
    case installing(thread: UnsafeRawPointer)
    /// The first use was off the main actor: the main actor installs (a job on the main queue,
    /// or its own next use of the registry) while async callers await it and threads wait, each
    /// for a bounded time.
    case awaitingMainActor
    case installed
  }

  /// Runs `body` with the lock held, after the automatic modules are installed.
  ///
  /// Every touch of the registry's state comes through here (or `withStateChange`), so the first
  /// touch of ``shared`` of any kind (registering, resolving, explaining, overriding…) installs
  /// the modules, exactly once: a registration made before any resolution is added after them
  /// and wins. Other threads wait while one installs; the installing thread itself passes, so
  /// modules can register.
  package func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    while true {
      state.lock.lock()
      if !takeInstallation() {
        defer { state.lock.unlock() }
        return try body(&state.value)
      }
      state.lock.unlock()
      installAutomaticModules()
    }
  }

  /// Runs `body`, which changes the rules or drops kept instances, as `withState` does; then,
  /// still under the lock, empties the fast path's table.
  ///
  /// The one place that empties it (`_lazyinject_fast_clear()`, see `FastPath`): an
  /// entry names a registration or a kept object without retaining it, so it must be gone before
  /// the caller releases what `body` took out, after unlocking. The shared registry is the
  /// table's only one.
  internal func withStateChange<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try withState { state in
      defer { if self === Self.shared { _lazyinject_fast_clear() } }
      return try body(&state)
    }
  }

  /// Waits until the automatic modules are installed (or this thread is installing them), or
  /// until this thread, on the main actor, takes their installation.
  ///
  /// Returns whether it must install them now (with the lock released). Off the main actor, the
  /// first thread hands the installation over to the main queue, and waits like the others.
  ///
  /// Stops the program if the main actor does not install them within the bound, counted from
  /// this thread's first wait. Call with the lock held.
  private func takeInstallation() -> Bool {
    var deadline: UInt64?
    while true {
      switch state.value.modules {
      case .installed: return false
      case .installing(let installer):
        // A module registering.
        guard installer != _lazyinject_thread_identity() else { return false }
        state.lock.wait()
      case .pending where isOnMainActor(), .awaitingMainActor where isOnMainActor():
        state.value.modules = .installing(thread: _lazyinject_thread_identity())
        return true
      case .pending:
        // Handed over to the main queue, whose job takes the installation and installs; this thread waits.
        state.value.modules = .awaitingMainActor
        DispatchQueue.main.async { InitializerRegistry.shared.withState { _ in } }
      case .awaitingMainActor:
        let seconds = Self.mainActorWait.withLock { $0 }
        let now = DispatchTime.now().uptimeNanoseconds
        let end = deadline ?? now + UInt64(seconds) * 1_000_000_000
        guard now < end else { fatalError(Self.mainActorDidNotRun(seconds: seconds)) }
        deadline = end
        state.lock.wait(seconds: Int((end - now + 999_999_999) / 1_000_000_000))
      }
    }
  }

  /// Installs the automatic modules of ``shared`` if they are not yet, awaiting the main actor.
  ///
  /// What the async calls (`withOverrides`, `prepare()`, `load()`) make first: an await blocks
  /// no thread, so it never gives up.
  nonisolated(nonsending) internal func installAutomaticModulesIfNeeded() async {
    // Any other registry, or on the main actor: `withState` installs them if needed, at once.
    guard self === Self.shared, !isOnMainActor() else { return withState { _ in } }
    let isPending = state.withLock { state in
      if case .pending = state.modules { state.modules = .awaitingMainActor }
      if case .installed = state.modules { return false } else { return true }
    }
    if isPending { await MainActor.run { Self.shared.withState { _ in } } }
  }

  /// Installs the program's linked modules, then those of its `AutomaticModuleInstallation`
  /// conformance, if any, into this registry (``shared``), on the main actor: called by
  /// `withState` with no lock held, once this thread took the installation.
  private func installAutomaticModules() {
    watchConformances()
    var modules: [any InitializerModule] = []
    // The records answer a program without the conformance with no search of the runtime's.
    let isDeclared = conforms(InitializerRegistry.self, to: (any AutomaticModuleInstallation).self)
    {
      (InitializerRegistry.self as Any) is any AutomaticModuleInstallation.Type
    }
    // That query read the conformance records, which list every copy of LazyInject.
    Self.reportCopies(in: Self.imagesWithLazyInject())
    if isDeclared,
      let installation = (InitializerRegistry.self as Any) as? any AutomaticModuleInstallation.Type
    {
      // On the main actor: `takeInstallation` took the installation there.
      let automaticModules = onMainActorAnywhere {
        (installation: any AutomaticModuleInstallation.Type) in installation.automaticModules
      }
      modules = try! automaticModules(installation)  // It throws nothing.
    }
    // Into the registry itself, even when first touched inside an override scope.
    OverrideScope.$configuring.withValue(nil) {
      OverrideScope.$current.withValue(nil) {
        installNewLinkedModules()
        install(modules)
      }
    }
    state.lock.withLock {
      state.value.modules = .installed
      state.lock.broadcast()
    }
  }

  /// The message that stops a thread which waited `seconds` for the main actor to install the
  /// automatic modules.
  private static func mainActorDidNotRun(seconds: Int) -> String {
    """
    LazyInject cannot use InitializerRegistry.shared on this thread yet: its first use installs \
    the program's modules (LinkedModule types and AutomaticModuleInstallation's list, if it has \
    any) on the main actor, and the main actor did not run \
    for \(seconds) s while this thread, which used the registry first and off the main actor, \
    waited for it. Either the main thread is blocked waiting for this thread (then neither would \
    ever go on), or the main actor is busy with long synchronous work.
    Fix: if the main thread waits for this thread, use InitializerRegistry.shared on the main \
    actor before (at launch, or in a test's set-up: `_ = InitializerRegistry.shared.description`); \
    if the main actor is busy, make the first use from async code, which awaits the main actor \
    instead of blocking a thread (`await registry.withOverrides`, `prepare()`, `load()`, the \
    .overrides trait), or move the long work off the main actor.
    """
  }

  /// The seconds a thread waits for the main actor to install the automatic modules before it
  /// stops the program with the fix: 10 unless set (0: it stops at once; not negative).
  ///
  /// For the package's tests: `InitializerRegistry.mainActorWait.withLock { $0 = 0 }`.
  package static let mainActorWait = Protected(10)
}
