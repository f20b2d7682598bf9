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

  /// What the screen shows; observers hear of each change.
  public private(set) var greeting = ""

  /// Creates the view model; the API is built on first use.
  public init() {}

  /// Fetches the profile and updates the greeting.
  public func load() {
    greeting = "Hello, \(api.fetchProfile().name)!"
  }
}
