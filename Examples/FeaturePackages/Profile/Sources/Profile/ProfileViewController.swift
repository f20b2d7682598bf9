import LazyInject

/// The signed-in user's profile screen, main-actor isolated like `UIViewController` (a plain
/// class stands in for UIKit on Linux).
@MainActor
public final class ProfileViewController {
  /// What the navigation bar shows.
  public let title = "Profile"

  /// Whose profile the screen shows.
  public let userName: String

  /// The screen's model, built for this screen on its first read (`ProfileInitializers`).
  @Lazy public var model: ProfileViewModel

  /// Creates the profile screen of `userName`.
  public init(userName: String) {
    self.userName = userName
  }
}
