import LazyInject

/// Which resource loader each screen gets: the most specific registration for the screen's
/// class wins, whatever the order.
struct LoaderInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    // The root default, for every screen without a registration of its own.
    registry.register(ResourceLoader.self) { _ in ResourceLoader(path: "/resources") }
    // The users screen and its subclasses, such as `AdminUsersViewController`.
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in .usersLoader() }
  }
}
