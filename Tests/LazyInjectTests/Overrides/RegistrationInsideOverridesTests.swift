import LazyInject
import Testing

private final class Greeter: Sendable {
  let text: String
  init(_ text: String) { self.text = text }
}
private final class Tally: Sendable {}
private final class Screen {}

/// A registry with a production greeter and a singleton.
private func registry() -> InitializerRegistry {
  let registry = InitializerRegistry()
  registry.register(Greeter.self) { _ in Greeter("production") }
  registry.register(Tally.self, scope: .singleton) { _ in Tally() }
  return registry
}

// Inside an override scope, changes made on the registry apply to the scope's innermost layer.
struct RegistrationInsideOverridesTests {
  @Test func unregisteringInsideAScopeRemovesOnlyWhatTheLayerHolds() throws {
    let registry = registry()
    try registry.withOverrides { _ in
    } operation: {
      registry.register(Greeter.self) { _ in Greeter("test") }
      let registered = try registry.resolve(Greeter.self, for: Screen())
      registry.unregister(Greeter.self)
      // The registry's own rule is not hidden: register a replacement for that.
      let unregistered = try registry.resolve(Greeter.self, for: Screen())
      #expect(registered.text == "test")
      #expect(unregistered.text == "production")
    }
    #expect(try registry.resolve(Greeter.self, for: Screen()).text == "production")
  }

  @Test func resetSingletonsInsideAScopeLeavesTheRegistrysInstances() throws {
    let registry = registry()
    let shared = try registry.resolve(Tally.self, for: Screen())
    try registry.withOverrides { _ in
    } operation: {
      registry.resetAllScopes()
      let inside = try registry.resolve(Tally.self, for: Screen())
      #expect(inside === shared)
    }
    registry.resetAllScopes()
    #expect(try registry.resolve(Tally.self, for: Screen()) !== shared)
  }

  @Test func removeAllInsideAScopeEmptiesOnlyTheLayer() throws {
    let registry = registry()
    try registry.withOverrides {
      $0.register(Greeter.self) { _ in Greeter("layer") }
    } operation: {
      registry.unregisterAll()
      let greeter = try registry.resolve(Greeter.self, for: Screen())
      #expect(greeter.text == "production")
    }
  }
}
