import Foundation

/// Everything one run measured.
struct Results {
  let settings: RunSettings
  /// The speed targets' measure: hot, cold and singleton, each `@Lazy` row alternating with its
  /// own control, in every process.
  let targets: TargetRuns
  let hot: Measurement
  let hotMutable: Measurement
  let cold: Measurement
  let registrySize: Measurement
  let singleton: Measurement
  let races: [RaceResult]
  let memory: [MemoryRow]
  let objectBytes: (lazyVar: Int, lazy: Int)?
  let registration: RegistrationCost
  /// Milliseconds of `prepare()` for 100 async singletons that each sleep 10 ms.
  let preparation: Double
  let registryLock: RegistryLockMeasurement
  let validation: ValidationMeasurement
  /// The costs of scopes, recording and discarded models, a reset of a scope that 10,000
  /// objects hold and the export of a timeline: each row with its control, in every process.
  let costs: CostRuns
  /// The app-scale group: 500 new pairs in executables with M extra conformances, each row in
  /// fresh processes.
  let appScale: AppScaleRuns
}

/// One target of the benchmark issue, and whether this run met it.
struct Target {
  let goal: String
  let measured: String
  let isMet: Bool
  /// Why it was missed and what would fix it; shown only when missed.
  let whenMissed: String
}

extension Results {
  /// The missed targets whose figures do not depend on the machine's speed.
  ///
  /// Allocations per first read, bytes per property, duplicates in the race: missing one fails
  /// the run, CI's `--quick` too, as does a process of the targets' or the costs' measure or of
  /// the app-scale group that crashed or gave no figures, or an app-scale executable that did not
  /// build. Timings are reported, never gated.
  var deterministicFailures: [String] {
    let lazyMemory = memory.first { $0.system == "@Lazy" }!
    let lazyVarMemory = memory.first { $0.system == "lazy var" }!
    var failures: [String] = []
    if let allocations = lazyMemory.allocationsPerResolution, allocations > 1.0 {
      failures.append(
        "@Lazy made \(String(format: "%.2f", allocations)) heap allocations per first read of a"
          + " class value; the target is 1 (the value's own): a value is boxed where it was not.")
    }
    let extraBytes = lazyMemory.propertyBytes - lazyVarMemory.propertyBytes
    let extraProtocolBytes =
      (lazyMemory.protocolPropertyBytes ?? 0) - (lazyVarMemory.protocolPropertyBytes ?? 0)
    if extraBytes > 0 || extraProtocolBytes > 0 {
      let protocolBytes = lazyMemory.protocolPropertyBytes ?? 0
      failures.append(
        "@Lazy takes \(lazyMemory.propertyBytes) bytes per property (\(protocolBytes)"
          + " protocol-typed) where a lazy var takes \(lazyVarMemory.propertyBytes)"
          + " (\(lazyVarMemory.protocolPropertyBytes ?? 0)).")
    }
    if let race = races.first(where: { $0.system == "@Lazy" }),
      race.duplicates != 0 || race.crashed
    {
      failures.append("@Lazy's race: \(race.outcome); the target is 0 duplicates, no crash.")
    }
    failures.append(contentsOf: targets.failures)
    failures.append(contentsOf: costs.failures)
    failures.append(contentsOf: appScale.failures.map { "the app-scale group: \($0)" })
    return failures
  }

