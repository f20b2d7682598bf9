import LazyInject

/// The news store, opened asynchronously at launch, and each story's thumbnail.
///
/// The app delegate, the news screen and the background fetch share one store, which `prepare()`
/// opens at launch: a `nonisolated` service, so that a background queue can read it. A story's
/// screen loads its own thumbnail when it appears (`$thumbnail.load()`).
struct NewsInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(NewsStore.self, scope: .singleton) { await NewsStore.open() }
    registry.register(Thumbnail.self, in: StoryViewController.self) { story in
      await Thumbnail.fetch(for: story.headline)
    }
  }
}
