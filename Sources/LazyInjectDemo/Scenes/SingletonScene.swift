import LazyInject

/// Scene 4: a singleton without `sharedInstance`.
enum SingletonScene {
  @MainActor
  static func run() {
    say("Initializers/NetworkInitializers.swift registers RequestManager with scope .singleton.")
    say("RequestManager itself knows nothing about being shared.")
    let users = UsersViewController()
    let projects = ProjectsViewController()
    say("\(users.name) asks for its requestManager:")
    say("  \(users.requestManager.loadResources(atPath: "/users"))")
    say("\(projects.name) asks for its requestManager:")
    say("  \(projects.requestManager.loadResources(atPath: "/projects"))")
    say("Same instance: \(users.requestManager === projects.requestManager).")
  }
}
