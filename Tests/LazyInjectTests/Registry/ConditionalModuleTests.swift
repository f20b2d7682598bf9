import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

private final class Network: Sendable {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}
private final class Screen {}

private struct NetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(Network.self) { _ in Network("live") }
  }
}

private struct MockNetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(Network.self) { _ in Network("mock") }
  }
}

/// An argument this process was launched with, and one it was not.
private let passedArgument = CommandLine.arguments[0]
private let absentArgument = "-lazyinject-never-passed"

struct ConditionalModuleTests {
  @Test func conditionalModuleIsInstalledAfterUnconditionalOnesAndWinsUnreported() throws {
    let registry = InitializerRegistry()
    let duplicates = Counter()
    registry.duplicateRegistrationHandler = { _ in duplicates.increment() }
    // Listed first, installed last.
    registry.install(
      MockNetworkInitializers().when(.launchArgument(passedArgument)), NetworkInitializers())
    #expect(try registry.resolve(Network.self, for: Screen()).kind == "mock")
    #expect(duplicates.value == 0)
  }

  @Test func moduleWhoseConditionIsNotMetIsNotInstalled() throws {
    let registry = InitializerRegistry()
    registry.install(
      NetworkInitializers(), MockNetworkInitializers().when(.launchArgument(absentArgument)))
    #expect(try registry.resolve(Network.self, for: Screen()).kind == "live")
  }

  @Test func conditionsReadArgumentsEnvironmentBuildAndClosures() {
    #expect(ModuleCondition.launchArgument(passedArgument).isMet)
    #expect(!ModuleCondition.launchArgument(absentArgument).isMet)
    #expect(!ModuleCondition.environment("LAZYINJECT_NEVER_SET", equals: "1").isMet)
    #expect(ModuleCondition("always", isMet: { true }).isMet)
    #if DEBUG
      #expect(ModuleCondition.debugBuild.isMet)
    #else
      #expect(!ModuleCondition.debugBuild.isMet)
    #endif
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func environmentConditionIsMetInAChildWhoseEnvironmentHasTheValue() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        setenv("LAZYINJECT_UI_TESTING", "1", 1)
        guard ModuleCondition.environment("LAZYINJECT_UI_TESTING", equals: "1").isMet,
          !ModuleCondition.environment("LAZYINJECT_UI_TESTING", equals: "0").isMet
        else { failExitTest("the environment condition misread LAZYINJECT_UI_TESTING=1") }
      }
    }
  #endif

  @Test func descriptionAndExplainNameTheModuleAndItsCondition() {
    let registry = InitializerRegistry()
    registry.duplicateRegistrationHandler = { _ in }
    registry.install(
      NetworkInitializers(), MockNetworkInitializers().when(.launchArgument(passedArgument)))
    let module = "module LazyInjectTests.MockNetworkInitializers when launch argument"
    #expect(registry.description.contains(module))
    #expect(registry.explain(Network.self, in: Screen.self).contains(module))
  }

  @Test func registrationOutsideAModuleNamesNoModule() throws {
    let registry = InitializerRegistry()
    registry.register(Network.self) { _ in Network("direct") }
    #expect(!registry.description.contains("module"))
  }
}
