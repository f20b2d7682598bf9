import LazyInject

/// Loads the data of one kind of screen: which kind is decided by the registration for the
/// screen's class.
///
/// One of the app's own types, with no annotation: main-actor isolated in an app target with
/// default main-actor isolation, and registered with `registerOnMainActor`.
public final class ResourceLoader {
  /// What this loader fetches.
  public let path: String

  /// The app's one request manager; `@Lazy` works in any class, not only in screens.
  @Lazy public var requestManager: RequestManager

  /// Creates a loader for `path`.
  public init(path: String) {
    self.path = path
  }

  /// The loader of the users screens.
  public static func usersLoader() -> ResourceLoader {
    ResourceLoader(path: "/users")
  }

  /// Fetches the resources.
  public func loadResources() -> String {
    requestManager.get(path)
  }
}
