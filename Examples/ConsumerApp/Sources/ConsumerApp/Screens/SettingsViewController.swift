/// A screen with no registrations of its own: it gets the root defaults.
@MainActor
public final class SettingsViewController: ScreenViewController {
  /// Creates the screen.
  public init() {
    super.init(title: "Settings")
  }
}