  /// The targets of the benchmark issue, in the order of BENCHMARKS.md's table.
  var goals: [Target] {
    let sizes = registrySize.order.filter { $0.hasSuffix("registrations") }
    let sizeRatio = registrySize.ratio(sizes.last!, to: sizes.first!)
    let lazyRace = races.first { $0.system == "@Lazy" }
    let lazyMemory = memory.first { $0.system == "@Lazy" }!
    let lazyVarMemory = memory.first { $0.system == "lazy var" }!
    let extraBytes = lazyMemory.propertyBytes - lazyVarMemory.propertyBytes
    let behind = rowsBehind()
    return [
      Target(
        goal: "Hot read ≤ \(format(ratio: TargetRow.hot.goal!)) lazy var, in every process",
        measured: targets.measured(.hot),
        isMet: targets.holds(.hot),
        whenMissed:
          "The hot read of `@Lazy` is inlined into its caller: the object's slot lock (a stripe"
          + " chosen by the object's address, an atomic exchange), a load of the slot word and"
          + " its decoding, and the retain of the value it hands on. A `lazy var` getter takes no"
          + " lock. Without it, the read races with a first read that publishes on another"
          + " thread, which the property allows: with a plain load, the reader reads the value's"
          + " fields unordered after the thread that built it wrote them (a data race); an atomic"
          + " load needs the slot's address, which Swift gives only through a modifying access,"
          + " which the thread sanitizer counts as a write, so that two readers race (a Swift"
          + " access race). `scripts/lock-free-read-lab` runs the soak test with each under the"
          + " thread sanitizer, which the target requires to stay clean: it reports both."
          + " Telling a value from a handle also reads the object the word names, which a first"
          + " read replacing an emptied handle may release meanwhile. Reading a field of the"
          + " value, which the optimizer may do without a retain, @Lazy is faster (the earlier"
          + " loop)."),
      Target(
        goal: "Cold ≤ \(format(ratio: TargetRow.cold.goal!)) lazy var, in every process",
        measured: targets.measured(.cold),
        isMet: targets.holds(.cold),
        whenMissed:
          "Both containers are made on the heap by the same kind of factory, so the gap is the"
          + " first read's own work. It does more than a `lazy var`: the slot lock twice (read and"
          + " claim, publish), a resolution frame for cycles and depth, and Swift's dynamic"
          + " exclusivity check where the slot's address is taken (see the profile below); the"
          + " first read of a pair not yet in the fast path table also takes the registry's"
          + " mutex. The control's time moves between processes more than @Lazy's does."),
      Target(
        goal:
          "Singleton ≤ \(format(ratio: TargetRow.singleton.goal!)) lazy var of a global, in every"
          + " process",
        measured: targets.measured(.singleton), isMet: targets.holds(.singleton),
        whenMissed:
          "A singleton's first read finds the kept object in the fast path table under the slot"
          + " lock it holds anyway, and stores the handle that a reset of the scope empties, not"
          + " the object: the read retains both, and the container's release releases both, each"
          + " an atomic write. The control's global is made by the compiler"
          + " (`swift_initStaticObject`), immortal: its retains and releases write nothing."
          + " Against a global made at run time, a heap object as a registered singleton is, see"
          + " the row after the singleton's in the table of every process."),
      Target(
        goal: "1 heap allocation per first read of a class value",
        measured: lazyMemory.allocationsPerResolution.map { String(format: "%.2f", $0) }
          ?? "not counted",
        isMet: (lazyMemory.allocationsPerResolution ?? 0) <= 1.0,
        whenMissed: "A value is stored in a box with its rule instead of in the slot itself."),
      Target(
        goal: "100,000 registrations ≤ 2× of 10 on cold resolution",
        measured: format(ratio: sizeRatio), isMet: sizeRatio <= 2,
        whenMissed: "The rule cache is a hash table; a larger one misses the processor caches more."
      ),
      Target(
        goal: "Zero duplicates and zero crashes in the race",
        measured: lazyRace.map { $0.outcome } ?? "not run",
        isMet: lazyRace?.duplicates == 0 && lazyRace?.crashed == false,
        whenMissed: "A duplicate or crash here is a bug in LazyInject's exactly-once guarantee."),
      Target(
        goal: "prepare() of 100 async singletons sleeping 10 ms each: about 10 ms, not 1 s",
        measured: format(ms: preparation), isMet: preparation < 100,
        whenMissed: "prepare() builds its rules one after another instead of in a task group."),
      Target(
        goal: "Zero extra bytes per property", measured: "\(extraBytes) bytes",
        isMet: extraBytes <= 0,
        whenMissed: "The wrapper stores more than the optional a lazy var stores."),
      Target(
        goal: "Ahead of Swinject and swift-dependencies on every row",
        measured: behind.isEmpty
          ? "ahead on every row" : "behind on: " + behind.joined(separator: "; "),
        isMet: behind.isEmpty,
        whenMissed:
          "swift-dependencies reads its values from a cache keyed by type; with a cached value"
          + " its cold row builds nothing, so it can beat a first read that builds the value."),
    ]
  }

