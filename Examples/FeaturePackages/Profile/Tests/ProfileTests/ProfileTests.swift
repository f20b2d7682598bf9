import Core
import LazyInject
import LazyInjectChecks
import Profile
import Testing

/// Two posts, without the Feed package.
private struct StubFeed: FeedLoading {
  func latestPosts() -> [String] { ["First", "Second"] }
}

@MainActor
struct ProfileTests {
  /// The package's own whole-app check: what Profile requires is listed, not failed on.
  @Test func everyProfileClassCanResolveItsDependencies() throws {
    let report = try InitializerRegistry.shared.validate(classesIn: "Profile")
    #expect(
      report.requiredProperties.sorted()
        == [
          "Profile.ProfileViewModel.analytics: any Core.AnalyticsClient",
          "Profile.ProfileViewModel.feed: any Core.FeedLoading",
        ], "\(report)")
  }

  /// The test provides what the program would: a stub feed and its own analytics client.
  @Test func screenSummarizesTheUsersPostsAndTracksTheOpening() {
    let spy = AnalyticsSpy()
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register((any AnalyticsClient).self) { _ in spy }
      overrides.register((any FeedLoading).self) { _ in StubFeed() }
    } operation: {
      let screen = ProfileViewController(userName: "Ada")
      screen.model.load()
      #expect(screen.model.summary == "Ada, 2 posts")
    }
    #expect(spy.events == ["profile_opened"])
  }
}
