import Dispatch
import LazyInject

// Recording (issue 33): the recorded cold first read's set-up and tear-down, and the cost of
// turning a record into a timeline and its trace JSON. The only file that calls the recorder:
// `Benchmarks/compare` replaces it with stubs for a base that has none.

/// The recorded row's set-up before each sample: recording starts (over).
func startRecordingBuilds() {
  InitializerRegistry.startRecording()
}

/// The recorded row's tear-down after each sample: recording stops and its timeline is dropped,
/// so that no record holds more than one sample's builds.
func stopRecordingBuilds() {
  consume(InitializerRegistry.stopRecording().builds.count)
}

/// `stopRecording()` and `traceEventJSON` after recorded cold first reads: nanoseconds per build,
/// medians of rounds.
struct TimelineExportCost {
  /// Builds in each round's timeline.
  let builds: Int
  let rounds: Int
  /// `stopRecording()`, which turns the record into a `Timeline`, per build.
  let stopNanoseconds: Double
  /// `traceEventJSON` of that timeline, per build.
  let jsonNanoseconds: Double
  /// The JSON's UTF-8 bytes per build.
  let jsonBytes: Double
}

/// Records 10,000 cold first reads (the cold target's loop) each round, then times
/// `stopRecording()` and the timeline's `traceEventJSON`.
func measureTimelineExport(_ settings: RunSettings) -> TimelineExportCost {
  let count = 10_000
  let rounds = max(1, settings.rounds / 3)
  func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) }
  var stops: [Double] = []
  var exports: [Double] = []
  var builds = 0
  var bytes = 0
  for _ in 0..<rounds {
    InitializerRegistry.startRecording()
    consume(coldTargetLazy(count))
    var start = now()
    let timeline = InitializerRegistry.stopRecording()
    let stop = now() - start
    builds = max(timeline.builds.count, 1)
    start = now()
    let json = timeline.traceEventJSON
    let export = now() - start
    bytes = json.utf8.count
    stops.append(stop / Double(builds))
    exports.append(export / Double(builds))
  }
  return TimelineExportCost(
    builds: builds, rounds: rounds, stopNanoseconds: median(stops),
    jsonNanoseconds: median(exports), jsonBytes: Double(bytes) / Double(builds))
}
