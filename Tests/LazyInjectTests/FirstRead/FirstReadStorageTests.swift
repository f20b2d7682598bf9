import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// A class-typed value built by its pair's first rule is stored without a box; any other value is
// boxed with its rule. These tests hold `$property.rule`, `isResolved` and reset to their promises
// whichever way the value is stored. The exit tests run where no override layer was ever made,
// so their reads take the fast path; the others run beside tests that make layers.

private final class Loader {
  let source: String
  init(_ source: String) { self.source = source }
}

private final class Manager {}

private final class Parser: DefaultInitializable { init() {} }

private struct Settings { let name: String }

private final class StoredScreen {
  @Lazy var loader: Loader
  @Lazy var manager: Manager
  @Lazy var parser: Parser
  @Lazy var settings: Settings
}

private final class StoredSubscreen {
  @Lazy var loader: Loader
}

private final class SettingsScreen {
  @Lazy var settings: Settings
}

private final class Witness: Sendable {}

struct FirstReadStorageTests {
  @Test func boxedValueDoesNotKeepItsRemovedRegistrationAlive() {
    let registry = InitializerRegistry.shared
    var witness: Witness? = Witness()
    weak let watched = witness
    registry.register(Settings.self, in: SettingsScreen.self) { [witness] _ in
      withExtendedLifetime(witness) { Settings(name: "registered") }
    }
    witness = nil
    let screen = SettingsScreen()
    #expect(screen.settings.name == "registered")
    registry.unregister(Settings.self, in: SettingsScreen.self)
    #expect(watched == nil, "the value's box kept the removed registration's initializer")
    #expect(screen.$settings.rule?.containerTypeName?.hasSuffix("SettingsScreen") == true)
  }

  @Test func ruleOfAnEarlierValueSurvivesAReplacementRegistration() {
    let registry = InitializerRegistry.shared
    registry.register(Loader.self, in: StoredScreen.self) { _ in Loader("first") }
    let early = StoredScreen()
    _ = early.loader
    let firstSource = early.$loader.rule?.source
    registry.unregister(Loader.self, in: StoredScreen.self)
    registry.register(Loader.self, in: StoredScreen.self) { _ in Loader("second") }
    let late = StoredScreen()
    #expect(late.loader.source == "second")
    #expect(early.loader.source == "first")
    #expect(early.$loader.rule?.source == firstSource)
    #expect(late.$loader.rule?.source != firstSource)
    #expect(late.$loader.rule?.isDefaultInitializer == false)
  }

  @Test func assignedValueHasNoRuleAndResetForgetsIt() {
    let screen = StoredScreen()
    #expect(!screen.$parser.isResolved)
    screen.parser = Parser()
    #expect(screen.$parser.isResolved)
    #expect(screen.$parser.rule == nil)
    screen.$parser.reset()
    #expect(!screen.$parser.isResolved)
    _ = screen.parser
    #expect(screen.$parser.rule?.isDefaultInitializer == true)
  }

  @Test func overrideValueNamesTheLayerAfterTheLayerEnds() {
    InitializerRegistry.shared.register(Loader.self, in: StoredSubscreen.self) { _ in
      Loader("production")
    }
    let before = StoredSubscreen()
    _ = before.loader
    let overridden = InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Loader.self, in: StoredSubscreen.self) { _ in Loader("mock") }
    } operation: {
      let screen = StoredSubscreen()
      _ = screen.loader
      return screen
    }
    #expect(overridden.loader.source == "mock")
    #expect(overridden.$loader.rule?.overrideDepth == 1)
    #expect(before.$loader.rule?.overrideDepth == 0)
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func fastPathKeepsRulesSingletonsAndResetsInAFreshProcess() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Loader.self) { _ in Loader("root") }
        registry.register(Manager.self, scope: .singleton) { _ in Manager() }
        registry.register(Settings.self) { _ in Settings(name: "root") }
        let first = StoredScreen()
        let second = StoredScreen()
        guard first.loader.source == "root", first.loader === first.loader,
          first.loader !== second.loader
        else { failExitTest("a unique value was not kept once per object") }
        guard first.manager === second.manager else {
          failExitTest("two objects got two singletons")
        }
        guard first.$loader.rule?.isRootDefault == true, first.$manager.rule?.scope == .singleton,
          first.$parser.rule == nil, first.parser === first.parser,
          first.$parser.rule?.isDefaultInitializer == true, first.settings.name == "root",
          first.$settings.rule?.isRootDefault == true
        else { failExitTest("a rule was lost: \(String(describing: first.$loader.rule))") }
        let manager = first.manager
        registry.resetAllScopes()
        guard StoredScreen().manager !== manager, first.manager !== manager else {
          failExitTest("resetSingletons kept the instance")
        }
        first.$loader.reset()
        guard !first.$loader.isResolved, first.loader.source == "root" else {
          failExitTest("reset did not forget the value")
        }
        let assigned = Loader("assigned")
        first.loader = assigned
        guard first.loader === assigned, first.$loader.rule == nil else {
          failExitTest("an assigned value kept a rule")
        }
      }
    }

    @Test func removedSingletonIsReleasedThoughItsRuleIsStillKnown() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Manager.self, scope: .singleton) { _ in Manager() }
        let screen = StoredScreen()
        weak let manager = screen.manager
        guard screen.$manager.rule?.scope == .singleton else {
          failExitTest("the singleton's rule is unknown")
        }
        registry.unregisterAll()
        screen.$manager.reset()
        guard manager == nil else {
          failExitTest("the first-rule record of the removed registration kept its singleton alive")
        }
      }
    }
  #endif
}
