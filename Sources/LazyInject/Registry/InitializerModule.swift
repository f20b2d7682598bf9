/// A group of registrations, installed together: the Swift form of BloodMagic's
/// `lazy_initializer` files.
///
/// Keep one module per file, next to the types it builds:
///
/// ```swift
/// struct LoaderInitializers: InitializerModule {
///   func register(in registry: InitializerRegistry) {
///     registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
///       .usersLoader()
///     }
///     registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
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
  /// Installs `modules`, in order; those made with ``InitializerModule/when(_:)`` come last.
  ///
  /// ```swift
  /// registry.install(LoaderInitializers(), NetworkInitializers())
  /// ```
  ///
  /// Each registration remembers the module that made it, which diagnostics name.
  public func install(_ modules: any InitializerModule...) { install(modules) }

  /// Installs `modules`: the unconditional ones in order, then the conditional ones in order, so
  /// that a module switched on by a condition wins.
  internal func install(_ modules: [any InitializerModule]) {
    let ordered =
      modules.filter { !($0 is ConditionalModule) } + modules.filter { $0 is ConditionalModule }
    for module in ordered {
      let conditional = module as? ConditionalModule
      let name = typeName(type(of: conditional?.module ?? module))
      let installation = ModuleInstallation(
        name: conditional.map { "\(name) when \($0.condition)" } ?? name,
        isConditional: conditional != nil)
      ModuleInstallation.$current.withValue(installation) { module.register(in: self) }
    }
  }
}

/// The module whose registrations are being made on this task.
internal struct ModuleInstallation: Sendable {
  @TaskLocal static var current: ModuleInstallation?

  /// The module's name, with its condition if it has one; diagnostics show it.
  let name: String

  /// Whether a condition switched the module on: its registrations replace others on purpose,
  /// so the duplicate-registration handler does not hear of them.
  let isConditional: Bool
}
