import LazyInject

/// The home screen's feed, and the image cache its initializer reads: a build nested in
/// another, which `swift run LazyInjectDemo --timeline` shows.
struct LaunchInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.registerOnMainActor(ImageCache.self, scope: .singleton) { _ in ImageCache() }
    registry.registerOnMainActor(FeedViewModel.self) { sender in
      FeedViewModel(images: try registry.resolve(ImageCache.self, for: sender))
    }
  }
}
