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
