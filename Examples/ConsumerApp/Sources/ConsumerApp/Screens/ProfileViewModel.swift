import LazyInject
import Observation

/// The profile screen's state, observable like a SwiftUI view model.
@Observable @MainActor
public final class ProfileViewModel {
  /// The server, typed by its protocol so that tests can swap it.
  ///
  /// `@ObservationIgnored`: a dependency is not state, and `@Observable` cannot wrap a property
  /// wrapper.
  @ObservationIgnored @Lazy public var api: any ProfileAPI

  /// The signed-in session, prepared at launch: a plain read.
  @ObservationIgnored @Lazy public var session: Session

  /// The user's picture, fetched for this model by an async initializer: `loadAvatar()`.
  @ObservationIgnored @Lazy public var avatar: Avatar

  /// What the screen shows; observers hear of each change.
  public private(set) var greeting = ""

  /// Where the user's picture is, once loaded.
  public private(set) var avatarURL: String?

  /// Creates the view model; the API is built on first use.
  public init() {}

  /// Fetches the profile and updates the greeting.
  public func load() {
    greeting = "Hello, \(api.fetchProfile().name)!"
  }

  /// Fetches the user's picture: awaits its initializer once; later reads of `avatar` are plain.
  public func loadAvatar() async throws {
    avatarURL = try await $avatar.load().url
  }
}
