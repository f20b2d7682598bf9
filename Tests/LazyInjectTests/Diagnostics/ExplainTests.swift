import Foundation
import LazyInject
import Testing

private final class ResourceLoader {}
private final class Formatter: DefaultInitializable { init() {} }
private final class Unbuildable {}
private class ViewController {}
private class UsersViewController: ViewController {}
private final class AdminViewController: UsersViewController {}

struct ExplainTests {
  private let registry: InitializerRegistry = {
    let registry = InitializerRegistry()
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in ResourceLoader() }
    return registry
  }()

  @Test func explainsAContainerSpecificRule() {
    let text = registry.explain(ResourceLoader.self, in: UsersViewController.self)
    #expect(
      text.contains(
        "How LazyInject resolves LazyInjectTests.ResourceLoader for LazyInjectTests.UsersViewController:"
      ))
    #expect(
      text.contains(
        "  LazyInjectTests.UsersViewController: registered, unique scope (LazyInjectTests/ExplainTests.swift:"
      ) && text.contains("<- used"))
    #expect(
      text.contains(
        "Result: the registration for LazyInjectTests.UsersViewController, unique scope"))
  }

  @Test func explainsAnInheritedRuleListingEveryClassVisited() throws {
    let text = registry.explain(ResourceLoader.self, in: AdminViewController.self)
    let lines = text.split(separator: "\n").map(String.init)
    let admin = try #require(
      lines.firstIndex { $0.contains("AdminViewController: no registration") })
    let users = try #require(lines.firstIndex { $0.contains("UsersViewController: registered") })
    #expect(admin < users)
    #expect(text.contains("inherited by LazyInjectTests.AdminViewController"))
  }

  @Test func explainsTheRootDefault() {
    registry.register(ResourceLoader.self, scope: .singleton) { _ in ResourceLoader() }
    let text = registry.explain(ResourceLoader.self, in: ViewController.self)
    #expect(text.contains("  LazyInjectTests.ViewController: no registration"))
    #expect(text.contains("  root default: registered, singleton scope"))
    #expect(text.contains("Result: the root default, singleton scope"))
  }

  @Test func explainsTheFallbackToInit() {
    let text = registry.explain(Formatter.self, in: ViewController.self)
    #expect(text.contains("root default: none"))
    #expect(text.contains("is DefaultInitializable, so it is built with init()"))
  }

  @Test func explainsAFailure() {
    let text = registry.explain(Unbuildable.self, in: AdminViewController.self)
    #expect(
      text.contains(
        "Result: failure: no registration, and LazyInjectTests.Unbuildable is not DefaultInitializable."
      ))
  }

  @Test func explainIncludesOverrideLayers() {
    registry.withOverrides { overrides in
      overrides.register(ResourceLoader.self) { _ in ResourceLoader() }
    } operation: {
      let text = registry.explain(ResourceLoader.self, in: UsersViewController.self)
      let layer = text.range(of: "Override layer 1:")
      let base = text.range(of: "Registry:")
      #expect(layer != nil && base != nil)
      #expect(text.contains("root default: registered in override layer 1, unique scope"))
      #expect(text.contains("Result: the root default"))
      #expect(
        !text.contains("registered, unique scope (LazyInjectTests/ExplainTests.swift:12) <- used"))
    }
  }

  @Test func descriptionListsRegistrationsGroupedAndSorted() {
    let registry = InitializerRegistry()
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in ResourceLoader() }
    registry.register(Formatter.self) { _ in Formatter() }
    registry.register(ResourceLoader.self, in: AdminViewController.self) { _ in ResourceLoader() }
    let lines = registry.description.split(separator: "\n").map(String.init)
    #expect(lines.first == "InitializerRegistry, 3 registrations")
    #expect(lines[1] == "LazyInjectTests.Formatter")
    #expect(lines[2].hasPrefix("  root default: unique scope (LazyInjectTests/ExplainTests.swift:"))
    #expect(lines[3] == "LazyInjectTests.ResourceLoader")
    #expect(lines[4].hasPrefix("  in LazyInjectTests.AdminViewController: unique scope"))
    #expect(lines[5].hasPrefix("  in LazyInjectTests.UsersViewController: unique scope"))
    #expect(registry.description == registry.description)
  }
}
