import LazyInject
import Testing

private protocol Reporting: AnyObject {}
private final class Service: Reporting {
  let origin: String
  init(_ origin: String) { self.origin = origin }
}
private final class Formatter: DefaultInitializable { init() {} }
private final class Unregistered {}

private class BaseScreen {
  @Lazy var service: Service?
  @Lazy var formatter: Formatter?
  @Lazy var unregistered: Unregistered?
}
private final class Screen: BaseScreen {}
private final class OtherScreen {
  @Lazy var service: Service?
}

struct OptionalPropertyTests {
  @Test func optionalPropertyUsesTheWrappedTypesRulesThroughTheAncestry() throws {
    let registry = InitializerRegistry()
    registry.register(Service.self) { _ in Service("root default") }
    registry.register(Service.self, in: BaseScreen.self) { _ in Service("base screen") }
    #expect(try registry.resolve(Service?.self, for: Screen())?.origin == "base screen")
    #expect(try registry.resolve(Service?.self, for: OtherScreen())?.origin == "root default")
  }

  @Test func registrationOfTheOptionalTypeWinsOverTheWrappedTypes() throws {
    let registry = InitializerRegistry()
    registry.register(Service.self, in: Screen.self) { _ in Service("wrapped") }
    registry.register(Service?.self) { _ in Service("optional") }
    #expect(try registry.resolve(Service?.self, for: Screen())?.origin == "optional")
  }

  @Test func optionalWithoutAnyRuleIsNilAndWithInitIsBuilt() throws {
    let registry = InitializerRegistry()
    #expect(try registry.resolve(Unregistered?.self, for: Screen()) == nil)
    #expect(try registry.resolve(Formatter?.self, for: Screen()) != nil)
  }

  @Test func lazyOptionalPropertyResolvesFromTheSharedRegistry() {
    InitializerRegistry.shared.register(Service.self, in: BaseScreen.self) { _ in
      Service("shared")
    }
    let screen = Screen()
    #expect(screen.service?.origin == "shared")
    #expect(screen.formatter != nil)
    #expect(screen.unregistered == nil)
    #expect(screen.$unregistered.isResolved)
  }

  @Test func validateAcceptsAnOptionalPropertyWithoutRules() {
    #expect(throws: Never.self) { try InitializerRegistry().validate(OtherScreen()) }
  }

  @Test func weakScopeLooksThroughOptionalAndExistentials() throws {
    let registry = InitializerRegistry()
    registry.register(Service?.self, scope: .weak) { _ in Service("weak optional") }
    registry.register((any Reporting).self, scope: .weak) { _ in Service("weak existential") }
    let first = try registry.resolve(Service?.self, for: Screen())
    #expect(try registry.resolve(Service?.self, for: Screen()) === first)
    let reporting = try registry.resolve((any Reporting).self, for: Screen())
    #expect(try registry.resolve((any Reporting).self, for: Screen()) === reporting)
  }

  @Test func weakScopeKeepsNothingForANilOptional() throws {
    let registry = InitializerRegistry()
    registry.register(Service?.self, scope: .weak) { _ in nil }
    #expect(try registry.resolve(Service?.self, for: Screen()) == nil)
  }
}
