import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Rules for one property, by the key path to its projection. `@Lazy` reads resolve from the
// shared registry: each test uses classes of its own, so that parallel tests never share a pair.

private final class Logger: Sendable {
  let category: String
  let owner: String?
  init(category: String, owner: String? = nil) {
    self.category = category
    self.owner = owner
  }
}

/// A value type: its values are always boxed.
private struct Channel: Equatable {
  let name: String
}

private class Screen {
  let title: String
  init(title: String = "screen") { self.title = title }
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class StaffScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class AdminScreen: StaffScreen {}
private final class SuperAdminScreen: AdminScreen {}

private class OrderScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private final class RefundScreen: OrderScreen {}

private class InvoiceScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class ReportScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class ArchiveScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class SingleLogScreen {
  @Lazy var onlyLog: Logger
}

private class ChannelScreen {
  @Lazy var primary: Channel
  @Lazy var backup: Channel
}

private final class Session {
  @Lazy var token: Logger
}

private class MisusedScreen {
  let session = Session()
  @Lazy var auditLog: Logger
}

extension MisusedScreen {
  /// A projection of another object's property: a key path to it is rooted here, but is not a
  /// property of this object.
  fileprivate var sessionToken: LazyProjection<Logger> { session.$token }
}

/// Names one of its properties through a computed projection, which a subclass overrides.
private class ChoosingScreen {
  @Lazy var first: Logger
  @Lazy var second: Logger
  var chosen: LazyProjection<Logger> { $first }
}

private final class SecondChoosingScreen: ChoosingScreen {
  override var chosen: LazyProjection<Logger> { $second }
}

private class ScopedScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class ExplainedScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class ValidatedScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private class RacedScreen {
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

@MainActor
private final class MainActorScreen {
  let title = "main"
  @Lazy var auditLog: Logger
  @Lazy var debugLog: Logger
}

private let registry = InitializerRegistry.shared

struct PropertyRuleTests {
  @Test func propertyRuleGivesOnePropertyItsOwnValue() {
    registry.register(\Screen.$auditLog) { sender in
      Logger(category: "audit", owner: sender.title)
    }
    registry.register(Logger.self, in: Screen.self) { _ in Logger(category: "debug") }
    let screen = Screen(title: "users")
    #expect(screen.auditLog.category == "audit")
    #expect(screen.auditLog.owner == "users", "the initializer received another sender")
    #expect(screen.debugLog.category == "debug")
  }

  @Test func propertyRuleWinsOverTheTypesRulesWhateverTheOrder() {
    // Type rules registered after the property rule, for the class itself and as root default.
    registry.register(\OrderScreen.$auditLog) { _ in Logger(category: "audit") }
    registry.register(Logger.self, in: RefundScreen.self) { _ in Logger(category: "refund") }
    registry.register(Logger.self, in: OrderScreen.self) { _ in Logger(category: "order") }
    #expect(OrderScreen().auditLog.category == "audit")
    #expect(OrderScreen().debugLog.category == "order")
    // A type rule for the subclass itself is nearer, yet the property rule of its superclass wins.
    #expect(RefundScreen().auditLog.category == "audit")
    #expect(RefundScreen().debugLog.category == "refund")
  }

  @Test func keyPathRootedAtASubclassAppliesToItsObjectsOnly() {
    // `auditLog` is declared in StaffScreen; the rule is for admins and their subclasses.
    registry.register(\AdminScreen.$auditLog) { _ in Logger(category: "admin audit") }
    registry.register(Logger.self, in: StaffScreen.self) { _ in Logger(category: "debug") }
    #expect(StaffScreen().auditLog.category == "debug")
    #expect(AdminScreen().auditLog.category == "admin audit")
    #expect(SuperAdminScreen().auditLog.category == "admin audit")
    #expect(AdminScreen().debugLog.category == "debug")
  }

  @Test func nearestRootClassWinsAmongPropertyRules() {
    registry.register(\InvoiceScreen.$auditLog) { _ in Logger(category: "invoice") }
    registry.register(Logger.self, in: InvoiceScreen.self) { _ in Logger(category: "any") }
    final class PaidInvoiceScreen: InvoiceScreen {}
    registry.register(\PaidInvoiceScreen.$auditLog) { _ in Logger(category: "paid") }
    #expect(InvoiceScreen().auditLog.category == "invoice")
    #expect(PaidInvoiceScreen().auditLog.category == "paid")
    #expect(PaidInvoiceScreen().debugLog.category == "any")
  }

