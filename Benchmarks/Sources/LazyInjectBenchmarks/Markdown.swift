import Foundation

extension Results {
  /// BENCHMARKS.md: the machine, the command, a table per measure, the targets, the chart.
  func markdown(machine: [String]) -> String {
    let sampleMilliseconds = settings.sampleNanoseconds / 1_000_000
    var md = """
      # LazyInject benchmarks

      `@Lazy` against a hand-written `lazy var`, [Swinject](https://github.com/Swinject/Swinject)
      2.10.0 and [swift-dependencies](https://github.com/pointfreeco/swift-dependencies) 1.17.1.
      Regenerate this page and the chart, from the repository root, with:

      ```sh
      swift run -c release --package-path Benchmarks LazyInjectBenchmarks --write
      ```

      (`--quick` runs everything briefly, except timing the demo's check, and writes nothing; CI
      runs it to keep the benchmarks working. It never judges speed, but like every run it fails on a
      regression of what does not depend on the machine: heap allocations per first read, bytes per
      property, duplicates or a crash in the race.)

      ## Machine

      \(machine.map { "- \($0)" }.joined(separator: "\n"))

      ## Method

      ### Hot, cold and singleton: the targets

      The targets are measured as the benchmark issue specifies, so that everyone measures the
      same thing, with the loop in which the value is passed on to a function that is never
      inlined, as an app passes a dependency on:

      ```swift
      final class Service { let tag: Int; init() { tag = 1 } }
      final class PlainHolder { lazy var service = Service() }
      final class LazyHolder { @Lazy var service: Service; init() {} }
      @inline(never) func use(_ s: Service) { sum &+= s.tag }
      @inline(never) @_optimize(none) func opaque<T: AnyObject>(_ x: T) -> T { x }
      ```

      - hot: `for _ in 0..<n { use(holder.service) }`, one object whose property was read
        before; control: the same with a `lazy var`;
      - cold: `for _ in 0..<n { use(opaque(LazyHolder()).service) }`, a new container each
        time, its property read once, both released; control: `PlainHolder`, whose `lazy var`
        getter calls the same class's `init()`;
      - singleton: the same with a singleton-scoped rule; control: `lazy var single =
        Global.single`, a global `let` instance;
      - the `@Lazy` row and its control alternate, and nothing else runs between them, in
        \(settings.rounds) rounds of about \(sampleMilliseconds) ms each (iterations calibrated per loop) within
        one process; a row's figure is the median of its rounds, its ratio is that over the
        control's median;
      - \(targets.processes.count) processes, child processes of the benchmark binary run one
        after another; a goal holds only if it holds in every process, and the Targets table
        gives the worst process's ratio.

      Figures on a shared machine move between processes by up to 40% for every system, the
      `lazy var` control included: hence ratios within a process, and every process.

      `use` takes the value itself, so each read hands it over retained, as an app's call does.
      The earlier loops, kept as information rows ("reading .value"), add a stored `Int` of the
      value to a local sum (`sum &+= holder.service.value`): the optimizer then reads the field
      in place and may skip the retain and release of the value, for `@Lazy` and `lazy var`
      alike, which an app that passes its dependency on does not skip. Their containers come
      from a factory of their own that is never inlined (`newLazyVarHolder()`).

      Every container of the cold and singleton rows, `@Lazy`'s and the control's alike, is
      passed through `opaque`, so it lives on the heap, as an app's view controllers and view
      models do. `@inline(never)` alone is not enough: the optimizer reads the effects of a
      function it does not inline, learns that the argument only comes back, and puts a `lazy
      var` container that goes nowhere else on the stack (`swift_initStackObject`: no malloc, no
      free); unoptimized, `opaque` has no effects it can read. A `@Lazy` container cannot be on
      the stack, since its first read hands the object to the resolution: that control would
      measure a container no app has. The ratios with the container made in the loop, the `lazy
      var`'s on the stack, are reported below the targets as information; they are no target.

      `swift run -c release --package-path Benchmarks LazyInjectBenchmarks --only targets` runs
      this measure alone (`--processes N` sets how many processes); `Benchmarks/compare` runs it
      for two builds and compares each row's ratios, process by process.

      ### What the earlier target loops did beyond this

      Until the targets were measured this way, hot, cold and singleton were judged on the
      tables of the other measures, kept below as information, whose loops differ from the
      specification: each round timed a row with the 3 to 6 other systems of its table
      (Swinject and swift-dependencies among them, 20 to over 200 times slower, and the deep
      classes), not with its control alone; the loop made the container itself, so
      the `lazy var` container was on the stack; all ran in one process; and the targets were
      hot ≤ 1.25× (on the worse of a `let` and a `var` field), cold at any depth ≤ 2.5× and
      singleton ≤ 2.5×.

      ### Scopes, recording and discarded models: costs, no targets

      What a session-scoped property, a reset of its scope and recording cost, and what a
      discarded model saves, with no goal, in \(costs.processes.count) child processes of their
      own (`--only costs` runs them alone). The first three rows are measured as the targets
      are: each alternates with its own control only, in \(costs.rounds) rounds of about
      \(costs.sampleNanoseconds / 1_000_000) ms within one process, and a process's ratio is that
      of the medians. The others change the state they measure: each operation is timed once
      per round, its control in the same round, and a figure is the median of the rounds
      (\(costs.rounds) for the reset, \(max(1, costs.rounds / 3)) for the timeline).

      - Hot, session scope: a `@Lazy` property whose rule has a custom scope (`.custom("session")`), read N times after its first read, against the hot target's `lazy var` control.
      - Cold first read, recording / not recording: the cold target's loop while `InitializerRegistry.startRecording()` records, against the same loop unrecorded; recording restarts before each sample and stops after it, untimed.
      - Model with 5 dependencies, made and discarded: a model with five `@Lazy` dependencies (`.unique` rules building small classes) made by a factory and released unread, against the same model resolving them in `init` with `resolve(_:for:)`, as eager injection does.
      - Reset of a scope that \(format(count: sessionHolderCount)) objects hold: `InitializerRegistry.shared.reset(.session)` while \(format(count: sessionHolderCount)) objects' `@Lazy` properties hold the session (each read once since the last reset), against the same reset while one object holds it; then the next first read of one of them, which builds the new session, against a new object's first read; then the first read of each of the others, against that of as many new objects.
      - A timeline of \(format(count: timelineBuilds.measured)) recorded builds: `stopRecording()`, then the timeline's `traceEventJSON`, after \(format(count: timelineBuilds.measured)) recorded cold first reads, per build, against the same for \(format(count: timelineBuilds.control)) builds: a ratio near 1 says the cost grows as the number of builds.

      ### The other measures

      Each of the other tables runs its systems interleaved: every round times each system once,
      in turn, so that a slow moment of the machine hits all of them; a figure is the median of
      \(settings.rounds) rounds, each calibrated to last about \(sampleMilliseconds) ms, in the benchmark's own
      process. Ratios are to `lazy var` measured in the same run. The measured loops read a
      field of the value and sum it, so that the optimizer cannot drop the work.

      ![Ratios to lazy var](chart.svg)

      ## Targets

      | Target | Measured | Met |
      | --- | --- | --- |

      """
    for target in goals {
      md += "| \(target.goal) | \(target.measured) | \(target.isMet ? "yes" : "**no**") |\n"
    }
    let missed = goals.filter { !$0.isMet }
    if !missed.isEmpty {
      md += "\nWhere a target is missed, and what would fix it:\n\n"
      for target in missed {
        md += "- **\(target.goal)**: \(target.whenMissed)\n"
      }
    }
    md += "\n" + targets.markdown
    md += "\n" + costs.markdown
    md += "\n" + appScale.markdown
    for measurement in [hot, hotMutable, cold, singleton] {
      md += "\n" + table(measurement)
    }
    md += "\n" + Self.coldPathProfile
    md += "\n" + table(registrySize, baselineNote: "ratio to lazy var")
    md += """

      ### Two threads racing on a first read

      Two threads read the same property of a new object at once, \(settings.raceRounds) times; each
      system runs in a child process, so that a crash is reported rather than fatal.

      | System | Result |
      | --- | --- |

      """
    for race in races {
      md += "| \(race.system) | \(race.outcome) |\n"
    }
    md += """

      ### Memory

      Bytes a property takes in its object before resolution, and heap allocations made by one
      first read (counted by interposing malloc; Linux only).

      | System | Bytes per property | Bytes, protocol-typed | Allocations per first read |
      | --- | --- | --- | --- |

      """
    for row in memory {
      let protocolBytes = row.protocolPropertyBytes.map(String.init) ?? "n/a"
      let allocations = row.allocationsPerResolution.map { String(format: "%.2f", $0) } ?? "n/a"
      md += "| \(row.system) | \(row.propertyBytes) | \(protocolBytes) | \(allocations) |\n"
    }
    if let objectBytes {
      md +=
        "\nA new object with one such property: `lazy var` \(objectBytes.lazyVar) bytes,"
        + " `@Lazy` \(objectBytes.lazy) bytes.\n"
    }
    md += """

      ### Registration

      | Operation | Time |
      | --- | --- |
      | LazyInject: register \(registration.count) initializers, per registration | \(format(ns: registration.lazyInjectPerRegistration)) |
      | Swinject: register \(registration.count) factories, per registration | \(format(ns: registration.swinjectPerRegistration)) |
      | LazyInject: install a module of 10 registrations | \(format(ns: registration.perModule)) |
      | LazyInject: `prepare()` of 100 async singletons that each sleep 10 ms | \(format(ms: preparation)) |

      """
    md += "\n" + registryLock.markdown
    md += "\n" + validation.markdown
    return md
  }

