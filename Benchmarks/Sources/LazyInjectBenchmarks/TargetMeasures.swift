import Foundation
import LazyInject

// The measure of the speed targets, as the issue specifies it so that everyone measures the
// same thing, with the loop in which the value is passed on to a function that is not inlined,
// as an app passes a dependency on (`use`, Fixtures.swift):
//
// - hot: one object whose property is resolved; `for _ in 0..<n { use(holder.service) }`;
//   control: the same with a `lazy var`;
// - cold: `for _ in 0..<n { use(opaque(LazyHolder()).service) }`, a new container each time,
//   its property read once, both released; control: the same with a `lazy var` container
//   (`PlainHolder`) whose getter calls the same class's `init()`;
// - singleton: the same with a singleton-scoped rule; control: a `lazy var` that reads a global
//   `let` instance (`lazy var single = Global.single`);
// - each `@Lazy` row alternates with its own control only, in 31 rounds of about 20 ms each
//   within one process; a row's figure is the median of its rounds, its ratio is that over the
//   control's median;
// - at least 3 processes (child processes of this binary); a goal holds only if it holds in
//   every process.
//
// Figures move between processes by up to 40% on a shared machine, for every system alike:
// hence ratios within a process, and every process.
//
// `use` takes the value itself, so the read must hand it over retained, as an app's call does.
// The earlier loops, kept as information rows, add a stored `Int` of the value to a local sum
// (`sum &+= holder.service.value`): the optimizer then reads the field and may skip the retain
// and release of the value, which an app that passes its dependency on does not skip.

// The containers of the cold and singleton rows, the `@Lazy` row's and its control's alike, are
// passed through `opaque`, which the optimizer cannot see into (TargetCold.swift,
// TargetSingleton.swift), so each lives on the heap, as an app's view controllers and view
// models do. A loop that makes a `lazy var` container itself lets the optimizer put it on the
// stack (`swift_initStackObject`: no malloc, no free), while a `@Lazy` container cannot be: its
// first read hands it to the resolution, so it escapes. The rows that make the container in the
// loop are measured too, as information.

// MARK: The pairs

/// The rows of the targets' measure, in order: the three targets, then the informative rows:
/// the singleton target's loop against a global made at run time, the earlier loops, which read
/// the value's `value` into a sum, with containers from a factory, then with the container made
/// in the loop.
enum TargetRow: String, CaseIterable {
  case hot
  case cold
  case singleton
  case singletonHeapGlobal = "singleton, lazy var of a global made at run time"
  case hotValue = "hot, reading .value"
  case coldValue = "cold, reading .value"
  case singletonValue = "singleton, reading .value"
  case coldInLoop = "cold, container made in the loop"
  case singletonInLoop = "singleton, container made in the loop"

  /// What BENCHMARKS.md calls the row.
  var label: String {
    switch self {
    case .hot: "Hot: @Lazy / lazy var"
    case .cold: "Cold: @Lazy / lazy var"
    case .singleton: "Singleton: @Lazy / lazy var of a global"
    case .singletonHeapGlobal: "Singleton: @Lazy / lazy var of a global made at run time"
    case .hotValue: "Hot, reading .value (earlier loop)"
    case .coldValue: "Cold, reading .value, containers from a factory (earlier loop)"
    case .singletonValue: "Singleton, reading .value, containers from a factory (earlier loop)"
    case .coldInLoop: "Cold, container made in the loop (lazy var's on the stack)"
    case .singletonInLoop: "Singleton, container made in the loop (lazy var's on the stack)"
    }
  }

  /// The highest ratio to the control that meets the goal; `nil` for an informative row.
  var goal: Double? {
    switch self {
    case .hot: 1.00
    case .cold: 1.40
    case .singleton: 1.15
    case .singletonHeapGlobal, .hotValue, .coldValue, .singletonValue, .coldInLoop,
      .singletonInLoop:
      nil
    }
  }
}

/// A row of the targets' measure and its control, timed in alternation.
struct TargetPair {
  let row: TargetRow
  let control: (Int) -> Int
  let lazy: (Int) -> Int
}

