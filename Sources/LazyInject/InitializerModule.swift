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

/// Lists the modules that ``InitializerRegistry/shared`` installs by itself, just before its
/// first resolution.
///
/// Swift has no `__attribute__((constructor))`: instead, an app declares this conformance once,
/// anywhere in its code, and needs no call in `main`:
///
/// ```swift
/// extension InitializerRegistry: @retroactive AutomaticModuleInstallation {
///   public static var automaticModules: [any InitializerModule] {
///     [LoaderInitializers(), NetworkInitializers()]
///   }
/// }
/// ```
///
/// The registry looks the conformance up at run time, so only one module of a program may
/// declare it. Modules installed this way come before any registration made by a resolution's
/// initializers; an explicit ``InitializerRegistry/install(_:)`` still works alongside.
public protocol AutomaticModuleInstallation {
  /// The modules to install into ``InitializerRegistry/shared`` before its first resolution.
  static var automaticModules: [any InitializerModule] { get }
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
