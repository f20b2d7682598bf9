import LazyInject

// How an app lists the modules `.shared` installs by itself, with no call at start-up. (An app
// in another package writes `@retroactive AutomaticModuleInstallation`.)
extension InitializerRegistry: AutomaticModuleInstallation {
  public static var automaticModules: [any InitializerModule] {
    [AutomaticallyInstalledInitializers()]
  }
}
