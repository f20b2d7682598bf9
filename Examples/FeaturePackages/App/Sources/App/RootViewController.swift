import Core
import Feed
import LazyInject
import Profile

/// The app's tab bar: the feed and the signed-in user's profile, each from its package.
public final class RootViewController {
  /// The signed-in user.
  public let userName: String

  /// The feed tab, built by the Feed package's rule on its first read.
  @Lazy public var feed: FeedViewController

  /// The app's analytics client.
  @Lazy public var analytics: any AnalyticsClient

  /// The profile tab: the app makes it, with the user's name.
  public private(set) lazy var profile = ProfileViewController(userName: userName)

  /// Creates the tab bar of `userName`; nothing is built until a tab is read.
  public init(userName: String) {
    self.userName = userName
  }

  /// Records the launch.
  public func launch() {
    analytics.track("app_launched")
  }
}
