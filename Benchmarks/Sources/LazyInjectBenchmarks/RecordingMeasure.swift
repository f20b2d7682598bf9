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

/// The builds of the timeline whose export is measured, and of its control.
let timelineBuilds = (measured: 10_000, control: 1_000)

/// `stopRecording()` and `traceEventJSON` of a timeline of `timelineBuilds.measured` recorded cold
/// first reads (the cold target's loop), each round alternating with the same for a timeline of
/// `timelineBuilds.control` builds: nanoseconds per build and the JSON's bytes per build, the
/// medians of the rounds (figures of the costs' rows); `nil` if a timeline did not hold every
/// build.
func measureTimelineExport(_ settings: RunSettings) -> [TargetFigure]? {
  let rounds = max(1, settings.rounds / 3)
  func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) }
  var stops: [[Double]] = [[], []]
  var exports: [[Double]] = [[], []]
  var bytes: [[Double]] = [[], []]
  for _ in 0..<rounds {
    for (index, count) in [timelineBuilds.measured, timelineBuilds.control].enumerated() {
      InitializerRegistry.startRecording()
      consume(coldTargetLazy(count))
      var start = now()
      let timeline = InitializerRegistry.stopRecording()
      let stop = now() - start
      guard timeline.builds.count == count else { return nil }
      start = now()
      let json = timeline.traceEventJSON
      let export = now() - start
      stops[index].append(stop / Double(count))
      exports[index].append(export / Double(count))
      bytes[index].append(Double(json.utf8.count) / Double(count))
    }
  }
  return [
    TargetFigure(
      row: CostRow.timelineStop.rawValue, lazyNanoseconds: median(stops[0]),
      controlNanoseconds: median(stops[1]), goal: nil),
    TargetFigure(
      row: CostRow.timelineJSON.rawValue, lazyNanoseconds: median(exports[0]),
      controlNanoseconds: median(exports[1]), goal: nil),
    TargetFigure(
      row: CostRow.timelineBytes.rawValue, lazyNanoseconds: median(bytes[0]),
      controlNanoseconds: median(bytes[1]), goal: nil),
  ]
}
