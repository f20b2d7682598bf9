// The figures an app-scale child process (AppScaleKit) prints, one `key<TAB>value` line each,
// and their keys, which the runner (LazyInjectBenchmarks' AppScaleMeasure.swift) reads back.

/// The child modes of an app-scale executable, each run in fresh processes.
public enum AppScaleChild: String, CaseIterable, Sendable {
  /// Registration, first reads of new pairs, new objects of seen pairs (rows 1 to 3).
  case pairs
  /// `validate(classesIn:)` of the module, the first call with no warm-up, then later calls.
  case validate
  /// The launch: from the first line of `main` to the last first read of a `@Lazy` pair, the
  /// module installed.
  case launch
  /// The same launch reading the `lazy var` pairs: the control.
  case launchControl = "launch-control"
  /// The launch while `InitializerRegistry.startRecording()` records, up to `stopRecording()`.
  case launchRecorded = "launch-recorded"
}

/// A figure of an app-scale child, in nanoseconds (the report sentence of `validate` aside).
public enum AppScaleKey: String, CaseIterable, Sendable {
  /// How many services (pairs) of each system the executable has: a count, not a time.
  case services
  case firstUse = "first use of shared"
  case registrationTotal = "registration, total"
  case registrationPerRule = "registration, per rule"
  case swinjectRegistrationPerFactory = "swinject registration, per factory"
  case firstReadLazy = "first read, @Lazy, per pair"
  case firstReadControl = "first read, lazy var, per pair"
  case firstResolveSwinject = "first resolve, Swinject, per type"
  case firstReadDependency = "first read, swift-dependencies, per key"
  case seenPairLazy = "new object of a seen pair, @Lazy, per read"
  case seenPairControl = "new object of a seen pair, lazy var, per read"
  case validateFirst = "validate, first call"
  case validateLater = "validate, later calls"
  case validateReport = "validate, report"
  case launchWall = "launch, wall"
  case launchCPU = "launch, CPU"
  case recordedBuilds = "recorded builds"

  /// The line a child prints for `value`.
  public func line(_ value: Double) -> String { "\(rawValue)\t\(value)" }
}

/// Reads the figures in a child's output: `key<TAB>value` lines, any other line skipped; the
/// report sentence of `validate` is kept apart.
public func parseAppScaleFigures(_ output: String) -> (
  figures: [AppScaleKey: Double], report: String?
) {
  var figures: [AppScaleKey: Double] = [:]
  var report: String?
  for line in output.split(separator: "\n") {
    let fields = line.split(separator: "\t", maxSplits: 1)
    guard fields.count == 2, let key = AppScaleKey(rawValue: String(fields[0])) else { continue }
    if key == .validateReport {
      report = String(fields[1])
    } else if let value = Double(fields[1]) {
      figures[key] = value
    }
  }
  return (figures, report)
}
