import Foundation
import LazyInject
import LazyInjectChecks

/// The command line: which scenes to run.
enum Demo {
  /// Runs the scenes `arguments` name (all when empty), lists them for `--list`, prints the
  /// demo's dependency graph for `--graph` (`--graph dot` for Graphviz, else Mermaid), or checks
  /// its module and times the check for `--check`; returns the exit status, 1 for an unknown
  /// scene or a failed check.
  ///
  /// With `echo` false (the tests), it prints nothing.
  @MainActor
  static func run(arguments: [String], echo: Bool = true) async -> Int32 {
    let say = { (text: String) in if echo { print(text) } }
    // Read by a module's condition when the registry is first used, not by a scene.
    let arguments = arguments.filter { $0 != UITestingInitializers.launchArgument }
    if arguments == ["--list"] {
      say("Scenes:\n\(Scene.list)")
      return 0
    }
    if arguments.first == "--graph", arguments.count <= 2 {
      guard let text = graph(format: arguments.dropFirst().first ?? "mermaid") else {
        say("--graph draws in dot or mermaid")
        return 1
      }
      say(text)
      return 0
    }
    if arguments == ["--check"] {
      return check(echo: echo)
    }
    if arguments == ["--timeline"] {
      Narrator.shared.reset(echo: echo)
      InitializerRegistry.shared.resetAllScopes()  // As at launch: nothing built yet.
      return await LaunchTimeline.run()
    }
    let unknown = arguments.filter { Scene.named($0) == nil }
    guard unknown.isEmpty else {
      say("Unknown scene: \(unknown.joined(separator: ", ")).\nScenes:\n\(Scene.list)")
      return 1
    }
    let scenes = arguments.isEmpty ? Scene.all : arguments.compactMap(Scene.named)
    for (index, scene) in scenes.enumerated() {
      say(
        index > 0
          ? "\n== \(scene.title) [\(scene.name)] ==" : "== \(scene.title) [\(scene.name)] ==")
      await scene.perform(echo: echo)
    }
    return 0
  }

  /// The demo's dependency graph, as its registrations resolve it, in `format` (`dot` or
  /// `mermaid`); nil for another format.
  @MainActor
  static func graph(format: String) -> String? {
    let graph = InitializerRegistry.shared.dependencyGraph(classesIn: "LazyInjectDemo")
    switch format {
    case "dot": return graph.dot
    case "mermaid": return graph.mermaid
    default: return nil
    }
  }

  /// Checks every class of the demo's module 31 times, as a test of the app would, and prints
  /// what was checked, the first check's time and the median of the others (the benchmarks
  /// read this line); 1 if the check fails.
  @MainActor
  static func check(echo: Bool) -> Int32 {
    var milliseconds: [Double] = []
    var report: InitializerRegistry.ValidationReport?
    for _ in 0..<31 {
      let start = DispatchTime.now().uptimeNanoseconds
      do {
        report = try InitializerRegistry.shared.validate(classesIn: "LazyInjectDemo")
      } catch {
        if echo { print(error) }
        return 1
      }
      milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    let later = milliseconds.dropFirst().sorted()
    let median = later[later.count / 2]
    if echo, let report {
      print(
        "\(report) First check \(String(format: "%.3f", milliseconds[0])) ms, then a median of"
          + " \(String(format: "%.3f", median)) ms over \(later.count).")
    }
    return 0
  }
}
