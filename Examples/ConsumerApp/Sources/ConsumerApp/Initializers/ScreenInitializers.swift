import LazyInject

/// UI services built from the screen that shows them.
struct ScreenInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    // A main-actor initializer: it receives the screen typed as `UsersViewController` (an
    // `AdminUsersViewController` too) and may read its main-actor state.
    registry.registerOnMainActor(ProgressViewService.self, in: UsersViewController.self) {
      sender in
      ProgressViewService(viewController: sender)
    }
  }
}
