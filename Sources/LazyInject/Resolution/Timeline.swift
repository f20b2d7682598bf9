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
      public enum Trigger: String, Sendable {
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
      ///
      /// Named when read, as ``builtFor`` is: naming cost a recorded launch 24,000 instructions a
      /// build, nine times the rest of its record (measured), and a timeline may never read it.
      public var rule: Rule { origin.rule }
      /// What it was built for, as in `"UsersViewController.resourceLoader"`; the container's
      /// class alone for `resolve` and `load()`, `"prepare()"` for a build with no sender.
      public var builtFor: String { trigger == .prepare ? "prepare()" : step.container }
      /// How it was asked for.
      public let trigger: Trigger
      /// How it was asked for: renamed ``trigger``.
      @available(*, deprecated, renamed: "trigger")
      public var entry: Entry { trigger }
      /// How a build was asked for: renamed ``Trigger``.
      @available(*, deprecated, renamed: "Trigger")
      public typealias Entry = Trigger
      /// Where it ran: its thread, or for an async build, its task.
      public let track: Track
      /// Since ``InitializerRegistry/startRecording()``.
      public let startNanoseconds: UInt64
      /// Builds nested in it included (an initializer that asked for them), and its rule's hook.
      public let durationNanoseconds: UInt64
      /// How long the rule's hook (`afterBuild`) ran, from its start to the end of the build: part
      /// of ``durationNanoseconds``, apart from the initializer's time; 0 for a rule without one.
      ///
      /// ```swift
      /// let timeline = InitializerRegistry.stopRecording()
      /// for build in timeline.builds where build.afterBuildNanoseconds > 0 {
      ///   print("\(build.rule.propertyTypeName): hook \(build.afterBuildNanoseconds) ns")
      /// }
      /// ```
      public let afterBuildNanoseconds: UInt64
      /// What built it, named by ``rule``.
      let origin: ValueOrigin
      /// What it was built for, named by ``builtFor``.
      let step: WaitGraph.Step
    }

    /// A wait for a shared instance or a property that another thread or task was building.
    public struct Wait: Sendable {
      /// What the waiting reader needed, as in `"Api in Screen.api"`; named when read.
      public var waitedFor: String { step.summary }
      /// The waiting thread, or task for an async build's wait.
      public let track: Track
      /// Since ``InitializerRegistry/startRecording()``.
      public let startNanoseconds: UInt64
      /// How long it waited.
      public let durationNanoseconds: UInt64
      /// What it waited for, named by ``waitedFor``.
      let step: WaitGraph.Step
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

    /// The timeline of `records`, recorded since `origin`, in the order they started; a build
    /// before the builds nested in it.
    init(_ records: consuming [Recorder.Record], since origin: UInt64) {
      // Sorted in place: the recorder's array is this timeline's alone.
      records.sort { first, second in
        // By start; of two that started together, the longer (the enclosing one) first.
        if first.start != second.start {
          return first.start < second.start
        }
        return first.end > second.end
      }
      // Threads and tasks are numbered from 1 each, in the order they first appear. Threads are
      // few, and an array of them needs no dictionary of a type of its own (whose first use
      // searches every conformance record for `UnsafeRawPointer: Hashable`).
      var threads: [UnsafeRawPointer] = []
      var tasks: [Int: Int] = [:]
      var builds: [Build] = []
      builds.reserveCapacity(records.count)
      var waits: [Wait] = []
      for record in records {
        let track: Track
        switch record.track {
        case .thread(let identity):
          let index = threads.firstIndex(of: identity) ?? threads.endIndex
          if index == threads.endIndex {
            threads.append(identity)
          }
          track = record.isMainThread ? .mainThread : .thread(index + 1)
        case .task(let hash):
          let number = tasks[hash] ?? tasks.count + 1
          tasks[hash] = number
          track = .task(number)
        }
        let startNanoseconds = record.start - origin
        let durationNanoseconds = record.end - record.start
        guard let built = record.built else {
          waits.append(
            Wait(
              track: track, startNanoseconds: startNanoseconds,
              durationNanoseconds: durationNanoseconds, step: record.step))
          continue
        }
        builds.append(
          Build(
            id: builds.count, trigger: record.trigger, track: track,
            startNanoseconds: startNanoseconds, durationNanoseconds: durationNanoseconds,
            afterBuildNanoseconds: record.afterBuild, origin: built, step: record.step))
      }
      self.builds = builds
      self.waits = waits
    }

    /// The timeline in the Chrome trace event format: builds, their rules' hooks (`"afterBuild of
    /// …"`) and waits as complete events (`"ph": "X"`, times in microseconds) on a track per
    /// thread, or per task for async builds, nested as they ran; each track named (`"ph": "M"`).
    public var traceEventJSON: String {
      let tracks = Array(Set(builds.map(\.track) + waits.map(\.track)))
      func quoted(_ text: String) -> String {
        let escaped = text.map { character in
          character == "\"" || character == "\\" ? "\\\(character)" : "\(character)"
        }
        return "\"" + escaped.joined() + "\""
      }
      func event(named name: String, on track: Track, start: UInt64, duration: UInt64) -> String {
        let thread = (tracks.firstIndex(of: track) ?? 0) + 1
        return "{\"name\":\(quoted(name)),\"ph\":\"X\",\"ts\":\(Double(start) / 1000),"
          + "\"dur\":\(Double(duration) / 1000),\"pid\":1,\"tid\":\(thread)}"
      }
      var events: [String] = []
      for build in builds {
        let name = "\(build.rule.propertyTypeName) for \(build.builtFor)"
        let end = build.startNanoseconds + build.durationNanoseconds
        events.append(
          event(
            named: name, on: build.track, start: build.startNanoseconds,
            duration: build.durationNanoseconds))
        // The hook, nested at the end of its build.
        guard build.afterBuildNanoseconds > 0 else { continue }
        let hook = build.afterBuildNanoseconds
        events.append(
          event(named: "afterBuild of \(name)", on: build.track, start: end - hook, duration: hook))
      }
      for wait in waits {
        events.append(
          event(
            named: "waiting for \(wait.waitedFor)", on: wait.track, start: wait.startNanoseconds,
            duration: wait.durationNanoseconds))
      }
      for (index, track) in tracks.enumerated() {
        events.append(
          "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(index + 1),"
            + "\"args\":{\"name\":\(quoted("\(track)"))}}")
      }
      return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n")
        + "\n]}\n"
    }
  }
}
