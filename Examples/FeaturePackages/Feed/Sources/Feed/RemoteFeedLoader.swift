import Core

/// The feed's loader (a stand-in: this example makes no network calls).
///
/// Not isolated to an actor: registered with `register`, it is built on whichever thread reads it
/// first.
public final class RemoteFeedLoader: FeedLoading {
  /// Creates the loader.
  public init() {}

  /// The posts as the server would return them.
  public func latestPosts() -> [String] {
    ["Packages travel with their rules", "One check for the whole app"]
  }
}
