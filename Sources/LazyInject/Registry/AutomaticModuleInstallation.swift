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
/// The protocol is isolated to the main actor: the modules are always installed there, whatever
/// thread first uses ``InitializerRegistry/shared``, so that modules may touch main-actor state.
/// Declare the conformance as above, without `@MainActor` (the protocol has it): a conformance
/// isolated to the main actor is found only where the Swift runtime knows it runs there, which a
/// job of the main queue that another thread drains (Linux) is not.
/// A first use off the main actor hands the installation to the main queue. Async code (the
/// `.overrides` trait, `withOverrides`, `prepare()`, `load()`) awaits it, blocking no thread,
/// however long the main actor is busy. A synchronous first use off the main actor (a read,
/// `resolve`, the synchronous `withOverrides`) waits for it; if the main actor does not run
/// within 10 seconds (its thread is blocked, perhaps waiting for the very thread that waits, or
/// busy), the program stops with a message that names both causes and the fix for each.
///
/// The registry looks the conformance up at run time, so only one module of a program may
/// declare it. An explicit ``InitializerRegistry/install(_:)`` still works alongside.
///
/// Modules only register: a module that resolves, or waits for another thread that uses
/// ``InitializerRegistry/shared``, waits for its own installation, which LazyInject cannot
/// report as a cycle.
@MainActor public protocol AutomaticModuleInstallation {
  /// The modules to install into ``InitializerRegistry/shared`` before its first use.
  static var automaticModules: [any InitializerModule] { get }
}