  @Test func changesApplyToTheNextResolutionWithNoStaleCache() {
    registry.register(Logger.self, in: ReportScreen.self) { _ in Logger(category: "type") }
    // The pair is resolved, and cached, before any property rule exists.
    #expect(ReportScreen().auditLog.category == "type")
    registry.register(\ReportScreen.$auditLog) { _ in Logger(category: "first") }
    #expect(ReportScreen().auditLog.category == "first")
    registry.unregister(\ReportScreen.$auditLog)
    #expect(ReportScreen().auditLog.category == "type")
    registry.register(\ReportScreen.$auditLog) { _ in Logger(category: "second") }
    #expect(ReportScreen().auditLog.category == "second")
    let screen = ReportScreen()
    #expect(screen.auditLog.category == "second")
    registry.unregister(\ReportScreen.$auditLog)
    #expect(screen.auditLog.category == "second", "a resolved value changed")
    screen.$auditLog.reset()
    #expect(screen.auditLog.category == "type")
    #expect(ReportScreen().debugLog.category == "type")
  }

  @Test func propertyRuleKeepsItsOwnScope() {
    registry.register(\ScopedScreen.$auditLog, scope: .singleton) { _ in
      Logger(category: "audit")
    }
    registry.register(Logger.self, in: ScopedScreen.self) { _ in Logger(category: "debug") }
    let first = ScopedScreen()
    let second = ScopedScreen()
    #expect(first.auditLog === second.auditLog)
    #expect(first.debugLog !== second.debugLog)
    #expect(first.auditLog !== first.debugLog)
  }

  @Test func valueTypedPropertiesGetTheirOwnRules() {
    registry.register(\ChannelScreen.$primary) { _ in Channel(name: "primary") }
    registry.register(Channel.self) { _ in Channel(name: "backup") }
    let screen = ChannelScreen()
    #expect(screen.primary == Channel(name: "primary"))
    #expect(screen.backup == Channel(name: "backup"))
    #expect(screen.$primary.rule?.isPropertyRule == true)
    #expect(screen.$backup.rule?.isPropertyRule == false)
  }

  @Test func ruleOfAValueNamesItsProperty() throws {
    registry.register(\ArchiveScreen.$auditLog) { _ in Logger(category: "audit") }
    registry.register(Logger.self, in: ArchiveScreen.self) { _ in Logger(category: "debug") }
    let screen = ArchiveScreen()
    _ = screen.auditLog
    _ = screen.debugLog
    let rule = try #require(screen.$auditLog.rule)
    #expect(rule.isPropertyRule)
    #expect(rule.propertyName == "auditLog")
    #expect(rule.containerTypeName == "LazyInjectTests.ArchiveScreen")
    #expect(
      rule.description.hasPrefix(
        "LazyInjectTests.Logger for LazyInjectTests.ArchiveScreen.auditLog, unique scope"))
    let typeRule = try #require(screen.$debugLog.rule)
    #expect(!typeRule.isPropertyRule && typeRule.propertyName == nil)
  }

  @Test func propertyIsNamedBeforeFirstUseWhenItsClassHasOneOfItsType() {
    let local = InitializerRegistry()
    local.register(\SingleLogScreen.$onlyLog) { _ in Logger(category: "only") }
    #expect(
      local.description.contains("  for LazyInjectTests.SingleLogScreen.onlyLog: unique scope"))
  }

