import LazyInject

/// A screen of the app, main-actor isolated like a UIKit view controller.
@MainActor
open class ScreenViewController {
  /// Formats the screen's text; built with `init()` on first use.
  @Lazy public var formatter: Formatter

  /// Creates the screen.
  public init() {}
}

/// Shows the signed-in user's profile.
@MainActor
public final class ProfileViewController: ScreenViewController {
  /// The server; the production client unless a test overrides it.
  @Lazy public var api: any APIClient

  /// What the screen shows once loaded.
  public private(set) var title = ""

  /// Loads the profile and shows a greeting.
  public func load() {
    title = formatter.greeting(for: api.fetchProfile())
  }
}
