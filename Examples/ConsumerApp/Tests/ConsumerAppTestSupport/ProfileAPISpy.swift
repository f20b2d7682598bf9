import ConsumerApp

/// Records what the profile screen asks the server.
///
/// Main-actor state with no lock, not declared `Sendable`: a test registers it with
/// `registerOnMainActor` and reads it afterwards.
@MainActor
public final class ProfileAPISpy: ProfileAPI {
  /// How many times the screen fetched the profile.
  public private(set) var fetchCount = 0

  /// Creates a spy that has recorded nothing.
  public init() {}

  /// Records the fetch and returns a fixed profile.
  public func fetchProfile() -> Profile {
    fetchCount += 1
    return Profile(name: "Grace")
  }
}
