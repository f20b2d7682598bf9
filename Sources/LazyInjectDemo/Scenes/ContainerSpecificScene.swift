import LazyInject

/// Scene 3: one property type, a different initializer per container class.
enum ContainerSpecificScene {
  @MainActor
  static func run() {
    say("Initializers/LoaderInitializers.swift registers the users loader for UsersViewController,")
    say("the projects loader for ProjectsViewController, and a default for everything else.")
    let controllers: [ViewController] = [
      UsersViewController(), ProjectsViewController(), SettingsViewController(),
      AdminUsersViewController(),
    ]
    for controller in controllers {
      say("\(controller.name).resourceLoader:")
      say("  -> \(controller.resourceLoader.name), the \(controller.resourceLoader.kind) loader")
    }
    say("AdminUsersViewController subclasses UsersViewController, so it inherits the users loader")
    say("(BloodMagic matched the exact class only). How LazyInject decided:")
    for line in InitializerRegistry.shared.explain(
      ResourceLoader.self, in: AdminUsersViewController.self
    ).split(separator: "\n") {
      say("  \(line)")
    }
  }
}
