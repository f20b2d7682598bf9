/// Shows a progress indicator in the view of the controller it was built for: a UI service, so
/// main-actor isolated, as UIKit's are.
@MainActor
final class ProgressViewService {
  let name = Narrator.shared.nextName(for: "ProgressViewService")
  private weak var viewController: AnyObject?

  /// The article's `initWithViewController:`: the initializer receives the sender.
  init(viewController: AnyObject) {
    self.viewController = viewController
    say("  \(name) built for \(Self.describe(viewController))")
  }

  func showProgress(in view: View) {
    say("  \(name) shows progress in \(view.name)")
  }

  /// Whether this service was built for `controller`.
  func belongs(to controller: AnyObject) -> Bool {
    viewController === controller
  }

  deinit {
    say("  \(name) released")
  }

  private static func describe(_ object: AnyObject) -> String {
    (object as? any Named)?.displayName ?? String(describing: type(of: object))
  }
}

/// Something with a name the narration can use.
protocol Named {
  var displayName: String { get }
}

/// What a screen needs from a loader; the type of protocol-typed `@Lazy` properties.
protocol ResourceLoading: AnyObject {
  var kind: String { get }
  func loadResources()
}

/// Loads a screen's resources; which ones depends on how it was built.
///
/// A screen's helper: main-actor isolated, as every type of the app is unless marked
/// `nonisolated`, and so registered with `registerOnMainActor`.
final class ResourceLoader: ResourceLoading {
  let name = Narrator.shared.nextName(for: "ResourceLoader")
  let kind: String
  weak var delegate: AnyObject?

  init(kind: String) {
    self.kind = kind
    say("  \(name) built (\(kind))")
  }

  static func usersLoader() -> ResourceLoader { ResourceLoader(kind: "users") }
  static func projectsLoader() -> ResourceLoader { ResourceLoader(kind: "projects") }

  func loadResources() {
    say("  \(name) loads \(kind) resources")
  }

  deinit {
    say("  \(name) released")
  }
}

/// The network layer the article made a singleton with `sharedInstance`.
///
/// A service for background work too, so `nonisolated`: registered with `register`, it is built
/// on whatever thread first reads it.
nonisolated class RequestManager {
  let name: String

  init() {
    name = Narrator.shared.nextName(for: String(describing: Self.self))
    say("  \(name) built")
  }

  func loadResources(atPath path: String) -> String {
    "\(name) GET \(path)"
  }
}

/// What a test puts in place of the real `RequestManager`.
nonisolated final class MockRequestManager: RequestManager {
  override func loadResources(atPath path: String) -> String {
    "\(name) (mock) returns canned resources for \(path)"
  }
}
