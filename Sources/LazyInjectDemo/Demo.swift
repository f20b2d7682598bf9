/// The command line: which scenes to run.
enum Demo {
  /// Runs the scenes `arguments` name (all when empty), or lists them for `--list`; returns the
  /// exit status, 1 for an unknown scene.
  @MainActor
  static func run(arguments: [String], echo: Bool = true) -> Int32 {
    // Read by a module's condition when the registry is first used, not by a scene.
    let arguments = arguments.filter { $0 != UITestingInitializers.launchArgument }
    if arguments == ["--list"] {
      print("Scenes:\n\(Scene.list)")
      return 0
    }
    let unknown = arguments.filter { Scene.named($0) == nil }
    guard unknown.isEmpty else {
      print("Unknown scene: \(unknown.joined(separator: ", ")).\nScenes:\n\(Scene.list)")
      return 1
    }
    let scenes = arguments.isEmpty ? Scene.all : arguments.compactMap(Scene.named)
    for (index, scene) in scenes.enumerated() {
      if echo {
        print(
          index > 0
            ? "\n== \(scene.title) [\(scene.name)] ==" : "== \(scene.title) [\(scene.name)] ==")
      }
      scene.perform(echo: echo)
    }
    return 0
  }
}
