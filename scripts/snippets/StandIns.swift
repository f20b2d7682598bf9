// Stand-ins for the types that the documentation's examples use, shaped as in a Swift 6 app on
// UIKit: screens and UI services are `@MainActor`, other services are plain classes.
// scripts/check-snippets compiles them beside the blocks of each documentation file, less those
// that a block of that file declares itself.

import LazyInject

// UIKit, as far as the examples need it.

@MainActor
class UIViewController {
  let view = UIView()
  var title: String?
  init() {}
}

@MainActor
final class UIView {}

/// An app's base screen.
@MainActor
class ViewController: UIViewController {}

// Screens.

@MainActor
class UsersViewController: UIViewController {
  @Lazy var resourceLoader: ResourceLoader
  @Lazy var requestManager: RequestManager
  @Lazy var progressViewService: ProgressViewService
  @Lazy var analytics: any Analytics

  func loadResources() {
    resourceLoader.loadResources()
    requestManager.request("/users")
  }

  func viewDidAppear() {
    analytics.track("users.opened")
  }
}

@MainActor
final class AdminUsersViewController: UsersViewController {}

@MainActor
final class ProjectsViewController: UIViewController {
  @Lazy var resourceLoader: ResourceLoader
}

@MainActor
class AppViewController: UIViewController {
  @Lazy var coordinator: Coordinator
}

// Services that are not tied to the main actor.

class ResourceLoader {
  weak var delegate: AnyObject?
  init() {}
  init(session: Session) {}
  static func usersLoader() -> ResourceLoader { ResourceLoader() }
  static func projectsLoader() -> ResourceLoader { ResourceLoader() }
  func loadResources() {}
}

final class StubLoader: ResourceLoader {}

final class Session {}

class RequestManager {
  init() {}
  func request(_ path: String) {}
}

final class MockRequestManager: RequestManager {
  private(set) var requests: [String] = []
  override func request(_ path: String) { requests.append(path) }
}

protocol ResourceLoading: AnyObject {}

final class RemoteLoader: ResourceLoading {}

final class CachedLoader: ResourceLoading {}

// UI services: main-actor types.

@MainActor
final class ProgressViewService {
  init(viewController: UIViewController) {}
  init(owner: AnyObject) {}
  func showProgress(in view: UIView) {}
}

@MainActor
protocol Analytics: AnyObject {
  func track(_ event: String)
}

@MainActor
final class ToastPresenter {
  init() {}
}

@MainActor
final class Coordinator {
  init() {}
  init(presenter: UIViewController) {}
}

// Session state, flows and modules for the doc comments' examples.

final class UserProfile: Sendable {
  static func load() -> UserProfile { UserProfile() }
}

@MainActor
final class SignInCoordinator {}

@MainActor
final class FeedModel {
  func refresh() async {}
}

@MainActor
let feed = FeedModel()

// Modules.

struct LoaderInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {}
}

struct NetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {}
}

struct MockNetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {}
}

struct PreviewInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {}
}

/// The registry the examples register into.
let registry = InitializerRegistry.shared
