import LazyInject

/// Scene 7: the same screen, run as a test would run it, with a mock.
enum MockScene {
  @MainActor
  static func run() {
    if ModuleCondition.launchArgument(UITestingInitializers.launchArgument).isMet {
      say(
        "Launched with \(UITestingInitializers.launchArgument): UITestingInitializers is installed."
      )
    }
    say("Production:")
    load(UsersViewController())
    say("In a test, with an override layer (tests use the .overrides trait or withOverrides):")
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(RequestManager.self) { _ in MockRequestManager() }
    } operation: {
      load(UsersViewController())
    }
    say("After the test, production again, untouched:")
    load(UsersViewController())
  }

  @MainActor
  private static func load(_ screen: UsersViewController) {
    say("  \(screen.requestManager.loadResources(atPath: "/users"))")
  }
}
