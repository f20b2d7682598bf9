import LazyInject

/// A stand-in for `UIViewController`: main-actor isolated, with a view, and loud about its end.
@MainActor
class ViewController {
  let name: String
  let view: View

  @Lazy var progressViewService: ProgressViewService
  @Lazy var resourceLoader: ResourceLoader
  @Lazy var requestManager: RequestManager

  init() {
    name = Narrator.shared.nextName(for: String(describing: Self.self))
    view = View(name: "\(name).view")
    say("\(name) created")
  }

  deinit {
    say("\(name) released")
  }

  /// The article's method: both properties are built here, on first use.
  func loadResources() {
    progressViewService.showProgress(in: view)
    resourceLoader.delegate = self
    resourceLoader.loadResources()
  }
}

class UsersViewController: ViewController {}
final class AdminUsersViewController: UsersViewController {}
final class ProjectsViewController: ViewController {}
final class SettingsViewController: ViewController {}
extension ViewController: Named {
  nonisolated var displayName: String { name }
}
