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
  public static let shared = InitializerRegistry(installsAutomaticModules: true)

  /// Everything that changes: rules, kept instances, settings (see `State`), behind the
  /// registry's lock.
  internal let state: Protected<State>

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
  public convenience init() { self.init(installsAutomaticModules: false) }

  private init(installsAutomaticModules: Bool) {
    state = Protected(State(modules: installsAutomaticModules ? .pending : .installed))
    (overrideDepth, isInForce, overridden) = (0, false, nil)
  }

  /// Creates a registry of an override layer `depth` layers above `base`: its own rules, or
  /// those registered while it is in force.
  internal init(overriding base: InitializerRegistry, depth: Int, isInForce: Bool) {
    state = Protected(
      State(modules: .installed, duplicateHandler: base.withState(\.duplicateHandler)))
    (overrideDepth, self.isInForce, overridden) = (depth, isInForce, base)
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
  /// Rules for one property come before the type's rules, as a resolution tries them.
  public var description: String {
    // Only references are copied under the lock; names are built and sorted after unlocking.
    let rules = registrations.map(\.rule)
    var lines = ["InitializerRegistry, \(rules.count) registration\(rules.count == 1 ? "" : "s")"]
    let byProperty = Dictionary(grouping: rules, by: \.propertyTypeName)
    for property in byProperty.keys.sorted() {
      lines.append(property)
      // Each rule's text is made once: sorting compares them many times.
      let sorted = byProperty[property]!.map { rule in
        (rule.isPropertyRule ? 0 : 1, rule.containerTypeName ?? "", rule.subject, rule)
      }.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
      lines += sorted.map { _, _, subject, rule in "  \(subject): \(rule.what)\(rule.details)" }
    }
    return lines.joined(separator: "\n")
  }

  /// Every registration of this registry (not of its layers), in no order.
  package var registrations: [AnyRegistration] { withState { $0.rules.allRegistrations } }
}
