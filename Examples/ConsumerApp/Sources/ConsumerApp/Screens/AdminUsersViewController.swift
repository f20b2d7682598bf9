/// The administrators: a subclass, so it inherits every registration for `UsersViewController`
/// and needs none of its own.
@MainActor
public final class AdminUsersViewController: UsersViewController {
  /// Creates the screen.
  public init() {
    super.init(title: "Admins")
  }
}