  private func table(_ measurement: Measurement, baselineNote: String = "ratio") -> String {
    var md =
      "### \(measurement.title)\n\n| System | Time per operation | \(baselineNote) |\n| --- | --- | --- |\n"
    let baseline = measurement.order.first!
    for name in measurement.order {
      md +=
        "| \(name) | \(format(ns: measurement.nanoseconds[name]!)) | \(format(ratio: measurement.ratio(name, to: baseline))) |\n"
    }
    return md
  }

  /// A bar chart of the hot and cold rows, as ratios to `lazy var` on a logarithmic scale.
  var chart: String {
    let targetRows: [(String, Double)] = [TargetRow.hot, .cold, .singleton].compactMap { row in
      targets.worst(row).map {
        ("Target, \(row.rawValue): @Lazy (worst of \(targets.processes.count) processes)", $0)
      }
    }
    let rows: [(String, Double)] =
      targetRows
      + hot.order.dropFirst().map { ("Hot: \($0)", hot.ratio($0, to: "lazy var")) }
      + [("Hot, var field: @Lazy", hotMutable.ratio("@Lazy", to: "lazy var"))]
      + cold.order.dropFirst().map { ("Cold: \($0)", cold.ratio($0, to: "lazy var")) }
    let width = 900.0
    let left = 380.0
    let barHeight = 22.0
    let top = 40.0
    let height = top + Double(rows.count) * (barHeight + 6) + 40
    let maxLog = max(1, rows.map { log2($0.1) }.max()!.rounded(.up))
    let minLog = min(0, rows.map { log2($0.1) }.min()!.rounded(.down))
    let scale = (width - left - 80) / (maxLog - minLog)
    let one = left - minLog * scale
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="10" y="22" font-size="15" font-weight="bold">Time as a ratio to lazy var in the same process (log scale; shorter is faster)</text>

      """
    for power in Int(minLog)...Int(maxLog) {
      let x = one + Double(power) * scale
      let label = power >= 0 ? "\(1 << power)×" : "1/\(1 << -power)×"
      svg +=
        "<line x1=\"\(x)\" y1=\"\(top - 6)\" x2=\"\(x)\" y2=\"\(height - 30)\" stroke=\"\(power == 0 ? "#888" : "#ddd")\"/>"
      svg += "<text x=\"\(x)\" y=\"\(height - 14)\" text-anchor=\"middle\">\(label)</text>\n"
    }
    for (index, row) in rows.enumerated() {
      let y = top + Double(index) * (barHeight + 6)
      let end = one + log2(row.1) * scale
      let start = min(one, end)
      let length = max(2, abs(end - one))
      let color = row.0.contains("@Lazy") ? "#d2572b" : "#7a8da6"
      svg += "<text x=\"\(left - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(escape(row.0))</text>"
      svg +=
        "<rect x=\"\(start)\" y=\"\(y)\" width=\"\(length)\" height=\"\(barHeight)\" fill=\"\(color)\"/>"
      svg += "<text x=\"\(max(end, one) + 6)\" y=\"\(y + 15)\">\(format(ratio: row.1))</text>\n"
    }
    return svg + "</svg>\n"
  }

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
}

extension TargetRuns {
  /// The section of BENCHMARKS.md: every process's ratio for every row, the worst, the verdict.
  var markdown: String {
    let numbers = processes.indices.map { "Process \($0 + 1)" }
    var md = """
      ### The targets in every process

      Each cell is a process's ratio of medians, `@Lazy`'s time over its control's, with both
      times per operation; a goal holds only if it holds in every process. The first four rows
      pass the value to `use`, the fourth against a `lazy var` of a global made at run time (a
      heap object, as a registered singleton is; the target's global is an immortal object made
      by the compiler); the next three are the earlier loops, which read its `value` into a sum;
      the last two make the container in the loop, where the optimizer puts the `lazy var`
      container on the stack: information, no target.

      | Row | Goal | \(numbers.joined(separator: " | ")) | Worst | Holds in every process |
      | --- | --- | \(numbers.map { _ in "--- | " }.joined())--- | --- |

      """
    for row in TargetRow.allCases {
      let cells = processes.map { process in
        process.figures.first { $0.row == row.rawValue }.map {
          "\(format(targetRatio: $0.ratio)) (\(format(ns: $0.lazyNanoseconds)) /"
            + " \(format(ns: $0.controlNanoseconds)))"
        } ?? "none"
      }
      let goal = row.goal.map { "≤ \(format(ratio: $0))" } ?? "information"
      let verdict = row.goal == nil ? "—" : holds(row) ? "yes" : "**no**"
      md +=
        "| \(row.label) | \(goal) | \(cells.joined(separator: " | "))"
        + " | \(worst(row).map { format(targetRatio: $0) } ?? "none") | \(verdict) |\n"
    }
    for failure in failures { md += "\n- \(failure)" }
    return failures.isEmpty ? md : md + "\n"
  }
}

/// The machine and toolchain, as the report names them.
func machineDescription() -> [String] {
  var lines: [String] = []
  if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
    let model = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
  {
    lines.append("CPU: " + model.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
  }
  lines.append("Cores: \(ProcessInfo.processInfo.activeProcessorCount)")
  lines.append("Memory: \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
  lines.append("OS: \(ProcessInfo.processInfo.operatingSystemVersionString)")
  if let swift = run("swift", ["--version"])?.split(separator: "\n").first {
    lines.append("Toolchain: \(swift)")
  }
  lines.append("Build: release (`-c release`)")
  return lines
}

private func run(_ command: String, _ arguments: [String]) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [command] + arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

extension Results {
  /// Where a cold first read spends its time, before and after the first-read work of issue 12.
  ///
  /// `perf record -g` of `LazyInjectBenchmarks --profile cold`, self time by function, grouped.
  /// Measured by hand: perf is not part of a run.
  static let coldPathProfile = """
    ### Where a first read spends its time

    `perf record -g` of `swift run -c release --package-path Benchmarks LazyInjectBenchmarks
    --profile cold` (new object, first read, release, 5,000,000 times) and `--profile singleton`
    (`--profile deep` profiles the 20-classes-deep cold read), self time grouped by what it pays
    for, in nanoseconds per read (share of samples times the time per read, `--only speed`, same
    machine and session). Measured by hand, not by this run: the times in the headings are that
    session's, which the tables above measure anew. "Before" is the code at the start of the
    first-read work (commit eab89b3), "after" the code profiled when it ended; v1 took 173.7 ns
    (4.90×) for a cold read, its box and the task-local read of override layers since removed.

    | Cost | Cold, before (108 ns, 3.05×) | Cold, after (82 ns, 2.29×) | Singleton, before (70 ns, 3.77×) | Singleton, after (35 ns, 1.94×) |
    | --- | --- | --- | --- | --- |
    | malloc and free (the object, the value) | 32 | 29 | 16 | 16 |
    | retain and release | 24 | 19 | 18 | 7 |
    | Registry: mutex, cache probe, generic resolution code | 22 | none | 17 | none |
    | Slot lock, first-read functions, fast path table lookup | 5 | 12 | 8 | 5 |
    | Resolution frame (push, pop, cycle check) | 7 | 5 | none | none |
    | Swift's exclusivity check taking the slot's address | 3 | 5 | — | — |
    | The benchmark's loop and objects | 10 | 9 | 6 | 4 |

    A first read of a pair the shared registry has served before finds it in the fast path table,
    read under the slot lock the read holds anyway: a kept singleton's handle goes into the slot
    with one retain, a `.unique` registration is built in code specialized for the property's
    type. The table names objects and registrations without retaining them; any change that could
    free one (a registration change, a reset, a new tracer) empties it and waits until every slot
    lock was taken once, so no reader can still hold what it named.

    """
}

extension CostRuns {
  /// The section of BENCHMARKS.md: every process's figures for every row, what recording adds,
  /// what a discarded model saves and what a timeline's export takes.
  var markdown: String {
    let numbers = processes.indices.map { "Process \($0 + 1)" }
    let header =
      "| Row | \(numbers.joined(separator: " | ")) |\n| --- |"
      + numbers.map { _ in " --- |" }.joined() + "\n"
    func rows(_ rows: [CostRow]) -> String {
      rows.map { row in
        "| \(row.label) | \(figures(row).map { cell(row, $0) }.joined(separator: " | ")) |\n"
      }.joined()
    }
    var md = """
      ### Costs of scopes, recording and discarded models, in every process

      Each cell is a process's ratio of medians, the row's time over its control's, with both
      times per operation. These rows have no goal: the hot target's ≤ 1.00× is not the session
      row's, whose read goes through the handle a reset of its scope empties.

      """
    md += "\n" + header + rows(CostRow.allCases.filter(\.isPair))
    let added = recordingNanosecondsPerBuild.map { format(ns: $0) }
    if !added.isEmpty {
      md +=
        "\nRecording adds \(added.joined(separator: ", ")) per build, by process: the recorded"
        + " first read's time less the unrecorded one's. While recording, first reads take the"
        + " general path, which records them.\n"
    }
    let savings = discardedSavings.map { String(format: "%.1f×", $0) }
    if let least = leastDiscardedSaving {
      md +=
        "\nMade and discarded unread, the model with five `@Lazy` properties costs \(least)× less"
        + " than the same model resolving them in `init`, in the process that saved least (the"
        + " eager model's time over the lazy one's, by process: \(savings.joined(separator: ", "))).\n"
    }
    md += """

      A process's absolute times move with its memory layout, for a row and its control alike:
      with address-space randomization off (`setarch -R`), every process ran alike. The ratios
      hold across processes; read the absolute times as a range.

      """
    md += """

      #### Resetting a scope that \(format(count: sessionHolderCount)) objects hold

      Each cell is a process's median per operation, the row's then its control's. Each is one
      operation timed on its own, once per round, and moves between processes more than the
      pairs above (by the caches it finds as well as the memory layout). A reset empties the one handle that every holder's property shares, under every
      slot lock; it visits no holder. After it, each holder's first read resolves again on the
      general path, while a new object's first read takes the fast path.

      """
    md +=
      "\n" + header
      + rows([.scopeReset, .firstReadAfterReset, .laterReadsAfterReset])
    let builds = timelineBuilds.measured
    let totals = figures(.timelineJSON).map { figure in
      figure.map { format(ns: $0.lazyNanoseconds * Double(builds)) } ?? "none"
    }
    let stops = figures(.timelineStop).map { figure in
      figure.map { format(ns: $0.lazyNanoseconds * Double(builds)) } ?? "none"
    }
    md += """

      #### A timeline of \(format(count: builds)) recorded builds

      Each cell is a process's median per build, for a timeline of \(format(count: builds))
      builds then one of \(format(count: timelineBuilds.control)), and their ratio.

      """
    md += "\n" + header + rows([.timelineStop, .timelineJSON, .timelineBytes])
    md +=
      "\nFor the whole timeline of \(format(count: builds)) builds, by process:"
      + " `stopRecording()` \(stops.joined(separator: ", ")); `traceEventJSON`"
      + " \(totals.joined(separator: ", ")).\n"
    for failure in failures { md += "\n- \(failure)" }
    return failures.isEmpty ? md : md + "\n"
  }
}
