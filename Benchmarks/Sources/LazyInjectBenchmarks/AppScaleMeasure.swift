import AppScaleFigures
import Foundation

// The app-scale group: what an app pays at launch for hundreds of first reads of new pairs (a
// property type and a container class) in a binary with tens of thousands of protocol
// conformances. The executables (AppScale0, AppScale200, AppScale20000: Package.swift) are
// generated from each target's app-scale.json and run by AppScaleKit; this file builds them with
// `swift build --product`, so that this binary's own build (CI's) never compiles the 20,000
// conformances, runs each child mode of each in fresh processes, one after another, and reports
// every process's figures and, where a row has a control, the ratio within the process (the
// launches: within a cycle of processes run in turn).

/// An app-scale executable and the figures of each of its cycles of fresh processes.
struct AppScaleBuild {
  /// The product, `AppScale<M>`.
  let product: String
  /// M, the extra conformances.
  let conformances: Int
  /// Seconds its `swift build --product` took in this run (about 1 when it was up to date).
  let buildSeconds: Double
  /// Per cycle, each child mode's figures.
  let cycles: [[AppScaleChild: [AppScaleKey: Double]]]
  /// What `validate(classesIn:)` reported, as `"Checked 500 properties of 3000 classes."`.
  let report: String?
  /// Child processes that crashed, failed, or gave no figures.
  let failures: [String]

  /// Each cycle's `key` of `child`; `nil` where a process gave none.
  func values(_ child: AppScaleChild, _ key: AppScaleKey) -> [Double?] {
    cycles.map { $0[child]?[key] }
  }
}

/// The app-scale group of a run.
struct AppScaleRuns {
  let processes: Int
  let rounds: Int
  let sampleNanoseconds: UInt64
  let builds: [AppScaleBuild]
  /// Why the group could not run at all (a build failed), if it could not.
  let failure: String?

  /// Every failure: a build's, or a process's.
  var failures: [String] {
    (failure.map { [$0] } ?? []) + builds.flatMap { build in build.failures }
  }
}

/// The products a run measures: M = 200 in a quick run (CI's), else M = 0 and M = 20,000.
func appScaleProducts(isQuick: Bool) -> [(product: String, conformances: Int)] {
  isQuick ? [("AppScale200", 200)] : [("AppScale0", 0), ("AppScale20000", 20_000)]
}

/// Builds the app-scale products and runs each child mode of each in `processes` cycles of fresh
/// processes: `pairs` (rows 1 to 3), `validate` (row 4), then the launches (rows 5 and 6), in
/// turn, so that a launch and its control run side by side.
func measureAppScale(_ processes: Int, _ settings: RunSettings, isQuick: Bool) -> AppScaleRuns {
  var builds: [AppScaleBuild] = []
  for (product, conformances) in appScaleProducts(isQuick: isQuick) {
    let start = Date()
    let binary: String
    do {
      binary = try buildAppScale(product)
    } catch {
      return AppScaleRuns(
        processes: processes, rounds: settings.rounds,
        sampleNanoseconds: settings.sampleNanoseconds,
        builds: builds, failure: "building \(product): \(error)")
    }
    let buildSeconds = Date().timeIntervalSince(start)
    var cycles: [[AppScaleChild: [AppScaleKey: Double]]] = []
    var failures: [String] = []
    var report: String?
    for cycle in 0..<processes {
      var figures: [AppScaleChild: [AppScaleKey: Double]] = [:]
      // The launches, a few milliseconds each, in turn `launchRunCount` times: each of their figures
      // is the median of its runs, so that one slow moment of the machine moves no cell.
      var launchRuns: [AppScaleChild: [[AppScaleKey: Double]]] = [:]
      let launches: [AppScaleChild] = [.launch, .launchControl, .launchRecorded]
      let children =
        [.pairs, .validate] + Array(repeating: launches, count: launchRunCount).joined()
      for child in children {
        var arguments = ["--child", child.rawValue]
        switch child {
        case .pairs: arguments += [String(settings.rounds), String(settings.sampleNanoseconds)]
        case .validate: arguments += [String(max(settings.rounds, 3))]
        default: break
        }
        switch runAppScaleChild(binary, arguments) {
        case .success(let output):
          let parsed = parseAppScaleFigures(output)
          if child == .pairs || child == .validate {
            figures[child] = parsed.figures
          } else {
            launchRuns[child, default: []].append(parsed.figures)
          }
          report = parsed.report ?? report
          if parsed.figures.isEmpty {
            failures.append("\(product) \(child.rawValue), process \(cycle + 1): no figures")
          }
        case .failure(let reason):
          failures.append("\(product) \(child.rawValue), process \(cycle + 1): \(reason)")
        }
      }
      for (child, runs) in launchRuns {
        figures[child] = medians(of: runs)
      }
      cycles.append(figures)
    }
    builds.append(
      AppScaleBuild(
        product: product, conformances: conformances, buildSeconds: buildSeconds, cycles: cycles,
        report: report, failures: failures))
  }
  return AppScaleRuns(
    processes: processes, rounds: settings.rounds, sampleNanoseconds: settings.sampleNanoseconds,
    builds: builds, failure: nil)
}

