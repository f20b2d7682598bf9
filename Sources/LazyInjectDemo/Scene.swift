import LazyInject

/// One runnable part of the demo.
struct Scene: Sendable {
  let name: String
  let title: String
  let run: @MainActor @Sendable () async -> Void

  /// The scenes in the article's order.
  static let all: [Scene] = [
    Scene(name: "boilerplate", title: "The boilerplate problem", run: BoilerplateScene.run),
    Scene(
      name: "custom-initializer", title: "A custom initializer", run: CustomInitializerScene.run),
    Scene(
      name: "container-specific", title: "Container-specific initializers",
      run: ContainerSpecificScene.run),
    Scene(name: "singletons", title: "Replacing singletons", run: SingletonScene.run),
    Scene(name: "modules", title: "Organising initializers", run: ModulesScene.run),
    Scene(name: "protocols", title: "Protocol-typed properties", run: ProtocolScene.run),
    Scene(name: "mocks", title: "Swapping in a mock", run: MockScene.run),
    Scene(name: "coordinators", title: "Coordinators and child flows", run: CoordinatorScene.run),
    Scene(
      name: "news", title: "A news store opened at launch, refreshed in the background",
      run: NewsScene.run),
    Scene(name: "session", title: "Log-out resets the session scope", run: SessionScene.run),
    Scene(
      name: "weak-coordinator", title: "A weak back-reference to the coordinator",
      run: WeakCoordinatorScene.run),
    Scene(
      name: "two-loggers", title: "Two properties of one type, each with its rule",
      run: TwoLoggersScene.run),
  ]

  /// Runs the scene from a clean slate: new serial numbers, no singletons left by earlier scenes.
  @MainActor
  func perform(echo: Bool = true) async {
    Narrator.shared.reset(echo: echo)
    InitializerRegistry.shared.resetAllScopes()
    await run()
  }

  static func named(_ name: String) -> Scene? {
    all.first { $0.name == name }
  }

  static var list: String {
    all.enumerated().map { "  \($0.offset + 1). \($0.element.name): \($0.element.title)" }
      .joined(separator: "\n")
  }
}
