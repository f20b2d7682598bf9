import LazyInject

/// A profile, as the server sends it.
public struct Profile: Equatable, Sendable {
  /// The user's display name.
  public let name: String

  /// Creates a profile.
  public init(name: String) {
    self.name = name
  }
}

/// Talks to the server.
public protocol APIClient: AnyObject, Sendable {
  /// The profile of the signed-in user.
  func fetchProfile() -> Profile
}

/// The production client (a stand-in: this example makes no network calls).
public final class LiveAPIClient: APIClient {
  /// Creates the client.
  public init() {}

  /// A profile as the server would return it.
  public func fetchProfile() -> Profile { Profile(name: "Ada (from the server)") }
}

/// Formats what the screens show.
public final class Formatter: DefaultInitializable {
  /// Creates a formatter; LazyInject calls it when nothing is registered.
  public init() {}

  /// A greeting for `profile`.
  public func greeting(for profile: Profile) -> String { "Hello, \(profile.name)!" }
}
