// LazyInject's benchmarks. From the repository root:
//
//   swift run -c release --package-path Benchmarks LazyInjectBenchmarks           print the figures
//   swift run -c release --package-path Benchmarks LazyInjectBenchmarks --write   and rewrite BENCHMARKS.md
//   swift run -c release --package-path Benchmarks LazyInjectBenchmarks --quick   a short check for CI
//
// `--only targets` runs only the measure of the speed targets (hot, cold, singleton: each @Lazy
// row alternating with its own `lazy var` control, in child processes of this binary) and prints,
// for each process, a `process K of N` line and then a line per row,
// `row<TAB>ratio<TAB>@Lazy ns<TAB>control ns<TAB>goal` (goal `-`: an informative row), then
// every row's ratios, the worst and the verdict (it fails only when a process gives no figures);
// `--processes N` sets how many processes (3, or 2 with `--quick`), for this measure and the
// costs' in every run. `Benchmarks/compare` runs it with `--processes 1` for each process of each
// build.
// `--only costs` runs only the costs of scopes, recording and discarded models (the hot read of
// a session-scoped property, a recorded cold first read, a discarded model: each alternating
// with its control, as the targets; then a reset of a scope that 10,000 objects hold and the
// export of a timeline of 10,000 builds, each with its control in the same round), in child
// processes, and prints them.
// `--only registry-lock` runs only the measure of work under the registry lock, and prints it
// (`--only speed`: the timed reads; `--only validate`: the checks of a whole module);
// `--registrations N` sets the largest registry size (100000, or 1000 with `--quick`).
// `--only table` prints every timed row of BENCHMARKS.md's speed tables as tab-separated
// `measure/system<TAB>nanoseconds` lines, for `COMPARE_TABLE=1 Benchmarks/compare`;
// `--rounds N` sets the rounds of each measure.
// `--help` lists the options.
// `--only app-scale` runs only the app-scale group (AppScaleMeasure.swift): it builds the
// AppScale executables (`swift build --product`, the 20,000 conformances only in a full run) and
// runs each child mode of each in fresh processes.
// `--profile cold`, `--profile singleton` and `--profile hot` run the targets' loops
// (`use(opaque(LazyHolder()).service)`, the singleton's, `use(holder.service)`); until the
// targets passed the value on, they ran the loops that `--profile cold-value`, `singleton-value`
// and `hot-value` run now (the container made in the loop, its `.value` read; a resolved
// property's `.value`). `--profile deep` (a cold read 20 classes deep) or `--profile resolve` (a
// cold `resolve(_:for:)`): each runs one loop of 5,000,000 reads (or the count after it) for
// `perf record` and `scripts/callgrind`, prints its checksum and exits.
import Foundation
import LazyInject

let arguments = CommandLine.arguments.dropFirst()

