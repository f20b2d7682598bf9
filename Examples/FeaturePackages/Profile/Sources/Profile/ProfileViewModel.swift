import Core
import LazyInject

/// What the profile screen shows: the user's name and latest posts.
@MainActor
public final class ProfileViewModel {
  /// Who the profile is of.
  public let userName: String

  /// Loads the posts: whatever the program registers, the Feed package's loader in the app.
  @Lazy public var feed: any FeedLoading

  /// Records what the user does: the app's client.
  @Lazy public var analytics: any AnalyticsClient

  /// What the screen says, once loaded.
  public private(set) var summary = ""

  /// Creates the model of `userName`'s profile; nothing is built until it loads.
  public init(userName: String) {
    self.userName = userName
  }

  /// Loads the summary, and records that the profile was opened.
  public func load() {
    summary = "\(userName), \(feed.latestPosts().count) posts"
    analytics.track("profile_opened")
  }
}
