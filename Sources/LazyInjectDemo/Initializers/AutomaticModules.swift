import LazyInject

// The modules `InitializerRegistry.shared` installs before its first resolution: the Swift answer
// to BloodMagic's `lazy_initializer` (`__attribute__((constructor))`), with no call in `main`.
// An app in its own package writes it with the module's name, which needs no `@retroactive`:
// `extension LazyInject.InitializerRegistry: LazyInject.AutomaticModuleInstallation`.
//
// The protocol is isolated to the main actor: LazyInject installs the modules there, whatever
// thread first uses the registry (LoggerInitializers' conformance is isolated to it, too).
// NewsInitializers is not listed: a `LinkedModule`, it is found in the binary and installed first.
extension InitializerRegistry: AutomaticModuleInstallation {
  /// Every module of the demo but the linked one (NewsInitializers), in the order they register.
  public static var automaticModules: [any InitializerModule] {
    [
      ServiceInitializers(), LoaderInitializers(), NetworkInitializers(),
      CoordinatorInitializers(), SessionInitializers(),
      CheckoutInitializers(), LoggerInitializers(), LaunchInitializers(),
      // Installed after the others, so it wins, when UI tests launch the demo with the argument.
      UITestingInitializers().when(.launchArgument(UITestingInitializers.launchArgument)),
    ]
  }
}
