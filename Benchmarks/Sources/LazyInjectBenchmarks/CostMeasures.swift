import Foundation
import LazyInject

// What two features cost, measured as the targets are (TargetMeasures.swift), with no goal:
// each row alternating with its own control only, in rounds of about 20 ms within one process,
// a row's figure the median of its rounds and its ratio that over the control's median, in
// child processes of this binary (`--processes N`), since figures move between processes.
//
// - hot, session scope (issue 32): a `@Lazy` property whose rule has a custom scope, read N times
//   after its first read; it holds the shared value through the handle a reset empties, so a
//   read does one more load and compare than the hot target's. Control: the hot target's
//   `lazy var` (`readLazyVar`). No goal: the hot target's ≤ 1.00× is not this row's.
// - cold, recorded (issue 33): the cold target's loop (a container from a factory, one first
//   read, release) while recording, against the same loop not recording. Recording starts
//   before each sample and stops after it, untimed, so a record holds one sample's builds.
// - discarded model (issue 33): a model with five `@Lazy` dependencies made and released
//   unread, against the same model resolving them in `init` with `resolve(_:for:)`.
//
// A reset of the session scope and the export of a timeline change the state they measure: each
// is timed once per round, with a control in the same round, in the same child processes
// (SessionScope.swift, RecordingMeasure.swift).

/// The rows of the costs' measure, in order: the pairs timed in alternation, then the reset's
/// and the timeline's figures, each with the control its round timed.
enum CostRow: String, CaseIterable {
  case sessionHot = "hot, session scope"
  case recordedCold = "cold, recorded"
  case discardedModel = "discarded model"
  case scopeReset = "reset of a scope 10,000 objects hold"
  case firstReadAfterReset = "next first read after the reset"
  case laterReadsAfterReset = "first reads of the others after it"
  case timelineStop = "stopRecording(), per build"
  case timelineJSON = "traceEventJSON, per build"
  case timelineBytes = "trace bytes per build"

  /// What BENCHMARKS.md calls the row.
  var label: String {
    switch self {
    case .sessionHot: "Hot, session scope: @Lazy / lazy var"
    case .recordedCold: "Cold first read, recording / not recording"
    case .discardedModel: "Model with 5 dependencies, made and discarded: @Lazy / resolved in init"
    case .scopeReset:
      "`reset(.session)` while \(format(count: sessionHolderCount)) objects hold the session /"
        + " while 1 does"
    case .firstReadAfterReset:
      "The next first read of one of them, which builds the new session / a new object's first"
        + " read, the session kept"
    case .laterReadsAfterReset:
      "The first read of each of the \(format(count: sessionHolderCount - 1)) others after it /"
        + " of each of \(format(count: sessionHolderCount)) new objects"
    case .timelineStop:
      "`stopRecording()`, per build: \(format(count: timelineBuilds.measured)) builds /"
        + " \(format(count: timelineBuilds.control))"
    case .timelineJSON:
      "`traceEventJSON`, per build: \(format(count: timelineBuilds.measured)) builds /"
        + " \(format(count: timelineBuilds.control))"
    case .timelineBytes: "Trace bytes per build"
    }
  }

  /// Whether the row's ratio is its figure (a pair timed in alternation), or its times are (a
  /// one-off operation and its control in the same round).
  var isPair: Bool {
    switch self {
    case .sessionHot, .recordedCold, .discardedModel: true
    default: false
    }
  }
}

/// A row of the costs' measure and its control, timed in alternation.
struct CostPair {
  let row: CostRow
  let control: Candidate
  let subject: Candidate
}

func costPairs() -> [CostPair] {
  let lazyVar = newLazyVarHolder()
  let session = newSessionHolder()
  consume(lazyVar.service.value &+ session.session.value)
  return CostRow.allCases.filter(\.isPair).map { row in
    switch row {
    case .sessionHot:
      CostPair(
        row: row, control: Candidate(name: "control") { readLazyVar(lazyVar, $0) },
        subject: Candidate(name: "row") { readSession(session, $0) })
    case .recordedCold:
      CostPair(
        row: row, control: Candidate(name: "control") { coldTargetLazy($0) },
        subject: Candidate(
          name: "row", setUp: startRecordingBuilds, tearDown: stopRecordingBuilds,
          run: { coldTargetLazy($0) }))
    case .discardedModel:
      CostPair(
        row: row, control: Candidate(name: "control") { discardEagerViewModels($0) },
        subject: Candidate(name: "row") { discardLazyViewModels($0) })
    default: fatalError("\(row.rawValue) is no pair")
    }
  }
}

