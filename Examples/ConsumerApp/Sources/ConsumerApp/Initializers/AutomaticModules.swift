import LazyInject

// The app's modules, installed by `InitializerRegistry.shared` before its first use: no call at
// start-up. Both types come from LazyInject, which is how this hook works: written with their
// module's name, the conformance needs no `@retroactive` and draws no warning.
extension LazyInject.InitializerRegistry: LazyInject.AutomaticModuleInstallation {
  /// The modules of the app.
  public static var automaticModules: [any InitializerModule] {
    [
      NetworkInitializers(), LoaderInitializers(), ScreenInitializers(), SessionInitializers(),
    ]
  }
}
