/// The spinner of a users screen: a UI service, main-actor isolated and built from its screen.
@MainActor
public final class ProgressViewService {
  /// What the spinner says, from the screen's title.
  public let message: String

  /// Whether the spinner shows.
  public private(set) var isVisible = false

  /// How many times it was shown.
  public private(set) var showCount = 0

  /// Creates the spinner of `viewController`, reading its main-actor state.
  public init(viewController: UsersViewController) {
    message = "Loading \(viewController.title)..."
  }

  /// Shows the spinner.
  public func show() {
    isVisible = true
    showCount += 1
  }

  /// Hides the spinner.
  public func hide() {
    isVisible = false
  }
}
