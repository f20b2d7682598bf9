import LazyInject

/// Which loader each screen gets.
///
/// The most specific container wins, whatever the order here.
struct LoaderInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(ResourceLoader.self) { _ in ResourceLoader(kind: "default") }
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in .usersLoader() }
    registry.register(ResourceLoader.self, in: ProjectsViewController.self) { _ in
      .projectsLoader()
    }
    // Protocol-typed properties register the existential type.
    registry.register((any ResourceLoading).self) { _ in ResourceLoader(kind: "any ResourceLoading")
    }
    registry.register((any ResourceLoading).self, in: OfflineFeedScreen.self) { _ in
      CachedLoader()
    }
  }
}
