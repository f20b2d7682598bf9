import Dependencies
import Foundation
import LazyInject
import Swinject

// Two threads read the same property of the same new object for the first time, at once; a
// system that builds two values has a duplicate. Each system runs in a child process, so that
// one that crashes (a plain `lazy var` does) is reported instead of ending the benchmark.

/// Counts the values built by a racing system.
final class BuildCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0  // guarded by `lock`

  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}

let racedBuilds = BuildCount()

final class RacedService: Sendable {
  init() { racedBuilds.increment() }
}

// Shared between the two racing threads on purpose; each class's own guarantee is under test.
final class LazyVarRaceHolder: @unchecked Sendable {
  lazy var service = RacedService()
}

final class LazyRaceHolder: @unchecked Sendable {
  @LazyInject.Lazy var service: RacedService
}

private enum RacedKey: DependencyKey {
  static var liveValue: RacedService { RacedService() }
}

extension DependencyValues {
  var racedService: RacedService {
    get { self[RacedKey.self] }
    set { self[RacedKey.self] = newValue }
  }
}

final class DependencyRaceHolder: @unchecked Sendable {
  @Dependency(\.racedService) var service
}

/// Swinject's thread-safe resolver, with a `.container`-scoped service and a new container per
/// round: two first resolutions at once.
final class SwinjectRaceHolder: @unchecked Sendable {
  let resolver: Resolver

  init() {
    let container = Container()
    container.register(RacedService.self) { _ in RacedService() }.inObjectScope(.container)
    resolver = container.synchronize()
  }

  var service: RacedService { resolver.resolve(RacedService.self)! }
}

/// The racing systems, by the name the child process is given; each returns its duplicates.
///
/// `@Dependency` shares one value per key by design, so it should build one in all.
let racingSystems: [(name: String, run: @Sendable (Int) -> Int)] = [
  ("lazy var", { $0.builds(race(rounds: $0, make: LazyVarRaceHolder.init) { _ = $0.service }) }),
  ("@Lazy", { $0.builds(race(rounds: $0, make: LazyRaceHolder.init) { _ = $0.service }) }),
  (
    "swift-dependencies @Dependency",
    {
      _ = race(rounds: $0, make: DependencyRaceHolder.init) { _ = $0.service }
      return racedBuilds.value - 1
    }
  ),
  (
    "Swinject, synchronized, container scope",
    { $0.builds(race(rounds: $0, make: SwinjectRaceHolder.init) { _ = $0.service }) }
  ),
]

extension Int {
  /// Duplicates among `builds` values built in `self` rounds that should build one each.
  fileprivate func builds(_ builds: Int) -> Int { builds - self }
}

/// The object under race, handed from the main thread to the racing threads.
final class RaceSlot<Holder>: @unchecked Sendable {
  var holder: Holder?  // written before the racers are signalled, read after; semaphores order it
}

/// Runs `rounds` races on new objects from `make`; returns how many values were built.
func race<Holder: Sendable>(
  rounds: Int, make: () -> Holder, read: @escaping @Sendable (Holder) -> Void
) -> Int {
  let slot = RaceSlot<Holder>()
  let start = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
  let done = DispatchSemaphore(value: 0)
  for semaphore in [start.0, start.1] {
    Thread.detachNewThread {
      for _ in 0..<rounds {
        semaphore.wait()
        read(slot.holder!)
        done.signal()
      }
    }
  }
  let before = racedBuilds.value
  for _ in 0..<rounds {
    slot.holder = make()
    start.0.signal()
    start.1.signal()
    done.wait()
    done.wait()
  }
  slot.holder = nil
  return racedBuilds.value - before
}

/// The result of one system's race, as the parent process saw it.
struct RaceResult {
  let system: String
  let rounds: Int
  let outcome: String
  let duplicates: Int?
  let crashed: Bool
}

/// Runs each system's race in a child process.
func measureRaces(_ settings: RunSettings) -> [RaceResult] {
  racingSystems.map { system in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = ["--race", system.name, String(settings.raceRounds)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return RaceResult(
        system: system.name, rounds: settings.raceRounds, outcome: "could not start: \(error)",
        duplicates: nil, crashed: false)
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    if process.terminationReason == .uncaughtSignal {
      return RaceResult(
        system: system.name, rounds: settings.raceRounds,
        outcome: "crashed (signal \(process.terminationStatus))", duplicates: nil, crashed: true)
    }
    let duplicates = text.split(separator: " ").last.flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return RaceResult(
      system: system.name, rounds: settings.raceRounds,
      outcome: duplicates.map { "\($0) duplicates" } ?? "no result", duplicates: duplicates,
      crashed: false)
  }
}

/// The child process: `--race <system> <rounds>` prints `duplicates N`.
func runRaceChild(system name: String, rounds: Int) -> Int32 {
  guard let system = racingSystems.first(where: { $0.name == name }) else { return 2 }
  print("duplicates \(system.run(rounds))")
  return 0
}

func executablePath() -> String {
  #if os(Linux)
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return path
    }
  #endif
  return Bundle.main.executablePath ?? CommandLine.arguments[0]
}