/// How many times each launch runs in a cycle (see `measureAppScale`).
let launchRunCount = 5

/// Each key's median over `runs` (of the runs that have it).
private func medians(of runs: [[AppScaleKey: Double]]) -> [AppScaleKey: Double] {
  var values: [AppScaleKey: [Double]] = [:]
  for run in runs {
    for (key, value) in run {
      values[key, default: []].append(value)
    }
  }
  return values.mapValues(median)
}

/// Builds `product` of this package, in this binary's scratch path and configuration, and
/// returns its path.
///
/// The build passes `-Xswiftc -gnone` when the build that made this binary did (its manifest,
/// `<scratch>/<configuration>.yaml`, says so): with other flags, SwiftPM would compile every
/// module again.
private func buildAppScale(_ product: String) throws -> String {
  let binary = URL(fileURLWithPath: executablePath())
  let binDirectory = binary.deletingLastPathComponent()
  // <scratch>/<triple>/<configuration>/LazyInjectBenchmarks
  let scratch = binDirectory.deletingLastPathComponent().deletingLastPathComponent()
  #if DEBUG
    let configuration = "debug"
  #else
    let configuration = "release"
  #endif
  let manifest = scratch.appendingPathComponent("\(configuration).yaml")
  let flags =
    (try? String(contentsOf: manifest, encoding: .utf8))?.contains("\"-gnone\"") == true
    ? ["-Xswiftc", "-gnone"] : []
  let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  _ = try run(
    "swift",
    ["build", "-c", configuration] + flags + [
      "--package-path", package.path, "--scratch-path", scratch.path, "--product", product,
    ], in: package)
  return binDirectory.appendingPathComponent(product).path
}

/// Runs `binary` with `arguments`: its standard output, or why it gave none.
private func runAppScaleChild(_ binary: String, _ arguments: [String]) -> Result<
  String, AppScaleChildFailure
