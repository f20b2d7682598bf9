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
// A reset of the session scope and the export of a timeline change the state they measure:
// they are timed once per round in the benchmark's own process (SessionScope.swift,
// RecordingMeasure.swift).

/// The rows of the costs' measure, in order.
enum CostRow: String, CaseIterable {
  case sessionHot = "hot, session scope"
  case recordedCold = "cold, recorded"
  case discardedModel = "discarded model"

  /// What BENCHMARKS.md calls the row.
  var label: String {
    switch self {
    case .sessionHot: "Hot, session scope: @Lazy / lazy var"
    case .recordedCold: "Cold first read, recording / not recording"
    case .discardedModel: "Model with 5 dependencies, made and discarded: @Lazy / resolved in init"
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
  return CostRow.allCases.map { row in
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
    }
  }
}

/// The child process: `--costs-child <rounds> <sample nanoseconds>` prints a line per row, as
/// the targets' child does (`TargetFigure.line`: the row's time in its `@Lazy` field).
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

  /// A line per row: every process's ratio, with the row's time and the control's.
  var text: [String] {
    var lines = [
      "Costs of scopes, recording and discarded models: each row alternating with its control,"
        + " \(rounds) rounds of \(format(ns: Double(sampleNanoseconds))) in each of"
        + " \(processes.count) processes; ratio of medians per process"
    ]
    for row in CostRow.allCases {
      let cells = figures(row).map { figure in
        figure.map {
          "\(format(targetRatio: $0.ratio)) (\(format(ns: $0.lazyNanoseconds)) /"
            + " \(format(ns: $0.controlNanoseconds)))"
        } ?? "none"
      }
      lines.append(
        "  \(row.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0))"
          + " \(cells.joined(separator: "  "))")
    }
    lines.append(
      "  recording adds, per build: "
        + recordingNanosecondsPerBuild.map { format(ns: $0) }.joined(separator: ", "))
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

extension ScopeResetCost {
  /// The figures as plain text, for the terminal.
  var text: [String] {
    [
      "Reset of the session scope, median of \(rounds) rounds",
      "  reset(.session), \(holders) objects holding the session: \(format(ns: resetNanoseconds))"
        + " (\(format(ns: resetNanoseconds / Double(holders))) per holder)",
      "  reset(.session), 1 object holding it: \(format(ns: resetOneHolderNanoseconds))",
      "  next first read of one of them (builds the new session): \(format(ns: firstReadNanoseconds))",
      "  first read of each of the others after it: \(format(ns: laterReadNanoseconds))",
      "  first read of each of \(holders) new objects, for contrast:"
        + " \(format(ns: newObjectReadNanoseconds))",
    ]
  }
}

extension TimelineExportCost {
  /// The figures as plain text, for the terminal.
  var text: [String] {
    [
      "A timeline of \(builds) recorded builds, per build, median of \(rounds) rounds",
      "  stopRecording(): \(format(ns: stopNanoseconds)); traceEventJSON:"
        + " \(format(ns: jsonNanoseconds)) (\(Int(jsonBytes.rounded())) bytes per build)",
    ]
  }
}