func targetPairs() -> [TargetPair] {
  let plain = opaque(PlainHolder())
  let used = opaque(LazyHolder())
  use(plain.service)
  use(used.service)
  let lazyVar = newLazyVarHolder()
  let lazy = newLazyHolder()
  consume(lazyVar.service.value &+ lazy.service.value)
  return TargetRow.allCases.map { row in
    switch row {
    case .hot:
      TargetPair(
        row: row, control: { hotTargetPlain(plain, $0) }, lazy: { hotTargetUse(used, $0) })
    case .cold:
      TargetPair(row: row, control: { coldTargetPlain($0) }, lazy: { coldTargetUse($0) })
    case .singleton:
      TargetPair(
        row: row, control: { singletonTargetPlain($0) }, lazy: { singletonTargetUse($0) })
    case .singletonHeapGlobal:
      TargetPair(
        row: row, control: { singletonTargetHeapGlobal($0) }, lazy: { singletonTargetUse($0) })
    case .hotValue:
      TargetPair(row: row, control: { readLazyVar(lazyVar, $0) }, lazy: { readLazy(lazy, $0) })
    case .coldValue:
      TargetPair(row: row, control: { coldTargetLazyVar($0) }, lazy: { coldTargetLazy($0) })
    case .singletonValue:
      TargetPair(
        row: row, control: { singletonTargetLazyVar($0) }, lazy: { singletonTargetLazy($0) })
    case .coldInLoop:
      TargetPair(row: row, control: { coldLazyVar($0) }, lazy: { coldLazy($0) })
    case .singletonInLoop:
      TargetPair(row: row, control: { singletonLazyVar($0) }, lazy: { singletonLazy($0) })
    }
  }
}

/// One row's figures in one process.
struct TargetFigure {
  let row: String
  let lazyNanoseconds: Double
  let controlNanoseconds: Double
  let goal: Double?

  var ratio: Double { lazyNanoseconds / controlNanoseconds }

  /// `row<TAB>ratio<TAB>@Lazy ns<TAB>control ns<TAB>goal` (`-`: informative).
  var line: String {
    let goal = goal.map { "\($0)" } ?? "-"
    return "\(row)\t\(ratio)\t\(lazyNanoseconds)\t\(controlNanoseconds)\t\(goal)"
  }

  init(row: String, lazyNanoseconds: Double, controlNanoseconds: Double, goal: Double?) {
    self.row = row
    self.lazyNanoseconds = lazyNanoseconds
    self.controlNanoseconds = controlNanoseconds
    self.goal = goal
  }

  /// Parses `line`; `nil` for any other line.
  init?(line: Substring) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 5, let lazy = Double(fields[2]), let control = Double(fields[3]) else {
      return nil
    }
    self.init(
      row: String(fields[0]), lazyNanoseconds: lazy, controlNanoseconds: control,
      goal: Double(fields[4]))
  }
}

/// Times each pair in this process: the control and the `@Lazy` row alternate, round after
/// round, and nothing else runs between them.
func measureTargetPairs(_ settings: RunSettings) -> [TargetFigure] {
  targetPairs().map { pair in
    let measurement = measure(
      pair.row.rawValue, settings,
      [Candidate(name: "control", run: pair.control), Candidate(name: "@Lazy", run: pair.lazy)])
    return TargetFigure(
      row: pair.row.rawValue, lazyNanoseconds: measurement.nanoseconds["@Lazy"]!,
      controlNanoseconds: measurement.nanoseconds["control"]!, goal: pair.row.goal)
  }
}

/// The child process: `--targets-child <rounds> <sample nanoseconds>` prints a line per row.
func runTargetsChild(rounds: Int, sampleNanoseconds: UInt64) -> Int32 {
  var settings = RunSettings.full
  settings.rounds = rounds
  settings.sampleNanoseconds = sampleNanoseconds
  for figure in measureTargetPairs(settings) {
    print(figure.line)
  }
  print("checksum \(blackHole &+ usedSum)")
  return 0
}

// MARK: Every process

/// One child process's figures, or why it gave none.
struct TargetProcess {
  let figures: [TargetFigure]
  let failure: String?

  func ratio(_ row: TargetRow) -> Double? {
    figures.first { $0.row == row.rawValue }?.ratio
  }
}

/// The targets' measure in every process.
struct TargetRuns {
  let rounds: Int
  let sampleNanoseconds: UInt64
  let processes: [TargetProcess]

