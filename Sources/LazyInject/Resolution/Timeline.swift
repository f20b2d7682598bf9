extension InitializerRegistry {
  /// What was built between ``startRecording()`` and ``stopRecording()``, and every wait for
  /// another thread's or task's build: to write as a trace (``traceEventJSON``) that Perfetto,
  /// `chrome://tracing` and Speedscope open, or to analyze with `LazyInjectChecks` (its
  /// summary, chart, and each build's parent and own time).
  ///
  /// ```swift
  /// import Foundation
  /// import LazyInject
  ///
  /// func saveLaunchTrace() throws {
  ///   let timeline = InitializerRegistry.stopRecording()
  ///   let file = FileManager.default.temporaryDirectory.appendingPathComponent("launch.json")
  ///   try timeline.traceEventJSON.write(to: file, atomically: true, encoding: .utf8)
  /// }
  /// ```
  public struct Timeline: Sendable {
    /// The builds, in the order they started.
    public let builds: [Build]
    /// The waits for a build under way on another thread or task, in the order they started.
    public let waits: [Wait]

    /// One build: an initializer (or `init()`) that ran.
    public struct Build: Sendable, Identifiable {
      /// How the build was asked for.
      public enum Entry: String, Sendable {
        /// A first read of a `@Lazy` or `@WeakLazy` property (or `load()` of a synchronous rule).
        case read
        /// ``InitializerRegistry/resolve(_:for:)``.
        case resolve
        /// `load()` of a property whose rule is async.
        case load
        /// ``InitializerRegistry/prepare()``.
        case prepare
      }

      /// Its index in ``Timeline/builds``.
      public let id: Int
      /// The rule that built it: its type and scope.
      public let rule: Rule
      /// What it was built for, as in `"UsersViewController.resourceLoader"`; the container's
      /// class alone for `resolve` and `load()`, `"prepare()"` for a build with no sender.
      public let builtFor: String
      /// How it was asked for.
      public let entry: Entry
      /// Where it ran: its thread, or for an async build, its task.
      public let track: Track
      /// Since ``InitializerRegistry/startRecording()``.
      public let startNanoseconds: UInt64
      /// Builds nested in it included (an initializer that asked for them).
      public let durationNanoseconds: UInt64
    }

    /// A wait for a shared instance or a property that another thread or task was building.
    public struct Wait: Sendable {
      /// What the waiting reader needed, as in `"Api in Screen.api"`.
      public let waitedFor: String
      /// The waiting thread, or task for an async build's wait.
      public let track: Track
      /// Since ``InitializerRegistry/startRecording()``.
      public let startNanoseconds: UInt64
      /// How long it waited.
      public let durationNanoseconds: UInt64
    }

    /// A thread, or an async build's task: numbered from 1 in the order they first appear.
    public enum Track: Hashable, Sendable, CustomStringConvertible {
      case mainThread
      case thread(Int)
      case task(Int)

      /// `"main thread"`, `"thread 2"` or `"task 1"`.
      public var description: String {
        switch self {
        case .mainThread: "main thread"
        case .thread(let number): "thread \(number)"
        case .task(let number): "task \(number)"
        }
      }
    }

    /// The timeline of `entries`, recorded since `origin`, in the order they started.
    init(_ entries: [Recorder.Entry], since origin: UInt64) {
      var numbers = [String: Int]()
      let tracked = entries.sorted { ($0.start, $1.end) < ($1.start, $0.end) }.map { entry in
        let number =
          numbers[entry.track] ?? numbers.keys.filter { $0.first == entry.track.first }.count + 1
        numbers[entry.track] = number
        let track: Track = entry.isMainThread ? .mainThread : .thread(number)
        return (entry, entry.track.first == "a" ? .task(number) : track)
      }
      builds = tracked.filter { $0.0.built != nil }.enumerated().map { id, tracked in
        let (entry, track) = tracked
        return Build(
          id: id, rule: entry.built!.rule,
          builtFor: entry.entry == .prepare ? "prepare()" : entry.step.container,
          entry: entry.entry, track: track, startNanoseconds: entry.start - origin,
          durationNanoseconds: entry.end - entry.start)
      }
      waits = tracked.filter { $0.0.built == nil }.map { entry, track in
        Wait(
          waitedFor: entry.step.summary, track: track, startNanoseconds: entry.start - origin,
          durationNanoseconds: entry.end - entry.start)
      }
    }

    /// The timeline in the Chrome trace event format: builds and waits as complete events
    /// (`"ph": "X"`, times in microseconds) on a track per thread, or per task for async builds,
    /// nested as they ran; each track named (`"ph": "M"`).
    public var traceEventJSON: String {
      let tracks = Array(Set(builds.map(\.track) + waits.map(\.track)))
      func event(_ name: String, _ track: Track, _ start: UInt64, _ duration: UInt64) -> String {
        "{\"name\":\(quoted(name)),\"ph\":\"X\",\"ts\":\(Double(start) / 1000),\"dur\":"
          + "\(Double(duration) / 1000),\"pid\":1,\"tid\":\(tracks.firstIndex(of: track)! + 1)}"
      }
      func quoted(_ text: String) -> String {
        "\"" + text.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : "\($0)" }.joined() + "\""
      }
      let events =
        builds.map {
          event(
            "\($0.rule.propertyTypeName) for \($0.builtFor)", $0.track, $0.startNanoseconds,
            $0.durationNanoseconds)
        }
        + waits.map {
          event(
            "waiting for \($0.waitedFor)", $0.track, $0.startNanoseconds, $0.durationNanoseconds)
        }
        + tracks.indices.map {
          "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\($0 + 1),\"args\":{\"name\":\(quoted("\(tracks[$0])"))}}"
        }
      return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n")
        + "\n]}\n"
    }
  }
}