  /// The rows where another system is faster than `@Lazy`.
  private func rowsBehind() -> [String] {
    var behind: [String] = []
    let comparisons: [(Measurement, String)] = [
      (hot, "@Lazy"), (cold, "@Lazy"), (singleton, "@Lazy, singleton scope"),
    ]
    for (measurement, ours) in comparisons {
      for other in measurement.order
      where other.hasPrefix("Swinject") || other.hasPrefix("swift-dependencies") {
        if measurement.nanoseconds[other]! < measurement.nanoseconds[ours]! {
          behind.append("\(measurement.title): \(other)")
        }
      }
    }
    return behind
  }

  /// The figures as plain text, for the terminal.
  var text: String {
    var lines = targets.text + costs.text + appScale.text
    for measurement in [hot, hotMutable, cold, registrySize, singleton] {
      lines.append(measurement.summary)
    }
    lines.append(
      "Race: two threads, first read of one object's property, \(settings.raceRounds) rounds")
    for race in races { lines.append("  \(race.system): \(race.outcome)") }
    lines.append("Registration of \(registration.count) initializers, per registration")
    lines.append(
      "  LazyInject \(format(ns: registration.lazyInjectPerRegistration)), Swinject \(format(ns: registration.swinjectPerRegistration)); a module of 10: \(format(ns: registration.perModule))"
    )
    lines.append(
      "prepare() of 100 async singletons that each sleep 10 ms: \(format(ms: preparation))")
    lines.append(contentsOf: registryLock.text)
    lines.append(contentsOf: validation.text)
    lines.append("Targets")
    for target in goals {
      lines.append("  [\(target.isMet ? "met" : "MISSED")] \(target.goal): \(target.measured)")
    }
    return lines.joined(separator: "\n")
  }
}

func format(ns: Double) -> String {
  if ns < 10 { return String(format: "%.2f ns", ns) }
  if ns < 1000 { return String(format: "%.1f ns", ns) }
  if ns < 1_000_000 { return String(format: "%.2f µs", ns / 1000) }
  if ns < 1_000_000_000 { return String(format: "%.2f ms", ns / 1_000_000) }
  return String(format: "%.2f s", ns / 1_000_000_000)
}

/// A count with its thousands grouped, as in "10,000".
func format(count: Int) -> String {
  let digits = String(count)
  var grouped = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
    grouped.append(digit)
  }
  return grouped
}

func format(ratio: Double) -> String {
  String(format: "%.2f×", ratio)
}

/// A ratio judged against a target's goal, with the digit that tells 1.151× from 1.15×.
func format(targetRatio ratio: Double) -> String {
  String(format: "%.3f×", ratio)
}

extension RegistryLockMeasurement {
  /// The figures as plain text, for the terminal.
  var text: [String] {
    var lines = [
      "Work under the registry lock: \(registrations) registrations of one property type,"
        + " median of \(rounds) round\(rounds == 1 ? "" : "s")"
    ]
    for call in calls {
      lines.append(
        "  \(call.operation.padding(toLength: 62, withPad: " ", startingAt: 0))"
          + " A \(format(ns: call.nanoseconds)), B waited at most"
          + " \(format(ns: call.longestWaitNanoseconds))")
    }
    return lines
  }

  /// The section of BENCHMARKS.md.
  var markdown: String {
    var md = """
      ### Work under the registry lock

      Thread A makes one call over a registry of \(registrations) registrations of one property
      type, each for a container class of its own, while thread B resolves another property type
      from the same registry without pause. Each of B's resolutions takes the registry's lock, so
      the longest one that overlaps A's call is how long A's call keeps other threads waiting; the
      last row, A busy away from the registry, is the machine's noise. Median of \(rounds)
      round\(rounds == 1 ? "" : "s"); `--only registry-lock` runs this measure alone.

      | Operation | Time on thread A | Longest wait of thread B |
      | --- | --- | --- |

      """
    for call in calls {
      md +=
        "| \(call.operation) | \(format(ns: call.nanoseconds))"
        + " | \(format(ns: call.longestWaitNanoseconds)) |\n"
    }
    return md
  }
}

extension Measurement {
  /// The title, then a line per system: time and ratio to the first.
  var summary: String {
    let baseline = order.first!
    let rows = order.map { name in
      "  \(name.padding(toLength: 48, withPad: " ", startingAt: 0))"
        + " \(format(ns: nanoseconds[name]!))  \(format(ratio: ratio(name, to: baseline)))"
    }
    return ([title] + rows).joined(separator: "\n")
  }
}
