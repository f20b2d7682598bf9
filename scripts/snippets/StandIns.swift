// Stand-ins for the app types that the documentation's examples use, declared as an app
// declares them: screens subclass UIKit's (the stand-in module), UI services are `@MainActor`,
// and the app's other types carry no annotation, so that they are main-actor isolated in an
// Xcode 26 app target (default main-actor isolation), as a newcomer's own types are, and
// nonisolated in a classic one. `nonisolated` marks only the services for background work that
// the guides say are marked so (the request manager, session, loggers, analytics): `Database`,
// `Avatar` and the app's models are main-actor types. A page that needs another `nonisolated`
// type declares it in its own block. scripts/check-snippets compiles them into each
// documentation file's module, less those that a block of that file declares itself.

import LazyInject
import UIKitStandIns

/// An app's base screen.
class ViewController: UIViewController {}

// Screens.

class UsersViewController: UIViewController {
  @Lazy var resourceLoader: ResourceLoader
  @Lazy var requestManager: RequestManager
  @Lazy var progressViewService: ProgressViewService
  @Lazy var analytics: any Analytics
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger

  func loadResources() {
    resourceLoader.loadResources()
    requestManager.request("/users")
  }

  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    analytics.track("users.opened")
  }
}

final class AdminUsersViewController: UsersViewController {}

final class ProjectsViewController: UIViewController {
  @Lazy var resourceLoader: ResourceLoader
}

final class SettingsViewController: UIViewController {
  @Lazy var resourceLoader: ResourceLoader
}

class AppViewController: UIViewController {
  @Lazy var coordinator: Coordinator
}

// The app's types: main-actor isolated in an app target with default main-actor isolation.

class ResourceLoader {
  weak var delegate: AnyObject?
  init() {}
  init(session: Session) {}
  static func usersLoader() -> ResourceLoader { ResourceLoader() }
  static func projectsLoader() -> ResourceLoader { ResourceLoader() }
  func loadResources() {}
}

final class StubLoader: ResourceLoader {}

protocol ResourceLoading: AnyObject {}

final class RemoteLoader: ResourceLoading {}

final class CachedLoader: ResourceLoading {}

// Services meant for background work: nonisolated in every app target.

nonisolated final class Session: Sendable {}

nonisolated class RequestManager {
  init() {}
  func request(_ path: String) {}
}

nonisolated final class MockRequestManager: RequestManager {
  private(set) var requests: [String] = []
  override func request(_ path: String) { requests.append(path) }
}

nonisolated final class Logger: Sendable {
  let category: String
  init(category: String) { self.category = category }
  init(category: String, owner: AnyObject) { self.category = category }
  func log(_ message: String) {}
}

nonisolated protocol Tracking: AnyObject, Sendable {
  func track(_ event: String)
}

nonisolated protocol Reporting: AnyObject, Sendable {
  func weeklyReport() -> String
}

nonisolated final class SharedAnalytics: Tracking, Reporting {
  init() {}
  func track(_ event: String) {}
  func weeklyReport() -> String { "" }
}

// The app's models and the services that must await to exist. Each has an initializer of its
// own, as an app's types do: Swift 6 makes the implicit `init()` of a main-actor class with no
// stored state nonisolated, which would let `register` build it where an app's cannot.

final class UserProfile: Sendable {
  init() {}
  static func load() -> UserProfile { UserProfile() }
}

final class Database: Sendable {
  init() {}
  static func open() async throws -> Database { Database() }
  func migrate() async throws {}
}

final class Avatar: Sendable {
  init() {}
  static func load(for userID: Int) async throws -> Avatar { Avatar() }
}

final class ProfileScreen: UIViewController {
  let userID = 1
  @Lazy var avatar: Avatar
  @Lazy var database: Database
}

final class SettingsScreen: UIViewController {
  @Lazy var database: Database
}

@MainActor
final class ProfileModel {
  static func load() async -> ProfileModel { ProfileModel() }
}

// UI services: main-actor types in every app target, as UIKit's are.

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

/// The registry the examples register into: a `Sendable` global, usable from any isolation.
nonisolated let registry = InitializerRegistry.shared
