import LazyInject

// The modules `InitializerRegistry.shared` installs before its first resolution: the Swift answer
// to BloodMagic's `lazy_initializer` (`__attribute__((constructor))`), with no call in `main`.
// An app in its own package writes `extension InitializerRegistry: @retroactive ...`.
//
// Isolated to the main actor, as an app target with default main-actor isolation infers it
// (the demo's default build), and written out for the classic build: LoggerInitializers'
// conformance is, and LazyInject installs such modules on the main actor.
extension InitializerRegistry: @MainActor AutomaticModuleInstallation {
  /// Every module of the demo, in the order they register.
  @MainActor public static var automaticModules: [any InitializerModule] {
    [
      ServiceInitializers(), LoaderInitializers(), NetworkInitializers(),
      CoordinatorInitializers(), NewsInitializers(), SessionInitializers(),
      CheckoutInitializers(), LoggerInitializers(),
      // Installed after the others, so it wins, when UI tests launch the demo with the argument.
      UITestingInitializers().when(.launchArgument(UITestingInitializers.launchArgument)),
    ]
  }
}
