import LazyInject

/// `@WeakLazy`: a screen's back-reference to the coordinator that owns it.
enum WeakCoordinatorScene {
  @MainActor
  static func run() {
    say("CheckoutScreen declares `@WeakLazy var coordinator: CheckoutCoordinator?`.")
    say("The app starts the checkout flow:")
    var flow: CheckoutCoordinator? = CheckoutCoordinator()
    Flows.checkout = flow
    let screen = flow!.screen
    say("\(screen.name).coordinator is \(screen.coordinator?.name ?? "nil"), held weakly.")
    say("The flow finishes and the app lets go of its coordinator:")
    flow = nil
    say("\(screen.name).coordinator is now \(screen.coordinator?.name ?? "nil").")
  }
}
