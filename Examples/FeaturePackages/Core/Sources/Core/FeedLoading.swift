/// Loads the posts of the feed.
///
/// The Feed package registers its loader for every class of the app, so the Profile package
/// can show posts without depending on Feed.
public protocol FeedLoading: Sendable {
  /// The titles of the latest posts, newest first.
  func latestPosts() -> [String]
}
