import LazyInject

/// The news store, opened asynchronously at launch, and each story's thumbnail.
///
/// The app delegate, the news screen and the background fetch share one store, which `prepare()`
/// opens at launch: a `nonisolated` service, so that a background queue can read it. A story's
/// screen loads its own thumbnail when it appears (`$thumbnail.load()`).
///
/// A linked module, as a feature package declares its rules: `AutomaticModules.swift` does not
/// list it, and `InitializerRegistry.shared` finds it in the binary all the same. Public, so that
/// a release build keeps its conformance, which no code names (`.ci/run` checks that build).
public struct NewsInitializers: LinkedModule {
  /// The module, as `InitializerRegistry.shared` makes it.
  public init() {}

  /// Registers the news store, opened once at launch, and each story's thumbnail.
  public func register(in registry: InitializerRegistry) {
    registry.register(NewsStore.self, scope: .singleton) { await NewsStore.open() }
    registry.register(Thumbnail.self, in: StoryViewController.self) { story in
      await Thumbnail.fetch(for: story.headline)
    }
  }
}
