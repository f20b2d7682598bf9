// LazyInject's benchmarks. From the repository root:
//
//   swift run -c release --package-path Benchmarks LazyInjectBenchmarks           print the figures
//   swift run -c release --package-path Benchmarks LazyInjectBenchmarks --write   and rewrite BENCHMARKS.md
//   swift run -c release --package-path Benchmarks LazyInjectBenchmarks --quick   a short check for CI
import Foundation
import LazyInject

let arguments = CommandLine.arguments.dropFirst()

if arguments.first == "--race", arguments.count == 3, let rounds = Int(arguments.last!) {
  registerLazyInjectFixtures()
  exit(runRaceChild(system: arguments[arguments.startIndex + 1], rounds: rounds))
}

if arguments.first == "--profile" {
  // For `perf record`: one loop, long enough to sample.
  registerLazyInjectFixtures()
  switch arguments.dropFirst().first {
  case "singleton": print(singletonLazy(5_000_000))
  default: print(coldLazy(5_000_000))
  }
  exit(0)
}

let isQuick = arguments.contains("--quick")
let writes = arguments.contains("--write")
let settings = isQuick ? RunSettings.quick : .full
registerLazyInjectFixtures()

func step<Result>(_ name: String, _ body: () -> Result) -> Result {
  print("Measuring \(name)…")
  return body()
}

let results = Results(
  settings: settings,
  hot: step("hot reads") { measureHotRead(settings) },
  hotMutable: step("hot reads of a var field") { measureHotReadOfMutableField(settings) },
  cold: step("cold reads") { measureCold(settings) },
  registrySize: step("registry sizes") { measureRegistrySize(settings) },
  singleton: step("singletons") { measureSingleton(settings) },
  races: step("races") { measureRaces(settings) },
  memory: step("memory") { measureMemory() },
  objectBytes: objectBytes(),
  registration: step("registration") { measureRegistration(settings) })

print()
print(results.text)

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
