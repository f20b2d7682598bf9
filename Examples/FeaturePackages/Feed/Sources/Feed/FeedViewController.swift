import LazyInject

/// The feed screen, main-actor isolated like `UIViewController` (a plain class stands in for
/// UIKit on Linux).
@MainActor
public final class FeedViewController {
  /// What the navigation bar shows.
  public let title = "Feed"

  /// The screen's model, built from this screen on its first read (`FeedInitializers`).
  @Lazy public var model: FeedViewModel

  /// Creates the screen.
  public init() {}
}
