import ConsumerApp

/// Records what the profile screen asks the server.
///
/// Main-actor state with no lock, not declared `Sendable`: a test registers it with
/// `registerOnMainActor` and reads it afterwards.
@MainActor
final class ProfileAPISpy: ProfileAPI {
  private(set) var fetchCount = 0

  func fetchProfile() -> Profile {
    fetchCount += 1
    return Profile(name: "Grace")
  }
}
