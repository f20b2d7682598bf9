import App
import Core
import Feed
import LazyInject
import LazyInjectChecks
import Testing

@MainActor  // Redundant in a target with default main-actor isolation; needed in a classic one.
struct AppTests {
  /// The whole-app check: the app's classes, and for each package linked, every class with a
  /// property of a type the package requires (here the analytics client and the feed loader).
  @Test func everyClassAndEveryPackageRequirementIsServed() {
    #expect(throws: Never.self) {
      try InitializerRegistry.shared.validate(classesIn: "App")
    }
  }

  @Test func thePackagesModulesAreInstalledWithoutBeingListed() {
    let description = InitializerRegistry.shared.description
    #expect(
      description.contains("linked modules: Feed.FeedInitializers, Profile.ProfileInitializers"),
      "\(description)")
  }

  @Test func theTabsGetThePackagesRulesAndTheAppsClient() {
    let root = RootViewController(userName: "Ada")
    #expect(root.feed.model.analytics is ConsoleAnalytics)
    #expect(root.profile.model.feed is RemoteFeedLoader)
    #expect(root.profile.model.userName == "Ada")
  }
}