  /// Each process's ratio for `row`; `nil` where a process gave none.
  func ratios(_ row: TargetRow) -> [Double?] {
    processes.map { $0.ratio(row) }
  }

  /// The worst process's ratio, if every process measured the row.
  func worst(_ row: TargetRow) -> Double? {
    let ratios = ratios(row)
    guard !ratios.isEmpty, !ratios.contains(where: { $0 == nil }) else { return nil }
    return ratios.compactMap { $0 }.max()
  }

  /// Whether the row's goal holds in every process.
  func holds(_ row: TargetRow) -> Bool {
    guard let goal = row.goal, let worst = worst(row) else { return false }
    return worst <= goal
  }

  /// The processes in which the row's goal holds.
  func processesHolding(_ row: TargetRow) -> Int {
    guard let goal = row.goal else { return 0 }
    return ratios(row).filter { ($0 ?? .infinity) <= goal }.count
  }

  /// The Targets table's figure: the worst process, and every process.
  func measured(_ row: TargetRow) -> String {
    guard let worst = worst(row) else { return "not measured in every process" }
    let all = ratios(row).compactMap { $0 }.map { format(targetRatio: $0) }.joined(separator: ", ")
    return "worst \(format(targetRatio: worst)) of \(processes.count) processes (\(all))"
  }

  /// The processes that gave no figures, and why.
  var failures: [String] {
    processes.enumerated().compactMap { index, process in
      process.failure.map { "the targets' measure, process \(index + 1): \($0)" }
    }
  }

  /// A line per row: every process's ratio, the worst, and whether the goal holds.
  var text: [String] {
    var lines = [
      "Targets: each @Lazy row alternating with its own control, \(rounds) rounds of"
        + " \(format(ns: Double(sampleNanoseconds))) in each of \(processes.count) processes;"
        + " ratio of medians per process"
    ]
    for row in TargetRow.allCases {
      let ratios = ratios(row).map { $0.map { format(targetRatio: $0) } ?? "none" }
      let verdict =
        row.goal.map {
          "goal ≤ \(format(ratio: $0)): \(holds(row) ? "met" : "MISSED"), holds in"
            + " \(processesHolding(row)) of \(processes.count) processes"
        } ?? "informative"
      lines.append(
        "  \(row.rawValue.padding(toLength: 38, withPad: " ", startingAt: 0))"
          + " \(ratios.joined(separator: " "))  worst"
          + " \(worst(row).map { format(targetRatio: $0) } ?? "none")  \(verdict)")
    }
    for failure in failures { lines.append("  \(failure)") }
    return lines
  }
}

/// Runs the targets' measure in `count` child processes of this binary, one after another: a
/// process's layout of memory and code, and a slow period of the machine, then count as what
/// they are, one process among several.
func measureTargetsInProcesses(_ count: Int, _ settings: RunSettings) -> TargetRuns {
  let processes = runChildProcesses(
    count,
    arguments: ["--targets-child", String(settings.rounds), String(settings.sampleNanoseconds)],
    rows: TargetRow.allCases.map(\.rawValue))
  return TargetRuns(
    rounds: settings.rounds, sampleNanoseconds: settings.sampleNanoseconds, processes: processes)
}

/// Runs `count` child processes of this binary with `arguments`, one after another, and reads
/// the figure lines each prints (`TargetFigure.line`); a process that crashed, failed, or gave
/// no figure for one of `rows` says so.
func runChildProcesses(_ count: Int, arguments: [String], rows: [String]) -> [TargetProcess] {
  var processes: [TargetProcess] = []
  for _ in 0..<count {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      processes.append(TargetProcess(figures: [], failure: "could not start: \(error)"))
      continue
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let figures = String(decoding: data, as: UTF8.self).split(separator: "\n")
      .compactMap(TargetFigure.init(line:))
    var failure: String?
    if process.terminationReason == .uncaughtSignal {
      failure = "crashed (signal \(process.terminationStatus))"
    } else if process.terminationStatus != 0 {
      failure = "exited with status \(process.terminationStatus)"
    } else if figures.map(\.row) != rows {
      failure = "gave figures for \(figures.map(\.row)), not for every row"
    }
    processes.append(TargetProcess(figures: figures, failure: failure))
  }
  return processes
}
