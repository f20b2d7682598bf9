import LazyInject
import Testing

// One test per answer of "How a property is resolved" (RegisteringInitializers.md), for the cases
// the articles once left open.

private final class Logger: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Parser: DefaultInitializable, Sendable {
  init() {}
}

private protocol Tracking: AnyObject, Sendable {}
private final class Analytics: Tracking, DefaultInitializable {
  init() {}
}

private final class Screen {
  @Lazy var logger: Logger
  @Lazy var optionalLogger: Logger?
  @Lazy var parser: Parser
  @Lazy var tracker: any Tracking
}

private final class Probe {
  @Lazy var logger: Logger
}

struct ResolutionRuleTests {
  private let registry = InitializerRegistry()

  @Test func nearerLayersRuleOfTheWrappedTypeWinsOverAnOuterRuleOfTheOptional() {
    let registry = InitializerRegistry.shared
    registry.withOverrides {
      $0.register(Logger?.self, in: Screen.self) { _ in Logger("outer optional") }
    } operation: {
      registry.withOverrides {
        $0.register(Logger.self, in: Screen.self) { _ in Logger("inner mock") }
      } operation: {
        #expect(Screen().optionalLogger?.name == "inner mock")
      }
      // In one layer, the rule of `T?` still wins over that of `T`.
      registry.withOverrides {
        $0.register(Logger.self, in: Screen.self) { _ in Logger("plain") }
        $0.register(Logger?.self, in: Screen.self) { _ in Logger("optional") }
      } operation: {
        #expect(Screen().optionalLogger?.name == "optional")
      }
    }
  }

  @Test func everyLayersOwnRuleRanksAboveRulesRegisteredWhileLayersAreInForce() {
    let registry = InitializerRegistry.shared
    registry.withOverrides {
      $0.register(Logger.self, in: Screen.self) { _ in Logger("outer own") }
    } operation: {
      registry.withOverrides { _ in
      } operation: {
        // Registered while both layers are in force: the innermost layer's in-force rules.
        registry.register(Logger.self, in: Screen.self) { _ in Logger("in force") }
        #expect(Screen().logger.name == "outer own")
      }
    }
  }

  @Test func removeAllRemovesRulesForOneProperty() throws {
    registry.register(\Screen.$logger) { _ in Logger("property") }
    registry.register(Logger.self) { _ in Logger("type") }
    registry.unregisterAll()
    #expect(registry.description == "InitializerRegistry, 0 registrations")
  }

  @Test func explicitResolutionUsesTheCallersLayersAndFirstReadsTheObjects() throws {
    let registry = InitializerRegistry.shared
    let probe = registry.withOverrides {
      $0.register(Logger.self, in: Probe.self) { _ in Logger("made in A") }
    } operation: {
      Probe()
    }
    registry.withOverrides { _ in
    } operation: {
      // Explicitly, only the caller's layers: A's rule is not among them.
      #expect(throws: ResolutionError.self) { try registry.resolve(Logger.self, for: probe) }
      // The object's first read uses the layers it was made under, with the reader's above.
      #expect(probe.logger.name == "made in A")
    }
  }

  @Test func forwardsTargetIsServedByItsTypesRulesAndInitNeverByRulesForOneProperty() throws {
    registry.forward((any Tracking).self, to: Analytics.self)
    // No rule of Analytics: its init() serves the forward.
    #expect(try registry.resolve((any Tracking).self, for: Screen()) is Analytics)
    let explanation = registry.explain((any Tracking).self, in: Screen.self)
    #expect(explanation.contains("forwarded to LazyInjectTests.Analytics"), "\(explanation)")
  }

  @Test func ruleOfAForwardedValueIsTheForwardAndANilOptionalHasNone() {
    let registry = InitializerRegistry.shared
    registry.withOverrides {
      $0.forward((any Tracking).self, in: Screen.self, to: Analytics.self)
    } operation: {
      let screen = Screen()
      _ = screen.tracker
      #expect(screen.$tracker.rule?.forwardTargetTypeName == "LazyInjectTests.Analytics")
      #expect(screen.optionalLogger == nil)
      #expect(screen.$optionalLogger.isResolved)
      #expect(screen.$optionalLogger.rule == nil)
    }
  }

  @Test func validatingAnObjectUsesTheLayersItWasMadeUnder() {
    let registry = InitializerRegistry.shared
    let probe = registry.withOverrides {
      $0.register(Logger.self, in: Probe.self) { _ in Logger("made in A") }
    } operation: {
      Probe()
    }
    // No rule outside A's layer: a read would still build A's logger, and validate agrees.
    #expect(throws: Never.self) { try registry.validate(probe) }
  }

  @Test func unregisteringWhatIsNotRegisteredChangesNothing() {
    registry.register(Logger.self, in: Screen.self) { _ in Logger("kept") }
    let before = registry.description
    registry.unregister(Logger.self, in: Probe.self)
    registry.unregister(Parser.self)
    registry.unregister(\Screen.$parser)
    #expect(registry.description == before)
  }
}
