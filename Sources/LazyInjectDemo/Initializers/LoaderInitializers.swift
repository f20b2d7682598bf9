import LazyInject

/// Which loader each screen gets: loaders are main-actor types, built on the main actor.
///
/// The most specific container wins, whatever the order here.
struct LoaderInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.registerOnMainActor(ResourceLoader.self) { _ in ResourceLoader(kind: "default") }
    registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
      .usersLoader()
    }
    registry.registerOnMainActor(ResourceLoader.self, in: ProjectsViewController.self) { _ in
      .projectsLoader()
    }
    // Protocol-typed properties register the existential type.
    registry.registerOnMainActor((any ResourceLoading).self) { _ in
      ResourceLoader(kind: "any ResourceLoading")
    }
    registry.registerOnMainActor((any ResourceLoading).self, in: OfflineFeedScreen.self) { _ in
      CachedLoader()
    }
  }
}
