import ConsumerApp
import LazyInject
import LazyInjectTesting
import Testing

/// The production wiring: the app's modules install themselves on first use.
@MainActor
struct UsersScreenTests {
  @Test func usersScreenGetsTheUsersLoaderAndASpinnerBuiltFromItself() {
    let screen = UsersViewController()
    screen.load()
    #expect(screen.loaded == "GET https://api.example.com/users")
    #expect(screen.progressView.message == "Loading Users...")
    #expect(screen.progressView.showCount == 1)
    #expect(screen.progressView.isVisible == false)
  }

  @Test func adminScreenInheritsTheUsersRegistrations() throws {
    let screen = AdminUsersViewController()
    screen.load()
    #expect(screen.loaded == "GET https://api.example.com/users")
    #expect(screen.progressView.message == "Loading Admins...")
    let rule = try #require(screen.$resourceLoader.rule)
    #expect(rule.containerTypeName?.hasSuffix("UsersViewController") == true)
    #expect(screen.$progressView.rule?.isMainActor == true)
  }

  @Test func otherScreensGetTheRootDefault() {
    let screen = SettingsViewController()
    #expect(screen.resourceLoader.loadResources() == "GET https://api.example.com/resources")
    #expect(screen.$resourceLoader.rule?.isRootDefault == true)
  }

  @Test func everyScreenSharesTheOneRequestManager() {
    let users = UsersViewController().resourceLoader
    let settings = SettingsViewController().resourceLoader
    #expect(users !== settings)
    #expect(users.requestManager === settings.requestManager)
    #expect(users.$requestManager.rule?.scope == .singleton)
  }

  /// A stub that needs no inspecting goes in the trait; the test sees it, parallel tests do not.
  ///
  /// A loader is a main-actor type, so the trait registers it to be built on the main actor.
  @Test(.overrides { $0.registerOnMainActor(ResourceLoader.self) { _ in .stub } })
  func traitReplacesTheLoaderOfEveryScreen() {
    let screen = AdminUsersViewController()
    screen.load()
    #expect(screen.loaded == "GET https://api.example.com/stub")
    #expect(SettingsViewController().resourceLoader.path == "/stub")
  }
}

extension ResourceLoader {
  /// A loader of canned resources.
  static var stub: ResourceLoader { ResourceLoader(path: "/stub") }

  /// A loader the production set-up must not replace.
  static var mock: ResourceLoader { ResourceLoader(path: "/mock") }
}
