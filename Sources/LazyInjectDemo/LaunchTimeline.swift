import Foundation
import LazyInject
import LazyInjectChecks

/// `--timeline`: the demo's launch, recorded as an app records its own in a debug build.
enum LaunchTimeline {
  /// Records the launch (the news store prepared off the main thread while the home screen
  /// builds its feed), then prints the summary, writes the trace file and prints its path, and
  /// prints the chart; 1 if the launch failed.
  @MainActor
  static func run() async -> Int32 {
    InitializerRegistry.startRecording()
    say("The app launches: prepare() opens the news store off the main thread,")
    let preparing = Task { try await InitializerRegistry.shared.prepare() }
    await Task.yield()  // The task starts the builds; the main actor goes on meanwhile.
    say("while the home screen loads on the main thread:")
    let home = HomeViewController()
    home.viewDidLoad()
    do { try await preparing.value } catch {
      say("  prepare() failed: \(error)")
      return 1
    }
    say(
      "  The app delegate reads the prepared store: \(AppDelegate().newsStore.items.count) item(s)")
    let timeline = InitializerRegistry.stopRecording()
    say("\n" + timeline.summary)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "LazyInjectDemo-launch.json")
    do { try timeline.traceEventJSON.write(to: file, atomically: true, encoding: .utf8) } catch {
      say("Could not write the trace: \(error)")
      return 1
    }
    say("\nThe trace, for https://ui.perfetto.dev or chrome://tracing: \(file.path)")
    say("\nThe builds of at least 1 ms, as a Mermaid chart:\n" + timeline.mermaidGantt())
    return 0
  }
}
