/// A profile, as the server sends it.
public struct Profile: Equatable, Sendable {
  /// The user's display name.
  public let name: String

  /// Creates a profile.
  public init(name: String) {
    self.name = name
  }
}

/// The profile endpoints, as a protocol: `@Lazy var api: any ProfileAPI` gets the live client
/// in the app and a spy in tests.
@MainActor
public protocol ProfileAPI: AnyObject {
  /// The profile of the signed-in user.
  func fetchProfile() -> Profile
}
