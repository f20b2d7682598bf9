import AppScaleFigures
import Dispatch
import Foundation
import LazyInject
import LazyInjectChecks
import Swinject

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A moment of the process: its monotonic wall clock and the CPU time of all its threads.
public struct LaunchClock: Sendable {
  /// `CLOCK_MONOTONIC`, in nanoseconds.
  public let wall: UInt64
  /// `CLOCK_PROCESS_CPUTIME_ID`, in nanoseconds: work on other threads counts.
  public let cpu: UInt64

  /// Now.
  public static func now() -> LaunchClock {
    LaunchClock(wall: nanoseconds(CLOCK_MONOTONIC), cpu: nanoseconds(CLOCK_PROCESS_CPUTIME_ID))
  }

  private static func nanoseconds(_ clock: clockid_t) -> UInt64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

/// Runs the child mode or profile that the command line names, and exits.
///
///     <executable> --child pairs ROUNDS SAMPLE_NS    rows 1 to 3
///     <executable> --child validate ROUNDS           row 4
///     <executable> --child launch|launch-control|launch-recorded    rows 5 and 6
///     <executable> --profile first-reads K           K first reads of new @Lazy pairs
///     <executable> --profile control-reads K         K first reads of new lazy var pairs
///     <executable> --profile recorded-reads K        K first reads of new @Lazy pairs, recorded
///
/// `launchStart` is read on the first line of `main`.
public func runAppScale(_ app: AppScaleApp, launchStart: LaunchClock) -> Never {
  let arguments = Array(CommandLine.arguments.dropFirst())
  func number(_ index: Int) -> Int? {
    index < arguments.count ? Int(arguments[index]) : nil
  }
  switch (arguments.first, arguments.dropFirst().first) {
  case ("--child", AppScaleChild.pairs.rawValue?):
    guard let rounds = number(2), let sample = number(3), rounds > 0, sample > 0 else { break }
    runPairs(app, rounds: rounds, sampleNanoseconds: UInt64(sample))
  case ("--child", AppScaleChild.validate.rawValue?):
    guard let rounds = number(2), rounds > 0 else { break }
    runValidation(app, rounds: rounds)
  case ("--child", AppScaleChild.launch.rawValue?):
    runLaunch(app, launchStart, reads: app.lazyReads, installs: true, records: false)
  case ("--child", AppScaleChild.launchControl.rawValue?):
    runLaunch(app, launchStart, reads: app.controlReads, installs: false, records: false)
  case ("--child", AppScaleChild.launchRecorded.rawValue?):
    runLaunch(app, launchStart, reads: app.lazyReads, installs: true, records: true)
  case ("--profile", let kind?)
  where ["first-reads", "control-reads", "recorded-reads"].contains(kind):
    guard let count = number(2), (0...app.services).contains(count) else { break }
    // For callgrind: the difference of two counts of K is K first reads, without the start-up.
    InitializerRegistry.shared.install(app.module)
    let reads = kind == "control-reads" ? app.controlReads : app.lazyReads
    let records = kind == "recorded-reads"
    if records { InitializerRegistry.startRecording() }
    for read in reads.prefix(count) { read() }
    if records { print("builds \(InitializerRegistry.stopRecording().builds.count)") }
    print("checksum \(app.checksum())")
    exit(0)
  default:
    break
  }
  print(
    """
    \(app.moduleName): \(app.services) services read through @Lazy, lazy var, Swinject and
    swift-dependencies; \(app.conformances) extra conformances. Run by
    `LazyInjectBenchmarks --only app-scale`; by hand:

      --child pairs ROUNDS SAMPLE_NS   registration, first reads, new objects of seen pairs
      --child validate ROUNDS          validate(classesIn: "\(app.moduleName)")
      --child launch                   main's first line to the last first read (@Lazy)
      --child launch-control           the same through lazy var
      --child launch-recorded          the @Lazy launch, recorded
      --profile first-reads K          K first reads of new @Lazy pairs (K ≤ \(app.services))
      --profile control-reads K        the same through lazy var
      --profile recorded-reads K       the @Lazy first reads, recorded
    """)
  exit(arguments.isEmpty || arguments == ["--help"] ? 0 : 2)
}

/// The first reads of new pairs are timed in blocks of this many pairs, one block of each
/// system in turn, so that a slow moment of the machine hits every system.
let blockSize = 25

/// Rows 1 to 3 in this fresh process: the registry's first use, the module's installation,
/// then each system's first reads of its new pairs in alternating blocks, then new objects of
/// the seen pairs, the `@Lazy` and the control loops alternating for `rounds` rounds.
private func runPairs(_ app: AppScaleApp, rounds: Int, sampleNanoseconds: UInt64) -> Never {
  let count = Double(app.services)
  print(AppScaleKey.services.line(count))
  // The Swift runtime's one-time instantiations of the registry's generic types, each with a
  // search of the conformance records, whichever registry pays them first: paid here, on a
  // registry of its own, so that neither row below includes them.
  InitializerRegistry().register(AppScaleLinkedService.self) { _ in AppScaleLinkedService() }
  var start = now()
  // The first use of `shared`: one pass over the conformance records of each image, which finds
  // and installs the linked modules (AppScaleLinkedInitializers). On the main thread, which
  // runs `main`.
  MainActor.assumeIsolated { InitializerRegistry.shared.installLinkedModules() }
  print(AppScaleKey.firstUse.line(now() - start))
  start = now()
  InitializerRegistry.shared.install(app.module)
  let registration = now() - start
  print(AppScaleKey.registrationTotal.line(registration))
  print(AppScaleKey.registrationPerRule.line(registration / count))
  let container = Container()
  start = now()
  app.registerSwinject(container)
  print(AppScaleKey.swinjectRegistrationPerFactory.line((now() - start) / count))

  var totals: [AppScaleKey: Double] = [:]
  let systems: [(AppScaleKey, (Int) -> Void)] = [
    (.firstReadControl, { app.controlReads[$0]() }),
    (.firstReadLazy, { app.lazyReads[$0]() }),
    (.firstResolveSwinject, { app.swinjectResolves[$0](container) }),
    (.firstReadDependency, { app.dependencyReads[$0]() }),
  ]
  for block in stride(from: 0, to: app.services, by: blockSize) {
    let pairs = block..<min(block + blockSize, app.services)
    for (key, read) in systems {
      let start = now()
      for index in pairs { read(index) }
      totals[key, default: 0] += now() - start
    }
  }
  for (key, _) in systems { print(key.line(totals[key]! / count)) }

  let seen = alternate(
    rounds: rounds, sampleNanoseconds: sampleNanoseconds,
    control: { for read in app.controlReads { read() } },
    subject: { for read in app.lazyReads { read() } })
  print(AppScaleKey.seenPairControl.line(seen.control / count))
  print(AppScaleKey.seenPairLazy.line(seen.subject / count))
  print("checksum \(app.checksum())")
  exit(0)
}

/// Row 4: `validate(classesIn:)` of the module, on a registry with its rules: the first call of
/// this fresh process, with no warm-up (it also makes the classes' metadata), then the median
/// of `rounds - 1` more.
private func runValidation(_ app: AppScaleApp, rounds: Int) -> Never {
  let registry = InitializerRegistry()
  registry.install(app.module)
  var times: [Double] = []
  var report = ""
  for _ in 0..<max(rounds, 2) {
    let start = now()
    do {
      report = "\(try registry.validate(classesIn: app.moduleName))"
    } catch {
      print("the generated module does not validate: \(error)")
      exit(1)
    }
    times.append(now() - start)
  }
  print(
    AppScaleKey.validateReport.rawValue + "\t" + report.replacingOccurrences(of: "\n", with: " "))
  print(AppScaleKey.validateFirst.line(times[0]))
  print(AppScaleKey.validateLater.line(median(Array(times.dropFirst()))))
  exit(0)
}

/// Rows 5 and 6: from `launchStart`, the first line of `main`, to the last of `reads`.
///
/// Each of `reads` is a first read of a new pair; the module is installed first if `installs`,
/// and the reads are recorded, from before the first to `stopRecording()`, if `records`. Prints
/// the wall time and the process's CPU time.
private func runLaunch(
  _ app: AppScaleApp, _ launchStart: LaunchClock, reads: [@Sendable () -> Void], installs: Bool,
  records: Bool
) -> Never {
  if installs { InitializerRegistry.shared.install(app.module) }
  if records { InitializerRegistry.startRecording() }
  for read in reads { read() }
  let builds = records ? InitializerRegistry.stopRecording().builds.count : 0
  let end = LaunchClock.now()
  print(AppScaleKey.launchWall.line(Double(end.wall - launchStart.wall)))
  print(AppScaleKey.launchCPU.line(Double(end.cpu - launchStart.cpu)))
  if records { print(AppScaleKey.recordedBuilds.line(Double(builds))) }
  print("checksum \(app.checksum())")
  exit(0)
}

/// The monotonic clock, in nanoseconds.
private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) }

/// Nanoseconds per call of `control` and of `subject`: the medians of `rounds` samples of each,
/// in alternation, each sample calibrated to last about `sampleNanoseconds`.
private func alternate(
  rounds: Int, sampleNanoseconds: UInt64, control: () -> Void, subject: () -> Void
) -> (control: Double, subject: Double) {
  func sample(_ body: () -> Void, _ iterations: Int) -> Double {
    let start = now()
    for _ in 0..<iterations { body() }
    return (now() - start) / Double(iterations)
  }
  func calibrate(_ body: () -> Void) -> Int {
    var iterations = 1
    while true {
      let perCall = sample(body, iterations)
      if perCall * Double(iterations) >= Double(sampleNanoseconds) / 4 || iterations >= 1 << 20 {
        return max(1, Int(Double(sampleNanoseconds) / max(perCall, 1)))
      }
      iterations *= 4
    }
  }
  let controlIterations = calibrate(control)
  let subjectIterations = calibrate(subject)
  var controls: [Double] = []
  var subjects: [Double] = []
  for _ in 0..<rounds {
    controls.append(sample(control, controlIterations))
    subjects.append(sample(subject, subjectIterations))
  }
  return (median(controls), median(subjects))
}

/// The median of `values`.
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