/// The child process: `--costs-child <rounds> <sample nanoseconds>` prints a line per row, as
/// the targets' child does (`TargetFigure.line`: the row's time in its `@Lazy` field): the pairs,
/// then the reset's and the timeline's figures.
func runCostsChild(rounds: Int, sampleNanoseconds: UInt64) -> Int32 {
  var settings = RunSettings.full
  settings.rounds = rounds
  settings.sampleNanoseconds = sampleNanoseconds
  for pair in costPairs() {
    let measurement = measure(pair.row.rawValue, settings, [pair.control, pair.subject])
    let figure = TargetFigure(
      row: pair.row.rawValue, lazyNanoseconds: measurement.nanoseconds["row"]!,
      controlNanoseconds: measurement.nanoseconds["control"]!, goal: nil)
    print(figure.line)
  }
  for figure in measureScopeReset(settings) { print(figure.line) }
  guard let timeline = measureTimelineExport(settings) else {
    print("a timeline did not hold every recorded build")
    return 1
  }
  for figure in timeline { print(figure.line) }
  print("checksum \(blackHole)")
  return 0
}

/// The costs' measure in every process.
struct CostRuns {
  let rounds: Int
  let sampleNanoseconds: UInt64
  let processes: [TargetProcess]

  /// The row's figures in each process; `nil` where a process gave none.
  func figures(_ row: CostRow) -> [TargetFigure?] {
    processes.map { process in process.figures.first { $0.row == row.rawValue } }
  }

  /// The processes that gave no figures, and why.
  var failures: [String] {
    processes.enumerated().compactMap { index, process in
      process.failure.map { "the costs' measure, process \(index + 1): \($0)" }
    }
  }

  /// What recording adds to a first read, in each process: the recorded time less the other.
  var recordingNanosecondsPerBuild: [Double] {
    figures(.recordedCold).compactMap { $0.map { $0.lazyNanoseconds - $0.controlNanoseconds } }
  }

  /// The discarded model's saving in each process: the eager model's time over the lazy one's.
  var discardedSavings: [Double] {
    figures(.discardedModel).compactMap { $0.map { 1 / $0.ratio } }
  }

  /// The discarded model's saving in the process that saved least, in whole times (rounded
  /// down): the figure the documentation quotes.
  var leastDiscardedSaving: Int? { discardedSavings.min().map { Int($0) } }

  /// The fragment of RecordingALaunch.md that gives the discarded model's saving, after its
  /// description of the two models.
  var discardedFragment: String? {
    leastDiscardedSaving.map {
      "the `@Lazy` model, made and discarded unread, costs \($0)× less (the least of"
        + " \(processes.count) processes)"
    }
  }

  /// A cell of `row`'s figure: its ratio and both times for a pair, its times and their ratio for
  /// the others.
  func cell(_ row: CostRow, _ figure: TargetFigure?) -> String {
    guard let figure else { return "none" }
    switch row {
    case .scopeReset, .firstReadAfterReset, .laterReadsAfterReset:
      // One operation timed at a time: their ratio moves too much between processes to read.
      return "\(format(ns: figure.lazyNanoseconds)) / \(format(ns: figure.controlNanoseconds))"
    case .timelineBytes:
      return
        "\(Int(figure.lazyNanoseconds.rounded())) / \(Int(figure.controlNanoseconds.rounded()))"
    case _ where row.isPair:
      return "\(format(targetRatio: figure.ratio)) (\(format(ns: figure.lazyNanoseconds)) /"
        + " \(format(ns: figure.controlNanoseconds)))"
    default:
      return "\(format(ns: figure.lazyNanoseconds)) / \(format(ns: figure.controlNanoseconds))"
        + " (\(format(ratio: figure.ratio)))"
    }
  }

  /// A line per row: every process's figures.
  var text: [String] {
    var lines = [
      "Costs of scopes, recording and discarded models: each pair alternating with its control,"
        + " \(rounds) rounds of \(format(ns: Double(sampleNanoseconds))) in each of"
        + " \(processes.count) processes; ratio of medians per process; then the reset's and"
        + " the timeline's medians, each with its control"
    ]
    for row in CostRow.allCases {
      let cells = figures(row).map { cell(row, $0) }
      lines.append(
        "  \(row.rawValue.padding(toLength: 36, withPad: " ", startingAt: 0))"
          + " \(cells.joined(separator: "  "))")
    }
    lines.append(
      "  recording adds, per build: "
        + recordingNanosecondsPerBuild.map { format(ns: $0) }.joined(separator: ", "))
    if let fragment = discardedFragment {
      lines.append("  discarded model, for RecordingALaunch.md: \(fragment)")
    }
    for failure in failures { lines.append("  \(failure)") }
    return lines
  }
}

/// Runs the costs' measure in `count` child processes of this binary, one after another.
func measureCostsInProcesses(_ count: Int, _ settings: RunSettings) -> CostRuns {
  let processes = runChildProcesses(
    count,
    arguments: ["--costs-child", String(settings.rounds), String(settings.sampleNanoseconds)],
    rows: CostRow.allCases.map(\.rawValue))
  return CostRuns(
    rounds: settings.rounds, sampleNanoseconds: settings.sampleNanoseconds, processes: processes)
}
