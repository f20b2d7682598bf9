import Core
import Feed
import LazyInject
import LazyInjectChecks
import Testing

@MainActor
struct FeedTests {
  /// The package's own whole-app check: every property of its classes has a rule, except those
  /// of the types it requires, which the report lists and the app's check covers.
  @Test func everyFeedClassCanResolveItsDependencies() throws {
    let report = try InitializerRegistry.shared.validate(classesIn: "Feed")
    #expect(
      report.requiredProperties == ["Feed.FeedViewModel.analytics: any Core.AnalyticsClient"],
      "\(report)")
  }

  /// The test provides what the app would: its own analytics client.
  @Test func screenLoadsThePostsAndTracksTheOpening() {
    let spy = AnalyticsSpy()
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register((any AnalyticsClient).self) { _ in spy }
    } operation: {
      let screen = FeedViewController()
      screen.model.load()
      #expect(screen.model.posts.first == "Packages travel with their rules")
      #expect(screen.model.loader is RemoteFeedLoader)
    }
    #expect(spy.events == ["feed_opened"])
  }
}
