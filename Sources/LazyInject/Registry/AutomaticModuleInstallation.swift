/// Lists the modules that ``InitializerRegistry/shared`` installs by itself, just before it is
/// first used.
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
/// The modules are installed exactly once, before the first use of ``InitializerRegistry/shared``
/// of any kind: registering, unregistering, resolving, `validate`, `explain`, `description`,
/// `withOverrides`. So every query sees them, and anything registered explicitly (in a test's
/// set-up or at start-up) comes after them and wins. If several threads touch `shared` first
/// at once, one installs and the others wait for it.
///
/// The registry looks the conformance up at run time, so only one module of a program may
/// declare it. An explicit ``InitializerRegistry/install(_:)`` still works alongside.
///
/// Modules only register: a module that resolves, or waits for another thread that uses
/// ``InitializerRegistry/shared``, waits for its own installation, which LazyInject cannot
/// report as a cycle.
public protocol AutomaticModuleInstallation {
  /// The modules to install into ``InitializerRegistry/shared`` before its first use.
  static var automaticModules: [any InitializerModule] { get }
}

extension InitializerRegistry {
  /// Installs the modules of the program's `AutomaticModuleInstallation` conformance, if any, into
  /// this registry (``shared``): called by `withState` on the first use, with the state
  /// `.installing` and no lock held.
  internal func installAutomaticModules() {
    let registryType: Any = InitializerRegistry.self
    if let installation = registryType as? any AutomaticModuleInstallation.Type {
      // Into the registry itself, even when first touched inside an override scope.
      OverrideScope.$current.withValue([]) {
        install(installation.automaticModules)
      }
    }
    lock.withLock {
      automaticModules = .installed
      wakeWaitingThreads()
    }
  }
}
