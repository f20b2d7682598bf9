import Dispatch
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
  /// Installs the modules of the program's `AutomaticModuleInstallation` conformance, if any, into
  /// this registry (``shared``): called by `withState` on the first use, with the state
  /// `.installing` and no lock held.
  ///
  /// A conformance isolated to the main actor (as a target with default main-actor isolation
  /// infers it) is used only on the main actor: from another thread, this hands the installation
  /// over to it.
  internal func installAutomaticModules() {
    switch Self.automaticModuleInstallation() {
    case .none:
      break
    case .installable(let installation):
      // Into the registry itself, even when first touched inside an override scope.
      OverrideScope.$configuring.withValue(nil) {
        OverrideScope.$current.withValue(nil) {
          install(installation.automaticModules)
        }
      }
    case .onMainActor:
      lock.withLock {
        automaticModules = .awaitingMainActor
        wakeWaitingThreads()
      }
      DispatchQueue.main.async {
        InitializerRegistry.shared.withState {}  // The main actor claims the installation.
      }
      return
    }
    lock.withLock {
      automaticModules = .installed
      wakeWaitingThreads()
    }
  }

  /// What the program's conformance to `AutomaticModuleInstallation` allows the calling thread.
  private enum Installation {
    /// The program declares none.
    case none
    /// One usable here.
    case installable(any AutomaticModuleInstallation.Type)
    /// One isolated to the main actor, and this code does not run on it.
    case onMainActor
  }

  /// The program's conformance, and whether the calling thread may use it.
  ///
  /// A dynamic cast finds a conformance isolated to the main actor only where the runtime knows
  /// it runs on the main actor; the runtime's conformance lookup finds it anywhere, and its
  /// witness table makes the metatype a job of the main queue may use on Linux, where a worker
  /// thread drains that queue and the cast fails there too.
  private static func automaticModuleInstallation() -> Installation {
    let registryType: Any = InitializerRegistry.self
    if let installation = registryType as? any AutomaticModuleInstallation.Type {
      return .installable(installation)
    }
    let metadata = unsafeBitCast(InitializerRegistry.self, to: UnsafeRawPointer.self)
    guard let witnessTable = _lazyinject_automatic_module_installation(metadata) else {
      return .none
    }
    guard isOnMainActor() else {
      return .onMainActor
    }
    guard _lazyinject_is_main_thread() == 0 else {
      // On the main thread the cast finds a main-actor conformance: this one is another actor's.
      fatalError(
        """
        LazyInject cannot install the automatic modules: the program's \
        AutomaticModuleInstallation conformance is isolated to a global actor other than the \
        main actor.
        Fix: isolate it to the main actor, or make it nonisolated.
        """)
    }
    // An existential metatype is the type's metadata followed by its witness table.
    return .installable(
      unsafeBitCast(
        (metadata, witnessTable), to: (any AutomaticModuleInstallation.Type).self))
  }
}
