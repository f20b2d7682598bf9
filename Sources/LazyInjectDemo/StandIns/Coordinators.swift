import LazyInject

/// A screen the router can show.
@MainActor
protocol Presentable: AnyObject {
  var title: String { get }
}

/// Wraps a navigation stack.
@MainActor
final class Router {
  private(set) var stack: [any Presentable] = []

  var visibleLoginScreen: LoginScreen? { stack.last as? LoginScreen }

  func setRoot(_ screen: any Presentable) {
    stack = [screen]
    say("  Router: root is now \(screen.title)")
  }

  func push(_ screen: any Presentable) {
    stack.append(screen)
    say("  Router: pushed \(screen.title)")
  }

  func pop() {
    if let screen = stack.popLast() { say("  Router: popped \(screen.title)") }
  }

  func popToRoot() {
    stack = Array(stack.prefix(1))
  }
}

/// Keeps a coordinator's children alive while their flows run; main-actor types, as
/// coordinators are, registered with `registerOnMainActor`.
protocol CoordinatorDependencies: AnyObject {
  func add(_ child: Coordinator)
  func remove(_ child: Coordinator)
  var childNames: [String] { get }
}

final class DefaultCoordinatorDependencies: CoordinatorDependencies {
  private var children: [Coordinator] = []

  init() {
    say("  DefaultCoordinatorDependencies built")
  }

  func add(_ child: Coordinator) { children.append(child) }
  func remove(_ child: Coordinator) { children.removeAll { $0 === child } }
  var childNames: [String] { children.map(\.name) }
}

/// What a test registers instead: it keeps children too, and records what happened.
final class RecordingDependencies: CoordinatorDependencies {
  private var children: [Coordinator] = []
  private(set) var log: [String] = []

  func add(_ child: Coordinator) {
    children.append(child)
    log.append("add \(type(of: child))")
  }

  func remove(_ child: Coordinator) {
    children.removeAll { $0 === child }
    log.append("remove \(type(of: child))")
  }

  var childNames: [String] { children.map(\.name) }
}

/// Told by a child when its flow is over.
@MainActor
protocol CoordinatorFlowListener: AnyObject {
  func onFlowFinished(_ coordinator: Coordinator)
}

/// Owns a flow of screens; its children live in `dependencies`, a `@Lazy` protocol-typed property.
@MainActor
class Coordinator {
  let name: String
  let router: Router
  weak var flowListener: (any CoordinatorFlowListener)?
  @Lazy var dependencies: any CoordinatorDependencies

  init(router: Router) {
    self.router = router
    name = Narrator.shared.nextName(for: String(describing: Self.self))
  }

  func start() {}

  deinit {
    say("  \(name) released")
  }
}

/// Starts the sign-in flow or the main flow, according to the app's state.
final class AppCoordinator: Coordinator, CoordinatorFlowListener {
  private var isSignedIn: Bool

  init(router: Router, isSignedIn: Bool) {
    self.isSignedIn = isSignedIn
    super.init(router: router)
  }

  override func start() {
    say("\(name).start(): the user is \(isSignedIn ? "signed in" : "signed out")")
    let child: Coordinator =
      isSignedIn ? MainFlowCoordinator(router: router) : AuthCoordinator(router: router)
    child.flowListener = self
    dependencies.add(child)
    child.start()
  }

  func onFlowFinished(_ coordinator: Coordinator) {
    say("  \(coordinator.name) finished; \(name) removes it")
    dependencies.remove(coordinator)
    isSignedIn = true
    start()
  }
}

/// The sign-in flow.
final class AuthCoordinator: Coordinator, LoginRoute {
  override func start() {
    say("  \(name) shows the login screen")
    router.setRoot(LoginScreen(route: self))
  }

  func didSignIn() {
    flowListener?.onFlowFinished(self)
  }
}

/// The flow of a signed-in user.
final class MainFlowCoordinator: Coordinator {
  override func start() {
    say("  \(name) shows the feed")
    router.setRoot(FeedPresentable())
  }
}

/// How the login screen reports its events.
@MainActor
protocol LoginRoute: AnyObject {
  func didSignIn()
}

final class LoginScreen: Presentable {
  let title = "Login"
  private weak var route: (any LoginRoute)?

  init(route: any LoginRoute) {
    self.route = route
  }

  func tapSignIn() {
    route?.didSignIn()
  }
}

final class FeedPresentable: Presentable {
  let title = "Feed"
}
