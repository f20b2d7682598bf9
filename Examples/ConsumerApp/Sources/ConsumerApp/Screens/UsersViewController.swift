import LazyInject

/// The list of users; its registrations apply to its subclasses too.
@MainActor
public class UsersViewController: ScreenViewController {
  /// The spinner; built on the main actor from this screen (`ScreenInitializers`).
  @Lazy public var progressView: ProgressViewService

  /// What the screen fetched, once loaded.
  public private(set) var loaded: String?

  /// Creates the screen; subclasses pass their own title.
  public override init(title: String = "Users") {
    super.init(title: title)
  }

  /// Fetches the screen's data, with the spinner up meanwhile.
  public func load() {
    progressView.show()
    loaded = resourceLoader.loadResources()
    progressView.hide()
  }
}
