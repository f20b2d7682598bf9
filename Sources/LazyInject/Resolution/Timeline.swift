extension InitializerRegistry {
  /// What was built between ``startRecording()`` and ``stopRecording()``, and every wait for
  /// another thread's or task's build: to write as a trace (``traceEventJSON``) that Perfetto,
  /// `chrome://tracing` and Speedscope open, or to summarize (`LazyInjectChecks`).
  ///
  /// ```swift
  /// let timeline = InitializerRegistry.stopRecording()
  /// let file = URL.temporaryDirectory.appending(path: "launch.json")
  /// try timeline.traceEventJSON.write(to: file, atomically: true, encoding: .utf8)
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
      /// The build it is nested in (whose initializer asked for it), if any.
      public let parentID: Int?
      /// The rule that built it: its type and scope.
      public let rule: Rule
      /// What it was built for, as in `"UsersViewController.resourceLoader"`; the container's
      /// class alone for `resolve`, `"prepare()"` for a build with no sender.
      public let builtFor: String
      /// How it was asked for.
      public let entry: Entry
      /// The thread it ran on (for an async build, where it started), numbered from 1 in the
      /// order threads first appear.
      public let thread: Int
      /// Whether it ran on the main thread: the main actor's (on Linux, a thread draining the main
      /// queue counts).
      public let isOnMainThread: Bool
      /// The task of an async build, and of the builds nested in one, numbered from 1; nil for
      /// a synchronous build outside any async one.
      public let task: Int?
      /// Since ``InitializerRegistry/startRecording()``.
      public let startNanoseconds: UInt64
      /// Builds nested in it included.
      public let durationNanoseconds: UInt64
      /// Its own initializer's time: its duration less its nested builds and waits.
      public let selfNanoseconds: UInt64
      /// How long it waited, directly, for builds under way on other threads or tasks.
      public let waitNanoseconds: UInt64
    }

    /// A wait for a shared instance or a property that another thread or task was building.
    public struct Wait: Sendable {
      /// What the waiting reader needed, as in `"Api in Screen.api"`.
      public let waitedFor: String
      /// The build it happened in, if any: the one it delayed.
      public let buildID: Int?
      /// The waiting thread, numbered as ``Build/thread``.
      public let thread: Int
      /// Whether the waiting thread is the main thread, as ``Build/isOnMainThread``.
      public let isOnMainThread: Bool
      /// The waiting task, numbered as ``Build/task``, within an async build.
      public let task: Int?
      /// Since ``InitializerRegistry/startRecording()``.
      public let startNanoseconds: UInt64
      /// How long it waited.
      public let durationNanoseconds: UInt64
    }

    init(builds: [Build], waits: [Wait]) { (self.builds, self.waits) = (builds, waits) }

    /// Nests `entries` (parents by containment on a thread, or on a task for async builds and
    /// what they build) and numbers their threads and tasks.
    init(_ entries: [Recorder.Entry], since origin: UInt64) {
      let sorted = entries.sorted { ($0.start, $1.end) < ($1.start, $0.end) }
      var (threads, tasks) = ([UInt: Int](), [Int: Int]())
      var (stacks, parents, isOnTask) = ([String: [Int]](), [Int?](), [Bool]())
      var (builds, waits) = ([(Recorder.Entry, Int?)](), [(Recorder.Entry, Int?)]())
      for entry in sorted {
        let isAsync = entry.entry == .load || entry.entry == .prepare
        let keys = ["t\(entry.thread)", entry.task.map { "a\($0)" } ?? ""]
        var parent: Int?
        for key in keys[(isAsync ? 1 : 0)...] where parent == nil {
          while let top = stacks[key]?.last, builds[top].0.end < entry.end {
            stacks[key]?.removeLast()
          }
          parent = stacks[key]?.last
        }
        threads[entry.thread] = threads[entry.thread] ?? threads.count + 1
        guard entry.rule != nil else {
          waits.append((entry, parent))
          continue
        }
        let onTask = isAsync || parent.map { isOnTask[$0] } ?? false
        stacks[keys[onTask ? 1 : 0], default: []].append(builds.count)
        if onTask, let task = entry.task { tasks[task] = tasks[task] ?? tasks.count + 1 }
        builds.append((entry, parent))
        isOnTask.append(onTask)
        parents.append(parent)
      }
      let children = Dictionary(grouping: builds.indices.filter { parents[$0] != nil }) {
        parents[$0]!
      }
      let waited = Dictionary(grouping: waits.filter { $0.1 != nil }) { $0.1! }
      self.builds = builds.indices.map { id in
        let (entry, parent) = builds[id]
        let wait = waited[id, default: []].reduce(0) { $0 + $1.0.end - $1.0.start }
        let nested = children[id, default: []].reduce(0) {
          $0 + builds[$1].0.end - builds[$1].0.start
        }
        return Build(
          id: id, parentID: parent, rule: entry.rule!,
          builtFor: entry.entry == .prepare ? "prepare()" : entry.step.container,
          entry: entry.entry, thread: threads[entry.thread]!, isOnMainThread: entry.isMainThread,
          task: isOnTask[id] ? entry.task.flatMap { tasks[$0] } : nil,
          startNanoseconds: entry.start - origin, durationNanoseconds: entry.end - entry.start,
          selfNanoseconds: entry.end - entry.start - min(entry.end - entry.start, nested + wait),
          waitNanoseconds: wait)
      }
      self.waits = waits.map { entry, parent in
        Wait(
          waitedFor: entry.step.summary, buildID: parent, thread: threads[entry.thread]!,
          isOnMainThread: entry.isMainThread,
          task: parent.flatMap { isOnTask[$0] ? entry.task.flatMap { tasks[$0] } : nil },
          startNanoseconds: entry.start - origin, durationNanoseconds: entry.end - entry.start)
      }
    }

    /// The timeline in the Chrome trace event format: builds and waits as complete events
    /// (`"ph": "X"`, times in microseconds) on a track per thread, or per task for async builds
    /// and what they build, nested as they ran; each track named.
    public var traceEventJSON: String {
      func event(
        _ name: String, _ category: String, _ start: UInt64, _ duration: UInt64,
        _ track: Int, _ arguments: String
      ) -> String {
        "{\"name\":\(quoted(name)),\"cat\":\"\(category)\",\"ph\":\"X\",\"ts\":\(Double(start) / 1000)"
          + ",\"dur\":\(Double(duration) / 1000),\"pid\":1,\"tid\":\(track),\"args\":{\(arguments)}}"
      }
      func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
      }
      var tracks = [Int: String]()
      var events = builds.map { build in
        let track = build.task.map { 10_000 + $0 } ?? build.thread
        tracks[track] =
          build.task.map { "task \($0)" }
          ?? (build.isOnMainThread ? "main thread" : "thread \(build.thread)")
        return event(
          build.rule.propertyTypeName, "build", build.startNanoseconds, build.durationNanoseconds,
          track,
          "\"for\":\(quoted(build.builtFor)),\"rule\":\(quoted("\(build.rule)")),\"entry\":\"\(build.entry)\""
        )
      }
      events += waits.map { wait in
        let track = wait.task.map { 10_000 + $0 } ?? wait.thread
        tracks[track] =
          tracks[track] ?? (wait.isOnMainThread ? "main thread" : "thread \(wait.thread)")
        return event(
          "waiting for \(wait.waitedFor)", "wait", wait.startNanoseconds, wait.durationNanoseconds,
          track, "")
      }
      events += tracks.map { track, name in
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(track),\"args\":{\"name\":\(quoted(name))}}"
      }
      return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n")
        + "\n]}\n"
    }
  }
}
