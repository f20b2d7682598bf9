/// A group of registrations, installed together: the Swift form of BloodMagic's
/// `lazy_initializer` files.
///
/// Keep one module per file, next to the types it builds:
///
/// ```swift
/// struct LoaderInitializers: InitializerModule {
///   func register(in registry: InitializerRegistry) {
///     registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in .usersLoader() }
///     registry.register(ResourceLoader.self, in: ProjectsViewController.self) { _ in .projectsLoader() }
///   }
/// }
///
/// InitializerRegistry.shared.install(LoaderInitializers(), NetworkInitializers())
/// ```
///
/// To have modules installed before the first resolution without a call at start-up, list them
/// through ``AutomaticModuleInstallation``.
public protocol InitializerModule {
  /// Adds this module's registrations to `registry`.
  func register(in registry: InitializerRegistry)
}

extension InitializerRegistry {
  /// Installs `modules`, in order.
  ///
  /// ```swift
  /// registry.install(LoaderInitializers(), NetworkInitializers())
  /// ```
  public func install(_ modules: any InitializerModule...) {
    for module in modules {
      module.register(in: self)
    }
  }
}
