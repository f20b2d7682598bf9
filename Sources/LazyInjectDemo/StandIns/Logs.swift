import LazyInject

/// A log: nonisolated, so that any thread may build and write it.
nonisolated final class Logger: Sendable {
  let name = Narrator.shared.nextName(for: "Logger")
  let category: String

  init(category: String) {
    self.category = category
    say("  \(name) built: \(category)")
  }
}

/// A screen with two properties of one type: an audit trail and a debug log.
class OrdersViewController: ViewController {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

final class RefundsViewController: OrdersViewController {}
