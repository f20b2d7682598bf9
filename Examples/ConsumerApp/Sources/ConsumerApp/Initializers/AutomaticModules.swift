import LazyInject

// The app's modules, installed by `InitializerRegistry.shared` before its first use: no call at
// start-up. `@retroactive` because both types come from LazyInject: that is how this hook works,
// so the lint rule against retroactive conformances is silenced here.
// swift-format-ignore: AvoidRetroactiveConformances
extension InitializerRegistry: @retroactive AutomaticModuleInstallation {
  /// The modules of the app.
  public static var automaticModules: [any InitializerModule] {
    [
      NetworkInitializers(), LoaderInitializers(), ScreenInitializers(), SessionInitializers(),
    ]
  }
}
