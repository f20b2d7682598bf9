import LazyInject

/// Scene 8a: coordinators whose children live in a lazily built, protocol-typed dependency.
enum CoordinatorScene {
  @MainActor
  static func run() {
    let router = Router()
    let app = AppCoordinator(router: router, isSignedIn: false)
    say(
      "\(app.name) created; its dependencies are not built yet: \(!app.$dependencies.isResolved).")
    app.start()
    say("The user signs in:")
    router.visibleLoginScreen?.tapSignIn()
    say("Children of \(app.name): \(app.dependencies.childNames).")

    say("A test swaps the dependency manager without touching AppCoordinator:")
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.registerOnMainActor((any CoordinatorDependencies).self) { _ in
        RecordingDependencies()
      }
    } operation: {
      let tested = AppCoordinator(router: Router(), isSignedIn: true)
      tested.start()
      say("  recorded: \((tested.dependencies as? RecordingDependencies)?.log ?? [])")
    }
  }
}
