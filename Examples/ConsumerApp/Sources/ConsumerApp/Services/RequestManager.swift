/// Sends the app's requests.
///
/// One for the whole app (a `.singleton`): a real one would own the `URLSession` and its
/// connection pool. A service for background work too, so `nonisolated`: registered with
/// `register`, it is built on whichever thread reads it first.
nonisolated public final class RequestManager: Sendable {
  /// Where requests go.
  public let baseURL: String

  /// Creates a manager for the server at `baseURL`.
  public init(baseURL: String) {
    self.baseURL = baseURL
  }

  /// Sends a GET request for `path` (a stand-in: this example makes no network calls).
  public func get(_ path: String) -> String {
    "GET \(baseURL)\(path)"
  }
}