> {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  do {
    try process.run()
  } catch {
    return .failure(AppScaleChildFailure(description: "could not start: \(error)"))
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  if process.terminationReason == .uncaughtSignal {
    return .failure(
      AppScaleChildFailure(description: "crashed (signal \(process.terminationStatus))"))
  }
  guard process.terminationStatus == 0 else {
    return .failure(
      AppScaleChildFailure(description: "exited with status \(process.terminationStatus)"))
  }
  return .success(String(decoding: data, as: UTF8.self))
}

/// Why an app-scale child process gave no figures.
private struct AppScaleChildFailure: Error, CustomStringConvertible {
  let description: String
}

// MARK: The report

/// A row of the app-scale table: a label, and each cycle's cell.
private struct AppScaleRow {
  let label: String
  let cells: [String]
}

extension AppScaleBuild {
  /// The table's rows: every process's figure, with its control and the ratio where it has one.
  fileprivate var rows: [AppScaleRow] {
    func pair(_ child: AppScaleChild, _ subject: AppScaleKey, _ control: AppScaleKey) -> [String] {
      zip(values(child, subject), values(child, control)).map { subject, control in
        guard let subject, let control else { return "none" }
        return
          "\(format(ns: subject)) / \(format(ns: control)) (\(format(ratio: subject / control)))"
      }
    }
    func single(_ child: AppScaleChild, _ key: AppScaleKey) -> [String] {
      values(child, key).map { value in value.map { format(ns: $0) } ?? "none" }
    }
    func launches(_ key: AppScaleKey) -> [String] {
      zip(values(.launch, key), values(.launchControl, key)).map { lazy, control in
        guard let lazy, let control else { return "none" }
        return "\(format(ns: lazy)) / \(format(ns: control)) (\(format(ratio: lazy / control)))"
      }
    }
    let services = values(.pairs, .services).compactMap { $0 }.first ?? .nan
    let count = services.isFinite ? String(Int(services)) : "N"
    let recorded = zip(values(.launchRecorded, .launchWall), values(.launch, .launchWall)).map {
      recorded, plain -> String in
      guard let recorded, let plain else { return "none" }
      return
        "\(format(ns: recorded)) / \(format(ns: plain)): \(format(ns: (recorded - plain) / services)) per build"
    }
    let registration = zip(
      values(.pairs, .registrationTotal), values(.pairs, .registrationPerRule)
    ).map { total, perRule -> String in
      guard let total, let perRule else { return "none" }
      return "\(format(ns: total)) (\(format(ns: perRule)) per rule)"
    }
    return [
      AppScaleRow(
        label: "1. First read of a new pair, per pair: @Lazy / lazy var",
        cells: pair(.pairs, .firstReadLazy, .firstReadControl)),
      AppScaleRow(
        label: "1. First resolve of a new type, per type: Swinject / lazy var",
        cells: pair(.pairs, .firstResolveSwinject, .firstReadControl)),
      AppScaleRow(
        label: "1. First read of a new key, per key: swift-dependencies / lazy var",
        cells: pair(.pairs, .firstReadDependency, .firstReadControl)),
      AppScaleRow(
        label: "2. New object of a pair read before, per read: @Lazy / lazy var",
        cells: pair(.pairs, .seenPairLazy, .seenPairControl)),
      AppScaleRow(
        label: "3. First use of `shared`: one pass over the conformance records, a linked module"
          + " found and installed (after a registry of its own paid the runtime's one-time"
          + " instantiations)",
        cells: single(.pairs, .firstUse)),
      AppScaleRow(
        label: "3. Registration of the \(count) rules (install)", cells: registration),
      AppScaleRow(
        label: "3. Swinject: registration, per factory",
        cells: single(.pairs, .swinjectRegistrationPerFactory)),
      AppScaleRow(
        label: "4. `validate(classesIn:)`, first call of the process",
        cells: single(.validate, .validateFirst)),
      AppScaleRow(
        label: "4. `validate(classesIn:)`, later calls (median)",
        cells: single(.validate, .validateLater)),
      AppScaleRow(
        label: "5. Launch to the \(count)th first read, wall: @Lazy / lazy var",
        cells: launches(.launchWall)),
      AppScaleRow(
        label: "5. Launch to the \(count)th first read, CPU: @Lazy / lazy var",
        cells: launches(.launchCPU)),
      AppScaleRow(label: "6. Recorded launch, wall: recorded / not recorded", cells: recorded),
    ]
  }
}

extension AppScaleRuns {
  /// The figures as plain text, for the terminal.
  var text: [String] {
    var lines = [
      "App scale: new pairs in executables with M extra conformances, in \(processes) cycles of"
        + " fresh processes;"
        + " each cell one cycle (a launch: the median of \(launchRunCount) processes),"
        + " subject / control (ratio)"
    ]
    for build in builds {
      lines.append(
        "  \(build.product), M = \(format(count: build.conformances)) extra conformances"
          + " (swift build --product: \(String(format: "%.0f", build.buildSeconds)) s in this run)"
          + (build.report.map { "; validate: \($0)" } ?? ""))
      for row in build.rows {
        lines.append("    \(row.label)")
        lines.append("      " + row.cells.joined(separator: " | "))
      }
    }
    for failure in failures { lines.append("  \(failure)") }
    return lines
  }

  /// The section of BENCHMARKS.md.
  var markdown: String {
    var md = """
      ### App scale: hundreds of new pairs at launch

      An app's launch reads hundreds of `@Lazy` properties for the first time, each a new pair of
      property type and container class, in a binary with tens of thousands of protocol
      conformances. Each executable of this group is generated at build time (GenerateAppScale,
      from its target's app-scale.json): 500 services, each read through a `@Lazy` property of a
      holder class of its own (`use(opaque(Holder<i>()).service)`, the container returned by a
      function the optimizer cannot see into, the value passed to a function that is never
      inlined), 500 `lazy var` controls the same way, one rule per service in an
      `InitializerModule`, 500 Swinject registrations and 500 swift-dependencies keys, and M
      empty public structs conforming to one public protocol. Each cell is one cycle of fresh
      processes: rows 1 to 4 one process, whose ratios are within it; each launch, a few
      milliseconds, \(launchRunCount) processes, the three launches in turn, each figure the median
      of its runs (one slow moment of the machine, which a single launch of 1.5 ms cannot
      average out, moves no cell). `--only app-scale` runs this group alone; it builds the executables
      with `swift build --product` (M = 20,000 only in a full run; `--quick` measures
      AppScale200: 50 services, M = 200). `Benchmarks/callgrind-app-scale` counts the
      instructions of one first read of a new pair at M = 0 and M = 20,000, unrecorded and
      recorded (callgrind, the difference of 500 and 250 first reads over 250), a count the
      machine's load does not move.

      1. First reads: each system's 500 first reads, in blocks of 25 pairs, one block of each
         system in turn; per pair, the total over 500.
      2. A new object of each pair read before: all 500, the `@Lazy` loop and the control
         alternating in \(rounds) rounds of about \(sampleNanoseconds / 1_000_000) ms; the medians, per read.
      3. `InitializerRegistry.shared.install` of the module of 500 rules: the registry's first
         use in the process.
      4. `validate(classesIn:)` of the generated module on a registry with its rules: the first
         call of a fresh process, with no warm-up, then the median of the later calls.
      5. From the first line of `main` to the 500th first read, the module installed: wall time
         (monotonic clock) and the process's CPU time (`CLOCK_PROCESS_CPUTIME_ID`).
      6. The same launch with `InitializerRegistry.startRecording()` before the first read and
         `stopRecording()` after the last, against the unrecorded launch of the same cycle (the
         medians); the difference over 500 is the extra time per build.


      """
    for build in builds {
      let header = (1...processes).map { "Process \($0)" }.joined(separator: " | ")
      md += "#### \(build.product): M = \(format(count: build.conformances))"
      md += build.report.map { " (\($0.dropLast()))" } ?? ""
      md += "\n\n| Row | \(header) |\n| --- |" + String(repeating: " --- |", count: processes)
      md += "\n"
      for row in build.rows {
        md += "| \(row.label) | \(row.cells.joined(separator: " | ")) |\n"
      }
      md += "\n"
    }
    for failure in failures { md += "- \(failure)\n" }
    return md
  }
}
