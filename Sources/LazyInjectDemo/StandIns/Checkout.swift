import LazyInject

/// Owns the checkout flow and its screen; the app keeps it while the flow runs.
@MainActor
final class CheckoutCoordinator {
  let name = Narrator.shared.nextName(for: "CheckoutCoordinator")
  let screen = CheckoutScreen()

  init() {
    say("  \(name) started, with \(screen.name)")
  }

  deinit {
    say("  \(name) released")
  }
}

/// The flow's screen: it reports to its coordinator, and must not keep it alive.
@MainActor
final class CheckoutScreen {
  let name = Narrator.shared.nextName(for: "CheckoutScreen")
  @WeakLazy var coordinator: CheckoutCoordinator?
}

/// The flow the app runs now, if any.
@MainActor
enum Flows {
  static weak var checkout: CheckoutCoordinator?
}
