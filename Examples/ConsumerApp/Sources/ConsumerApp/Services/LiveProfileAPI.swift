/// The production profile client (a stand-in: this example makes no network calls).
@MainActor
public final class LiveProfileAPI: ProfileAPI {
  /// Creates the client.
  public init() {}

  /// The profile as the server would return it.
  public func fetchProfile() -> Profile {
    Profile(name: "Ada")
  }
}
