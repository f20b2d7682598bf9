/// Shows the signed-in user; its state lives in an observable view model.
@MainActor
public final class ProfileViewController: ScreenViewController {
  /// The screen's state, owned rather than injected: its dependencies are the `@Lazy` part.
  public let model = ProfileViewModel()

  /// Creates the screen.
  public init() {
    super.init(title: "Profile")
  }

  /// Loads the profile into the view model.
  public func load() {
    model.load()
  }
}
