import LazyInject
import LazyInjectTesting
import Testing

private final class Outbox: Sendable {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private final class Inbox: Sendable {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private final class MailScreen {
  @Lazy var outbox: Outbox
  @Lazy var inbox: Inbox
}

/// The app's production set-up, as a test would call it: it registers on `.shared`.
private func registerProduction(_ registry: InitializerRegistry = .shared) {
  registry.register(Outbox.self) { _ in Outbox("smtp") }
  registry.register(Inbox.self, in: MailScreen.self) { _ in Inbox("imap") }
}

/// What `.shared` itself resolves for a mail screen's outbox and inbox, outside every override
/// layer (on a thread of its own).
private func resolvedOutsideEveryLayer() -> [String] {
  let kinds = Locked<[String]>([])
  runConcurrently(threads: 1) { _ in
    let screen = MailScreen()
    let registry = InitializerRegistry.shared
    kinds.mutate {
      $0 = [
        (try? registry.resolve(Outbox.self, for: screen))?.kind,
        (try? registry.resolve(Inbox.self, for: screen))?.kind,
      ].compactMap { $0 }
    }
  }
  return kinds.value
}

// Registrations made on a registry while an override layer is in force (in a test's body, a
// suite's init, production set-up the test calls) go to the innermost layer, below the rules of
// every layer's configure: a mock wins whatever the order, and all of it dies with the layer.
@Suite(.overrides { $0.register(Outbox.self) { _ in Outbox("mock") } })
struct InForceRegistrationTests {
  @Test func traitMockWinsOverProductionRegisteredInTheTestBody() {
    registerProduction()
    let screen = MailScreen()
    #expect(screen.outbox.kind == "mock")
    #expect(screen.inbox.kind == "imap")  // What the mock does not cover, production serves.
    #expect(resolvedOutsideEveryLayer() == [])  // Production went to the test's layer.
  }

  @Test func productionRegisteredInTheBodyDiesWithTheLayer() throws {
    let registry = InitializerRegistry()
    try registry.withOverrides { _ in
    } operation: {
      registerProduction(registry)
      let resolved = try registry.resolve(Outbox.self, for: MailScreen())
      #expect(resolved.kind == "smtp")
    }
    #expect(throws: ResolutionError.self) { try registry.resolve(Outbox.self, for: MailScreen()) }
  }

  @Test func configureMockWinsOverALaterMoreSpecificRegistrationInTheBody() throws {
    let registry = InitializerRegistry()
    try registry.withOverrides {
      $0.register(Inbox.self) { _ in Inbox("mock") }
    } operation: {
      registry.register(Inbox.self, in: MailScreen.self) { _ in Inbox("imap") }
      let resolved = try registry.resolve(Inbox.self, for: MailScreen())
      #expect(resolved.kind == "mock")
    }
  }

  @Test func outerLayerMockWinsOverARegistrationMadeInsideAnInnerLayer() throws {
    let registry = InitializerRegistry()
    try registry.withOverrides {
      $0.register(Outbox.self) { _ in Outbox("outer mock") }
    } operation: {
      try registry.withOverrides { _ in
      } operation: {
        registerProduction(registry)
        let resolved = try registry.resolve(Outbox.self, for: MailScreen())
        #expect(resolved.kind == "outer mock")
      }
    }
  }

  @Test func replacingAMockInTheBodyReportsNoDuplicate() throws {
    let registry = InitializerRegistry()
    let duplicates = Locked(0)
    registry.duplicateRegistrationHandler = { _ in duplicates.mutate { $0 += 1 } }
    try registry.withOverrides {
      $0.register(Outbox.self) { _ in Outbox("mock") }
    } operation: {
      registerProduction(registry)
      let resolved = try registry.resolve(Outbox.self, for: MailScreen())
      #expect(resolved.kind == "mock")
    }
    #expect(duplicates.value == 0)
  }

  @Test func registeringOnTheRegistryInsideConfigureAddsToTheLayer() throws {
    let registry = InitializerRegistry()
    try registry.withOverrides { _ in
      registry.register(Outbox.self) { _ in Outbox("mock via the registry") }
    } operation: {
      registerProduction(registry)
      let resolved = try registry.resolve(Outbox.self, for: MailScreen())
      #expect(resolved.kind == "mock via the registry")
    }
    #expect(throws: ResolutionError.self) { try registry.resolve(Outbox.self, for: MailScreen()) }
  }

  @Test func explainNamesTheRulesRegisteredWhileTheLayerIsInForce() {
    let registry = InitializerRegistry()
    registry.withOverrides {
      $0.register(Outbox.self) { _ in Outbox("mock") }
    } operation: {
      registerProduction(registry)
      let explanation = registry.explain(Outbox.self, in: MailScreen.self)
      #expect(explanation.contains("Override layer 1:"))
      #expect(explanation.contains("Override layer 1, registered while in force:"))
      #expect(explanation.contains("shadowed by override layer 1"))
    }
  }

  @Test func unregisteringInTheBodyRemovesTheLayersMockToo() {
    let registry = InitializerRegistry()
    registry.withOverrides {
      $0.register(Outbox.self) { _ in Outbox("mock") }
    } operation: {
      registry.unregister(Outbox.self)
      #expect(throws: ResolutionError.self) { try registry.resolve(Outbox.self, for: MailScreen()) }
    }
  }
}
