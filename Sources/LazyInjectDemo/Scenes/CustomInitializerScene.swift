import LazyInject

/// Scene 2: an initializer that receives the container, the article's `sender`.
enum CustomInitializerScene {
  @MainActor
  static func run() {
    say("Initializers/ServiceInitializers.swift registers, for every container:")
    say("  registry.registerOnMainActor(ProgressViewService.self) { sender in")
    say("    ProgressViewService(viewController: sender)")
    say("  }")
    let controller = UsersViewController()
    say("First read of progressViewService:")
    controller.progressViewService.showProgress(in: controller.view)
    say(
      "The service was built for this controller: "
        + "\(controller.progressViewService.belongs(to: controller)).")
  }
}
