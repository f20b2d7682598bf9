import LazyInject

// The app's modules, installed by `InitializerRegistry.shared` before its first use, after the
// linked modules of its packages: no call at start-up, and no line about Feed or Profile.
extension LazyInject.InitializerRegistry: LazyInject.AutomaticModuleInstallation {
  /// The modules of the app.
  public static var automaticModules: [any InitializerModule] {
    [AppInitializers()]
  }
}
