import LazyInject

/// Which resource loader each screen gets.
///
/// The most specific registration for the screen's class wins, whatever the order. Loaders are
/// the app's own types, main-actor isolated: built on the main actor.
struct LoaderInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    // The root default, for every screen without a registration of its own.
    registry.registerOnMainActor(ResourceLoader.self) { _ in ResourceLoader(path: "/resources") }
    // The users screen and its subclasses, such as `AdminUsersViewController`.
    registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
      .usersLoader()
    }
  }
}
