import LazyInject

/// Fetches users' avatars ahead of time, on a background queue.
///
/// A service for background work, so `nonisolated`: its request manager, a `nonisolated`
/// service registered with `register`, is resolved on the queue that prefetches.
nonisolated public final class AvatarPrefetcher {
  /// The app's one request manager.
  @Lazy public var requestManager: RequestManager

  /// Creates a prefetcher; nothing is built until it prefetches.
  public init() {}

  /// Fetches the avatar of `user`.
  public func prefetch(_ user: String) -> String {
    requestManager.get("/avatars/\(user)")
  }
}
