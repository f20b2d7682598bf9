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
    Recorder.entries.withLock { $0 = (Recorder.now, []) }
    _lazyinject_set_recording(1)
  }

  /// Stops recording, and returns what was recorded since ``startRecording()``.
  ///
  /// Nothing if recording was not started. Builds still under way are left out: a build is
  /// recorded when it ends.
  public static func stopRecording() -> Timeline {
    _lazyinject_set_recording(0)
    let (start, entries) = Recorder.entries.withLock { $0.take() } ?? (0, [])
    return Timeline(entries.filter { $0.start >= start }, since: start)
  }
}

/// The raw record of a build or a wait.
internal enum Recorder {
  struct Entry {
    let built: ValueOrigin?  // What built the value; nil for a wait.
    let step: WaitGraph.Step
    let entry: InitializerRegistry.Timeline.Build.Entry
    /// `"t"` and the thread's address, or for an async build or wait, `"a"` and its task's hash.
    let track: String
    let isMainThread: Bool
    let start: UInt64
    let end: UInt64
  }

  /// When recording started, and what was recorded since; nil when not recording.
  static let entries = Protected<(UInt64, [Entry])?>(nil)

  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// The time now if recording (a bit of the flags word that turns the fast path off), else 0:
  /// what `note` takes as a start.
  @inline(__always) static var start: UInt64 { _lazyinject_overrides_used() & 2 == 0 ? 0 : now }

  /// Records a build by `built` (nil: a wait) of `step` since `start`, unless `start` is 0; a
  /// synchronous build's step is the innermost resolution's; `entry` is an async one's.
  static func note(
    _ built: ValueOrigin?, _ step: WaitGraph.Step? = nil,
    entry: InitializerRegistry.Timeline.Build.Entry? = nil, since start: UInt64
  ) {
    guard start != 0 else { return }  // Not recording: no other work.
    let frame = ResolutionFrame.current?.pointee
    guard let step = step ?? frame?.step else { return }
    let track =
      entry == nil
      ? "t\(UInt(bitPattern: _lazyinject_thread_identity()))"
      : "a\(withUnsafeCurrentTask { $0?.hashValue } ?? 0)"
    let recorded = Entry(
      built: built, step: step, entry: entry ?? (frame?.slot == nil ? .resolve : .read),
      track: track, isMainThread: isOnMainActor(), start: start, end: now)
    entries.withLock { $0?.1.append(recorded) }
  }
}
