import LazyInject

/// Two properties of one type in one class, each with its own rule.
enum TwoLoggersScene {
  @MainActor
  static func run() {
    say("OrdersViewController declares two Logger properties, auditLog and debugLog.")
    say("Initializers/LoggerInitializers.swift registers a debug Logger for every property, and a")
    say("rule for one property, `register(\\OrdersViewController.$auditLog, scope: .singleton)`:")
    let first = OrdersViewController()
    let second = OrdersViewController()
    for screen in [first, second] {
      say("\(screen.name).auditLog is \(screen.auditLog.name), \(screen.auditLog.category);")
      say("  its debugLog is \(screen.debugLog.name), \(screen.debugLog.category).")
    }
    say("Both screens share one audit trail: \(first.auditLog === second.auditLog).")
    say("RefundsViewController has its own rule, rooted at the subclass; it receives the screen:")
    let refunds = RefundsViewController()
    say("\(refunds.name).auditLog is \(refunds.auditLog.category).")
    say("Its debugLog is still the type's: \(refunds.debugLog.category).")
    say("The rule behind a value, from the property's projection:")
    say("  \(first.$auditLog.rule.map(String.init(describing:)) ?? "none")")
    say("How LazyInject decides for OrdersViewController:")
    for line in InitializerRegistry.shared.explain(Logger.self, in: OrdersViewController.self)
      .split(separator: "\n")
    {
      say("  \(line)")
    }
  }
}