  @Test func propertyIsToldApartAtItsFirstReadWhenItsClassHasSeveralOfItsType() throws {
    final class TwoLogScreen {
      @Lazy var first: Logger
      @Lazy var second: Logger
    }
    let local = InitializerRegistry()
    local.register(\TwoLogScreen.$second) { _ in Logger(category: "second") }
    #expect(
      local.description.contains(
        "  for one property of LazyInjectTests.PropertyRuleTests.TwoLogScreen (first or second: told apart at its"
          + " first read): unique scope"), "\(local.description)")
    registry.register(\TwoLogScreen.$second) { _ in Logger(category: "second") }
    registry.register(Logger.self, in: TwoLogScreen.self) { _ in Logger(category: "first") }
    let screen = TwoLogScreen()
    #expect(screen.second.category == "second")
    #expect(screen.$second.rule?.propertyName == "second")
    // The rule is the same key path's in the other registry, whose rule learned it too.
    #expect(
      local.description.contains(
        "  for LazyInjectTests.PropertyRuleTests.TwoLogScreen.second: unique scope"))
  }

  @Test func keyPathThroughAnotherObjectIsReportedWithTheFix() {
    registry.register(\MisusedScreen.sessionToken) { _ in Logger(category: "token") }
    let screen = MisusedScreen()
    #expect {
      try registry.validate(screen)
    } throws: { error in
      let text = "\(error)"
      return text.contains("leads to a @Lazy property of another object")
        && text.contains("LazyInjectTests.Session") && text.contains("Fix:")
    }
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func readThroughAKeyPathToAnotherObjectStopsWithTheMessage() async {
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        startWatchdog()
        // Stops though the valid rule comes first (by site; explicit lines, since inside the exit
        // test's expansion every call has the same #line): every rule of the class is checked.
        registry.register(\MisusedScreen.$auditLog, line: 1) { _ in Logger(category: "audit") }
        registry.register(\MisusedScreen.sessionToken, line: 2) { _ in Logger(category: "token") }
        _ = MisusedScreen().auditLog
      }.map { result in
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("leads to a @Lazy property of another object"), "\(text)")
        #expect(!text.contains("watchdog"))
      }
    }
  #endif

  @Test func keyPathThroughAnOverriddenComputedPropertyNamesEachClasssOwnSlot() {
    registry.register(\ChoosingScreen.chosen) { _ in Logger(category: "chosen") }
    registry.register(Logger.self, in: ChoosingScreen.self) { _ in Logger(category: "other") }
    #expect(ChoosingScreen().first.category == "chosen")
    #expect(ChoosingScreen().second.category == "other")
    #expect(SecondChoosingScreen().first.category == "other")
    #expect(SecondChoosingScreen().second.category == "chosen")
  }

  @Test func layerRulesWinOverThePropertyRulesBelowThem() {
    final class LayeredScreen {
      @Lazy var auditLog: Logger
      @Lazy var debugLog: Logger
    }
    registry.register(\LayeredScreen.$auditLog) { _ in Logger(category: "production audit") }
    registry.register(Logger.self, in: LayeredScreen.self) { _ in Logger(category: "production") }
    // A layer's property rule replaces one property.
    registry.withOverrides {
      $0.register(\LayeredScreen.$auditLog) { _ in Logger(category: "mock audit") }
    } operation: {
      let screen = LayeredScreen()
      #expect(screen.auditLog.category == "mock audit")
      #expect(screen.debugLog.category == "production")
      #expect(screen.$auditLog.rule?.overrideDepth == 1)
    }
    // A layer's rule for the type replaces every property of the type, property rules below it
    // included: mocking a type mocks it everywhere.
    registry.withOverrides {
      $0.register(Logger.self, in: LayeredScreen.self) { _ in Logger(category: "mock") }
    } operation: {
      let screen = LayeredScreen()
      #expect(screen.auditLog.category == "mock")
      #expect(screen.debugLog.category == "mock")
    }
    #expect(LayeredScreen().auditLog.category == "production audit")
  }

  @Test func propertyRulesRegisteredWhileALayerIsInForceDieWithIt() {
    final class InForceScreen {
      @Lazy var auditLog: Logger
    }
    registry.register(Logger.self, in: InForceScreen.self) { _ in Logger(category: "production") }
    registry.withOverrides { _ in
    } operation: {
      registry.register(\InForceScreen.$auditLog) { _ in Logger(category: "test") }
      #expect(InForceScreen().auditLog.category == "test")
      registry.unregister(\InForceScreen.$auditLog)
      #expect(InForceScreen().auditLog.category == "production")
      registry.register(\InForceScreen.$auditLog) { _ in Logger(category: "test") }
    }
    #expect(InForceScreen().auditLog.category == "production")
  }

  @Test func explainShowsPropertyRulesFirstAndWhichResultEachPropertyGets() {
    registry.register(\ExplainedScreen.$auditLog) { _ in Logger(category: "audit") }
    registry.register(Logger.self, in: ExplainedScreen.self) { _ in Logger(category: "debug") }
    _ = ExplainedScreen().auditLog  // The property is then known by name.
    let text = registry.explain(Logger.self, in: ExplainedScreen.self)
    let lines = text.split(separator: "\n").map(String.init)
    let property = lines.firstIndex {
      $0.hasPrefix("  LazyInjectTests.ExplainedScreen.auditLog: registered for this property")
        && $0.hasSuffix("<- used for it")
    }
    let type = lines.firstIndex {
      $0.hasPrefix("  LazyInjectTests.ExplainedScreen: registered, unique scope")
    }
    #expect(property != nil && type != nil && property! < type!, "\(text)")
    #expect(
      text.contains(
        "Result for LazyInjectTests.ExplainedScreen.auditLog: its property rule, unique scope"))
    #expect(
      text.contains(
        "Result for every other property: the registration for LazyInjectTests.ExplainedScreen"))
  }

  @Test func descriptionListsPropertyRulesBeforeTheTypesRules() {
    let local = InitializerRegistry()
    local.register(Logger.self) { _ in Logger(category: "any") }
    local.register(\SingleLogScreen.$onlyLog, scope: .singleton) { _ in Logger(category: "only") }
    let lines = local.description.split(separator: "\n").map(String.init)
    #expect(lines.first == "InitializerRegistry, 2 registrations")
    #expect(lines.count == 4)
    #expect(
      lines[2].hasPrefix("  for LazyInjectTests.SingleLogScreen.onlyLog: singleton scope"),
      "\(lines)")
    #expect(lines[3].hasPrefix("  root default: unique scope"))
  }

  @Test func validateCountsPropertyRulesAndNamesThemForThePropertiesTheyDoNotServe() {
    registry.register(\ValidatedScreen.$auditLog) { _ in Logger(category: "audit") }
    #expect {
      try registry.validate(ValidatedScreen())
    } throws: { error in
      let text = "\(error)"
      return (error as? ResolutionError)?.kind == .unresolvableProperties
        && text.contains("LazyInject cannot resolve 1 property of LazyInjectTests.ValidatedScreen")
        && text.contains("LazyInjectTests.ValidatedScreen.debugLog: LazyInjectTests.Logger")
        && text.contains(
          "its type's property rules here serve only LazyInjectTests.ValidatedScreen.auditLog")
        && !text.contains("ValidatedScreen.auditLog: LazyInjectTests.Logger")
    }
  }

  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func missingRegistrationMessageListsPropertyRulesAndTheKeyPathForm() async {
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        startWatchdog()
        registry.register(\ValidatedScreen.$auditLog) { _ in Logger(category: "audit") }
        _ = ValidatedScreen().debugLog
      }.map { result in
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
          text.contains("LazyInjectTests.ValidatedScreen.auditLog (that property only)"), "\(text)")
        #expect(text.contains("registry.register(\\LazyInjectTests.ValidatedScreen.$debugLog)"))
      }
    }
  #endif

  @Test @MainActor func mainActorPropertyRuleReceivesItsTypedSender() {
    registry.registerOnMainActor(\MainActorScreen.$auditLog) { sender in
      Logger(category: "audit", owner: sender.title)
    }
    registry.register(Logger.self, in: MainActorScreen.self) { _ in Logger(category: "debug") }
    let screen = MainActorScreen()
    #expect(screen.auditLog.owner == "main")
    #expect(screen.debugLog.category == "debug")
    #expect(screen.$auditLog.rule?.isMainActor == true)
  }

  @Test func concurrentFirstReadsNeverApplyARuleToAnotherProperty() {
    registry.register(Logger.self, in: RacedScreen.self) { _ in Logger(category: "debug") }
    let screens = Handoff(value: (0..<400).map { _ in RacedScreen() })
    runConcurrently(threads: 8) { index in
      if index == 0 {
        // Rules change while the others read.
        for round in 0..<50 {
          registry.register(\RacedScreen.$auditLog) { _ in Logger(category: "audit \(round)") }
          registry.unregister(\RacedScreen.$auditLog)
        }
        registry.register(\RacedScreen.$auditLog) { _ in Logger(category: "audit") }
        return
      }
      for screen in screens.value.shuffled() {
        _ = screen.debugLog
        _ = screen.auditLog
      }
    }
    for screen in screens.value {
      #expect(screen.debugLog.category == "debug", "a property rule served another property")
      #expect(screen.auditLog.category.hasPrefix("audit") || screen.auditLog.category == "debug")
    }
    let late = RacedScreen()
    #expect(late.auditLog.category == "audit")
  }
}
