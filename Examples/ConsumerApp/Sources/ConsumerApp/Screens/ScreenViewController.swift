import LazyInject

/// The app's base screen, main-actor isolated like `UIViewController` (a plain class stands in
/// for UIKit on Linux).
@MainActor
public class ScreenViewController {
  /// What the navigation bar shows.
  public var title: String

  /// Loads the screen's data.
  ///
  /// Registered for `UsersViewController`, inherited by its subclasses; every other screen gets
  /// the root default.
  @Lazy public var resourceLoader: ResourceLoader

  /// Creates a screen titled `title`; nothing is built until a `@Lazy` property is read.
  public init(title: String) {
    self.title = title
  }
}
