import ConsumerApp
import LazyInject
import LazyInjectTesting
import Testing

final class StubAPIClient: APIClient {
  let name: String
  init(name: String) { self.name = name }
  func fetchProfile() -> Profile { Profile(name: name) }
}

@MainActor
@Suite(.overrides { $0.register((any APIClient).self) { _ in StubAPIClient(name: "Grace") } })
struct ProfileScreenTests {
  @Test func testProfileScreenGreetsTheUserFromTheStub() {
    let screen = ProfileViewController()
    screen.load()
    #expect(screen.title == "Hello, Grace!")
  }

  @Test(.overrides { $0.register((any APIClient).self) { _ in StubAPIClient(name: "Linus") } })
  func testTestTraitWinsOverTheSuiteTrait() {
    let screen = ProfileViewController()
    screen.load()
    #expect(screen.title == "Hello, Linus!")
  }

  @Test(arguments: ["Alan", "Barbara", "Edsger", "Frances"])
  func testParallelTestsEachSeeTheirOwnStub(name: String) {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register((any APIClient).self) { _ in StubAPIClient(name: name) }
    } operation: {
      let screen = ProfileViewController()
      screen.load()
      #expect(screen.title == "Hello, \(name)!")
    }
  }

  @Test func testProfileScreenCanResolveEveryProperty() throws {
    try InitializerRegistry.shared.validate(ProfileViewController())
  }
}

@MainActor
struct ProductionWiringTests {
  @Test func testAppModulesInstallThemselvesWithoutAnyCall() {
    let screen = ProfileViewController()
    screen.load()
    #expect(screen.title == "Hello, Ada (from the server)!")
    #expect(screen.$api.rule?.scope == .singleton)
  }
}
