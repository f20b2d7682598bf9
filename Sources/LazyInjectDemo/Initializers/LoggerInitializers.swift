import LazyInject

/// Two logs of one type in one screen, each with its own rule: a rule for one property, by the
/// key path to its projected value, wins over the rules of its type.
///
/// `@MainActor` (with its conformance) because the key paths name main-actor properties; in the
/// demo's default build, an app target with default main-actor isolation, that is inferred.
@MainActor
struct LoggerInitializers: @MainActor InitializerModule {
  func register(in registry: InitializerRegistry) {
    // Every Logger property: a debug log of its own.
    registry.register(Logger.self) { _ in Logger(category: "debug") }
    // The audit trail of every orders screen, and its subclasses': one, shared.
    registry.register(\OrdersViewController.$auditLog, scope: .singleton) { _ in
      Logger(category: "audit")
    }
    // Refunds sign their audit entries: the rule receives the screen, typed.
    registry.registerOnMainActor(\RefundsViewController.$auditLog) { screen in
      Logger(category: "refund audit of \(screen.name)")
    }
  }
}
