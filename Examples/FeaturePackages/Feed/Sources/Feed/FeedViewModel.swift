import Core
import LazyInject

/// What the feed screen shows.
@MainActor
public final class FeedViewModel {
  /// Loads the posts: Feed's own loader (`FeedInitializers`).
  @Lazy public var loader: any FeedLoading

  /// Records what the user does: the app's client, which Feed requires and cannot build.
  @Lazy public var analytics: any AnalyticsClient

  /// The posts, once loaded.
  public private(set) var posts: [String] = []

  /// Creates the model; nothing is built until it loads.
  public init() {}

  /// Loads the posts, and records that the feed was opened.
  public func load() {
    posts = loader.latestPosts()
    analytics.track("feed_opened")
  }
}
