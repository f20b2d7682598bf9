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
}