if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    LazyInjectBenchmarks: every measure, printed; BENCHMARKS.md and chart.svg with --write.

      --write           rewrite Benchmarks/BENCHMARKS.md and Benchmarks/chart.svg (full run, at
                        least 3 processes)
      --quick           run everything briefly, write nothing (CI's check)
      --processes N     child processes of the targets' and the costs' measures (3; 2 with --quick)
      --rounds N        rounds of each measure (31; 3 with --quick)
      --registrations N the largest registry size measured (100000; 1000 with --quick)
      --only MEASURE    one measure, printed: targets, costs, registry-lock, speed, validate,
                        table, app-scale
      --profile KIND [N] one loop of N reads (5,000,000) for perf record and scripts/callgrind:
                        cold, singleton, hot (the targets' loops), cold-value, singleton-value,
                        hot-value (the earlier ones), deep, resolve
      --help, -h        this text
    """)
  exit(0)
}

if arguments.first == "--race", arguments.count == 3, let rounds = Int(arguments.last!) {
  registerLazyInjectFixtures()
  exit(runRaceChild(system: arguments[arguments.startIndex + 1], rounds: rounds))
}

if arguments.first == "--targets-child", arguments.count == 3,
  let rounds = Int(arguments[arguments.startIndex + 1]),
  let sampleNanoseconds = UInt64(arguments[arguments.startIndex + 2])
{
  // One process of the targets' measure (`measureTargetsInProcesses`).
  registerLazyInjectFixtures()
  exit(runTargetsChild(rounds: rounds, sampleNanoseconds: sampleNanoseconds))
}

if arguments.first == "--costs-child", arguments.count == 3,
  let rounds = Int(arguments[arguments.startIndex + 1]),
  let sampleNanoseconds = UInt64(arguments[arguments.startIndex + 2])
{
  // One process of the costs' measure (`measureCostsInProcesses`).
  registerLazyInjectFixtures()
  registerCostFixtures()
  exit(runCostsChild(rounds: rounds, sampleNanoseconds: sampleNanoseconds))
}

if arguments.first == "--profile" {
  // For `perf record`: one loop, long enough to sample; for `scripts/callgrind`, two shorter ones.
  registerLazyInjectFixtures()
  let kind = arguments.dropFirst().first
  let count = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 5_000_000
  switch kind {
  case "singleton": consume(singletonTargetUse(count))
  case "deep": consume(coldLazy(Level19.init, count))
  case "hot":
    let holder = opaque(LazyHolder())
    use(holder.service)
    consume(hotTargetUse(holder, count))
  case "resolve":
    let registry = InitializerRegistry()
    registry.register(Service.self, in: Consumer.self) { _ in Service() }
    consume(coldResolve(registry, count))
  case "cold-value": consume(coldLazy(count))
  case "singleton-value": consume(singletonLazy(count))
  case "hot-value": consume(readLazy(LazyInjectHolder(), count))
  default: consume(coldTargetUse(count))
  }
  print(blackHole &+ usedSum)
  exit(0)
}

/// The argument after `flag`, if `flag` is given.
func argument(after flag: String) -> String? {
  guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.endIndex else {
    return nil
  }
  return arguments[index + 1]
}

let isQuick = arguments.contains("--quick")
let writes = arguments.contains("--write")
var settings = isQuick ? RunSettings.quick : .full
if let rounds = argument(after: "--rounds").flatMap(Int.init), rounds > 0 {
  settings.rounds = rounds
}
if arguments.contains("--registrations") {
  guard let count = argument(after: "--registrations").flatMap(Int.init), count > 0 else {
    print("--registrations needs a positive number")
    exit(2)
  }
  guard !writes else {
    print("--write measures the default registry sizes: drop --registrations")
    exit(2)
  }
  settings.largestRegistry = count
}
var processCount = isQuick ? 2 : 3
if arguments.contains("--processes") {
  guard let count = argument(after: "--processes").flatMap(Int.init), count > 0 else {
    print("--processes needs a positive number")
    exit(2)
  }
  guard !writes || count >= 3 else {
    print("--write judges the targets in at least 3 processes")
    exit(2)
  }
  processCount = count
}
registerLazyInjectFixtures()

func step<Result>(_ name: String, _ body: () -> Result) -> Result {
  print("Measuring \(name)…")
  return body()
}

if arguments.contains("--only") {
  let only = argument(after: "--only")
  let measures = ["targets", "costs", "registry-lock", "speed", "validate", "table", "app-scale"]
  guard let only, measures.contains(only) else {
    print("--only knows seven measures: \(measures.joined(separator: ", "))")
    exit(2)
  }
  guard !writes else {
    print("--only prints one measure; --write needs them all: drop --only")
    exit(2)
  }
  if only == "targets" {
    let targets = measureTargetsInProcesses(processCount, settings)
    for (index, process) in targets.processes.enumerated() {
      print("process \(index + 1) of \(targets.processes.count)")
      for figure in process.figures { print(figure.line) }
    }
    print()
    print(targets.text.joined(separator: "\n"))
    // Timings never fail a run; a process that gave no figures does.
    exit(targets.failures.isEmpty ? 0 : 1)
  }
  if only == "costs" {
    let costs = step(
      "the costs of scopes, recording and discarded models, in \(processCount) processes"
    ) {
      measureCostsInProcesses(processCount, settings)
    }
    print()
    print(costs.text.joined(separator: "\n"))
    // Timings never fail a run; a process that gave no figures does.
    exit(costs.failures.isEmpty ? 0 : 1)
  }
  if only == "app-scale" {
    let appScale = step("the app-scale group, \(processCount) cycles of fresh processes") {
      measureAppScale(processCount, settings, isQuick: isQuick)
    }
    print()
    print(appScale.text.joined(separator: "\n"))
    // Timings never fail a run; a build that failed, or a process that gave no figures, does.
    exit(appScale.failures.isEmpty ? 0 : 1)
  }
  if only == "speed" {
    // The timed rows alone, for profiling work: hot reads, cold reads, singletons.
    for measurement in [
      step("hot reads") { measureHotRead(settings) },
      step("hot reads of a var field") { measureHotReadOfMutableField(settings) },
      step("cold reads") { measureCold(settings) },
      step("singletons") { measureSingleton(settings) },
    ] {
      print(measurement.summary)
    }
    exit(0)
  }
  if only == "table" {
    let measurements = [
      measureHotRead(settings), measureHotReadOfMutableField(settings), measureCold(settings),
      measureSingleton(settings), measureRegistrySize(settings),
    ]
    for measurement in measurements {
      for name in measurement.order
      where !name.contains("Swinject") && !name.contains("@Dependency") {
        print("\(measurement.title)/\(name)\t\(measurement.nanoseconds[name]!)")
      }
    }
    let registration = measureRegistration(settings)
    print("Registration/register, per registration\t\(registration.lazyInjectPerRegistration)")
    print("Registration/install a module of 10\t\(registration.perModule)")
    exit(0)
  }
  if only == "validate" {
    print()
    print(
      step("validate(classesIn:)") { measureValidation(settings, isQuick: isQuick) }.text
        .joined(separator: "\n"))
    exit(0)
  }
  let registryLock = step("work under the registry lock") { measureRegistryLock(settings) }
  print()
  print(registryLock.text.joined(separator: "\n"))
  exit(0)
}

// First, in child processes, while this one has done nothing but register its fixtures.
let targets = step("the targets: hot, cold and singleton, in \(processCount) processes") {
  measureTargetsInProcesses(processCount, settings)
}
let costs = step(
  "the costs of scopes, recording and discarded models, in \(processCount) processes"
) { measureCostsInProcesses(processCount, settings) }
let appScale = step("the app-scale group, \(processCount) cycles of fresh processes") {
  measureAppScale(processCount, settings, isQuick: isQuick)
}
let hot = step("hot reads") { measureHotRead(settings) }
let hotMutable = step("hot reads of a var field") { measureHotReadOfMutableField(settings) }
let cold = step("cold reads") { measureCold(settings) }
// Before the registry sizes: their generated types fill Swift's metadata cache, which slows the
// peers' lookups of generic metadata on every resolution (Swinject's singleton 1 µs → 4.7 µs).
let singleton = step("singletons") { measureSingleton(settings) }
let results = Results(
  settings: settings, targets: targets, hot: hot, hotMutable: hotMutable, cold: cold,
  registrySize: step("registry sizes") { measureRegistrySize(settings) },
  singleton: singleton,
  races: step("races") { measureRaces(settings) },
  memory: step("memory") { measureMemory() },
  objectBytes: objectBytes(),
  registration: step("registration") { measureRegistration(settings) },
  preparation: await measurePreparation(isQuick: isQuick),
  registryLock: step("work under the registry lock") { measureRegistryLock(settings) },
  validation: step("validate(classesIn:)") { measureValidation(settings, isQuick: isQuick) },
  costs: costs, appScale: appScale)

print()
print(results.text)

// Allocations, bytes and duplicates do not depend on the machine's speed: a regression fails the
// run, CI's quick run included.
let failures = results.deterministicFailures
if !failures.isEmpty {
  print("\nA deterministic target regressed:")
  for failure in failures {
    print("  - \(failure)")
  }
  exit(1)
}

if writes && !isQuick {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  try results.markdown(machine: machineDescription())
    .write(to: root.appendingPathComponent("BENCHMARKS.md"), atomically: true, encoding: .utf8)
  try results.chart.write(
    to: root.appendingPathComponent("chart.svg"), atomically: true, encoding: .utf8)
  print("\nWrote Benchmarks/BENCHMARKS.md and Benchmarks/chart.svg")
} else if isQuick {
  // Exercise the report too, without writing it.
  _ = results.markdown(machine: machineDescription())
  _ = results.chart
  print("\nQuick run complete: everything ran; figures from a quick run mean nothing.")
}
