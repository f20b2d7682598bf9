import _LazyInjectShims

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
  /// Runs `body` with `lock` held, after the automatic modules are installed.
  ///
  /// Every touch of the registry's state comes through here, so the first touch of ``shared``
  /// of any kind (registering, resolving, explaining, overriding…) installs the modules, exactly
  /// once: a registration made before any resolution is added after them and wins. Other threads
  /// wait while one installs; the installing thread itself passes, so modules can register.
  internal func withState<Result>(_ body: () throws -> Result) rethrows -> Result {
    while true {
      let result: Result? = try lock.withLock {
        if case .installed = automaticModules {
          return try body()
        }
        let thread = _lazyinject_thread_identity()
        while case .installing(let installer) = automaticModules, installer != thread {
          waitForAnotherThread()
        }
        guard case .pending = automaticModules else {
          return try body()
        }
        automaticModules = .installing(thread: thread)
        return nil
      }
      if let result {
        return result
      }
      installAutomaticModules()
    }
  }

  private func installAutomaticModules() {
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
