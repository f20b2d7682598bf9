import Core
import LazyInject

/// The Feed package's rules, installed into `InitializerRegistry.shared` by every program that
/// links the package: the app lists none of them.
///
/// `public`, so that an optimized build keeps its conformance, which no code names.
public struct FeedInitializers: LinkedModule {
  /// Creates the module.
  public init() {}

  /// Registers what Feed can build, and requires what only the app can.
  public func register(in registry: InitializerRegistry) {
    // A root default: Profile's classes read posts through it too.
    registry.register((any FeedLoading).self, scope: .singleton) { _ in RemoteFeedLoader() }
    registry.registerOnMainActor(FeedViewModel.self, in: FeedViewController.self) { _ in
      FeedViewModel()
    }
    // The app's entry point into the feature.
    registry.registerOnMainActor(FeedViewController.self) { _ in FeedViewController() }
    // Only the app knows its analytics account: it registers the client.
    registry.require((any AnalyticsClient).self)
  }
}
