// A stand-in for UIKit, so that the documentation's examples compile on Linux against the
// signatures of the real framework: a module of its own, as UIKit is, main-actor isolated as
// UIKit's view classes are. Only what the examples use; scripts/check-snippets imports it in
// every block.

@_exported import Foundation  // As UIKit does: `import UIKit` brings Foundation.

/// UIKit's `UIResponder`.
@MainActor
open class UIResponder: NSObject {}

/// UIKit's `UIView`.
@MainActor
open class UIView: UIResponder {
  /// UIKit's `init(frame:)`.
  public init(frame: CGRect) {}

  /// UIKit's `init?(coder:)`.
  public required init?(coder: NSCoder) {}

  /// A view with a zero frame.
  public convenience override init() { self.init(frame: .zero) }

  /// UIKit's `addSubview(_:)`.
  open func addSubview(_ view: UIView) {}
}

/// UIKit's `UIViewController`.
@MainActor
open class UIViewController: UIResponder {
  /// UIKit's `view`.
  open var view: UIView! = UIView(frame: .zero)

  /// UIKit's `title`.
  open var title: String?

  /// UIKit's designated initializer.
  public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

  /// UIKit's `init?(coder:)`.
  public required init?(coder: NSCoder) {}

  /// A controller with no nib.
  public convenience override init() { self.init(nibName: nil, bundle: nil) }

  /// UIKit's `viewDidLoad()`.
  open func viewDidLoad() {}

  /// UIKit's `viewWillAppear(_:)`.
  open func viewWillAppear(_ animated: Bool) {}

  /// UIKit's `viewDidAppear(_:)`.
  open func viewDidAppear(_ animated: Bool) {}

  /// UIKit's `viewWillDisappear(_:)`.
  open func viewWillDisappear(_ animated: Bool) {}

  /// UIKit's `viewDidDisappear(_:)`.
  open func viewDidDisappear(_ animated: Bool) {}
}
