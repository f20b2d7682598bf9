import Dispatch
import _LazyInjectShims

// The recorder: every build between `startRecording()` and `stopRecording()`, and every wait
// for another thread's or task's build, kept raw while recording (no name computed) and turned
// into a `Timeline` at the stop. Nothing records when nobody does: a build makes one load of the
// flags word the fast path reads anyway.

extension InitializerRegistry {
  /// Starts recording every build of every registry, and every wait for another thread's build,
  /// until ``stopRecording()``: what an app's launch builds, when, on which thread, for whom.
  ///
  /// ```swift
  /// enum LaunchRecording {
  ///   /// Called first thing at launch: in the `App`'s `init()`, or
  ///   /// `application(_:didFinishLaunchingWithOptions:)`.
  ///   static func start() {
  ///     #if DEBUG
  ///       InitializerRegistry.startRecording()
  ///     #endif
  ///   }
  /// }
  /// ```
  ///
  /// While recording, first reads take the general path, which records them: a recorded first
  /// read is slower than an unrecorded one (BENCHMARKS.md says by how much). Starting again
  /// while recording starts over.
  public static func startRecording() {
    Recorder.recording.withLock { $0 = Recorder.Recording(start: Recorder.now) }
    _lazyinject_set_recording(1)
  }

  /// Stops recording, and returns what was recorded since ``startRecording()``.
  ///
  /// Nothing if recording was not started. Builds still under way are left out: a build is
  /// recorded when it ends.
  public static func stopRecording() -> Timeline {
    _lazyinject_set_recording(0)
    guard let recording = Recorder.recording.withLock({ $0.take() }) else {
      return Timeline([], since: 0)
    }
    return Timeline(recording.records, since: recording.start)
  }
}

/// The raw records of builds and waits while recording.
internal enum Recorder {
  /// Where a build or a wait ran: a thread, or the task of an async build or wait.
  ///
  /// A timeline numbers each kind from 1 (`Timeline.Track`).
  enum TrackKey: Hashable {
    /// A thread, by its identity (`_lazyinject_thread_identity`).
    case thread(UnsafeRawPointer)
    /// A task, by its hash.
    case task(Int)
  }

  /// One build or wait.
  struct Record {
    /// What built the value; nil for a wait.
    let built: ValueOrigin?
    let step: WaitGraph.Step
    let trigger: InitializerRegistry.Timeline.Build.Trigger
    let track: TrackKey
    let isMainThread: Bool
    let start: UInt64
    let end: UInt64
    /// For a build, the time from the start of its rule's hook (`afterBuild`) to its end; 0
    /// without one.
    var afterBuild: UInt64 = 0
  }

  /// When recording started, and what was recorded since; and when each track's last hook
  /// (`afterBuild`) started, until the record of the build it ended takes it.
  struct Recording {
    let start: UInt64
    var records: [Record] = []
    var afterBuild: [TrackKey: UInt64] = [:]
  }

  /// The recording under way; nil when not recording.
  static let recording = Protected<Recording?>(nil)

  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// The time now if recording (a bit of the flags word that turns the fast path off), else 0:
  /// what a note takes as a start.
  @inline(__always) static var start: UInt64 { _lazyinject_overrides_used() & 2 == 0 ? 0 : now }

  /// Records a build by `built` (nil: a wait) of `step`, or of the innermost resolution's step,
  /// since `start`; nothing if `start` is 0.
  ///
  /// An async one (with the `trigger` of `load()` or `prepare()`) ran on this task; a synchronous
  /// one on this thread, asked for by a read or by `resolve(_:for:)`, as the innermost frame says.
  static func note(
    built: ValueOrigin?, of step: WaitGraph.Step? = nil,
    trigger: InitializerRegistry.Timeline.Build.Trigger? = nil, since start: UInt64
  ) {
    guard start != 0 else { return }  // Not recording: no other work.
    let frame = ResolutionFrame.current?.pointee
    guard let step = step ?? frame?.step else { return }
    let track = track(inTask: trigger != nil)
    let recordedTrigger = trigger ?? (frame?.slot == nil ? .resolve : .read)
    var record = Record(
      built: built, step: step, trigger: recordedTrigger, track: track,
      isMainThread: isOnMainActor(), start: start, end: now)
    recording.withLock { recording in
      // A build that started before recording did (or started over) is left out.
      guard let since = recording?.start, start >= since else { return }
      // The hook that ended this build ran after it started; an older one, before recording did.
      // (Most rules have no hook: an empty table is not searched.)
      if built != nil, recording?.afterBuild.isEmpty == false,
        let hook = recording?.afterBuild.removeValue(forKey: track), hook >= start
      {
        record.afterBuild = record.end - hook
      }
      recording?.records.append(record)
    }
  }

  /// Notes that the hook (`afterBuild`) of the build under way on this thread, or with `inTask`
  /// on this task, ran since `start`: the build's record, which follows, takes it.
  static func note(afterBuildSince start: UInt64, inTask: Bool) {
    guard start != 0 else { return }  // Not recording.
    let track = track(inTask: inTask)
    recording.withLock { $0?.afterBuild[track] = start }
  }

  /// This thread, or with `inTask`, this task.
  private static func track(inTask: Bool) -> TrackKey {
    guard inTask else { return .thread(_lazyinject_thread_identity()) }
    return .task(withUnsafeCurrentTask { $0?.hashValue } ?? 0)
  }
}
