import ConsumerApp

/// Records what the profile screen asks the server.
///
/// Main-actor state with no lock, not declared `Sendable`: a test registers it with
/// `registerOnMainActor` and reads it afterwards.
@MainActor
public final class ProfileAPISpy: ProfileAPI {
  public private(set) var fetchCount = 0

  public init() {}

  public func fetchProfile() -> Profile {
    fetchCount += 1
    return Profile(name: "Grace")
  }
}
