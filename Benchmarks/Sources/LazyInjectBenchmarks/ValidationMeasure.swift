import Dispatch
import Foundation
import GeneratedScreens
import LazyInject

#if canImport(LazyInjectChecks)  // Not in builds of LazyInject before 2026-11 (`compare`).
  import LazyInjectChecks
#endif

/// The time of `validate(classesIn:)`: what a test that checks a whole app pays.
struct ValidationMeasurement {
  /// One module's check.
  struct Timing {
    let module: String
    /// The report's sentence, as `"Checked 5040 properties of 1070 classes."`.
    let report: String
    /// The first check of the process, which also makes the classes' metadata.
    let firstMilliseconds: Double
    /// The median of the later checks.
    let medianMilliseconds: Double
  }

  let generated: Timing
  /// The demo's, measured by `LazyInjectDemo --check` in release; nil in a quick run or when it
  /// could not be built, with the reason in `demoNote`.
  let demo: Timing?
  let demoNote: String?
}

/// Times `validate(classesIn:)` on GeneratedScreens (1,000 screens over 20 base classes, 50
/// service types: half registered, half built with `init()`), and on the demo unless `isQuick`.
func measureValidation(_ settings: RunSettings, isQuick: Bool) -> ValidationMeasurement {
  let registry = InitializerRegistry()
  for type in generatedServiceTypes.prefix(generatedServiceTypes.count / 2) {
    registerDefault(type, in: registry)
  }
  var milliseconds: [Double] = []
  var report = ""
  for _ in 0..<max(settings.rounds, 3) {
    let start = DispatchTime.now().uptimeNanoseconds
    do {
      report = "\(try registry.validate(classesIn: "GeneratedScreens"))"
    } catch {
      fatalError("the generated module does not validate: \(error)")
    }
    milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
  }
  let later = milliseconds.dropFirst().sorted()
  let generated = ValidationMeasurement.Timing(
    module: "GeneratedScreens", report: report, firstMilliseconds: milliseconds[0],
    medianMilliseconds: later[later.count / 2])
  guard !isQuick else {
    return ValidationMeasurement(generated: generated, demo: nil, demoNote: "not in a quick run")
  }
  do {
    return ValidationMeasurement(generated: generated, demo: try measureDemo(), demoNote: nil)
  } catch {
    return ValidationMeasurement(generated: generated, demo: nil, demoNote: "\(error)")
  }
}

private func registerDefault<Service: GeneratedService>(
  _ type: Service.Type, in registry: InitializerRegistry
) {
  registry.register(type) { _ in type.init() }
}

/// Builds the demo in release and runs its `--check`, which prints the report, the first
/// check's time and the median of 30 more.
private func measureDemo() throws -> ValidationMeasurement.Timing {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  _ = try run("swift", ["build", "-c", "release", "--product", "LazyInjectDemo"], in: root)
  let binPath = try run("swift", ["build", "-c", "release", "--show-bin-path"], in: root)
    .trimmingCharacters(in: .whitespacesAndNewlines)
  let output = try run("\(binPath)/LazyInjectDemo", ["--check"], in: root)
  // "Checked 39 properties of 38 classes. First check 1.234 ms, then a median of 0.123 ms over 30."
  guard let sentence = output.split(separator: "\n").last.map(String.init),
    let reportEnd = sentence.range(of: ". First check "),
    let first = Double(sentence[reportEnd.upperBound...].prefix { $0 != " " }),
    let medianStart = sentence.range(of: "a median of "),
    let median = Double(sentence[medianStart.upperBound...].prefix { $0 != " " })
  else {
    throw CheckError(message: "unexpected output of LazyInjectDemo --check: \(output)")
  }
  return ValidationMeasurement.Timing(
    module: "LazyInjectDemo", report: String(sentence[..<reportEnd.lowerBound]) + ".",
    firstMilliseconds: first, medianMilliseconds: median)
}

private struct CheckError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// Runs `command` with `arguments` in `directory`; its standard output, or if it fails, an error
/// with the end of its standard error (of its standard output if it wrote no error).
func run(_ command: String, _ arguments: [String], in directory: URL) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [command] + arguments
  process.currentDirectoryURL = directory
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  // Both pipes are read at once: a child that filled the standard error pipe's buffer (64 KiB on
  // Linux) while this thread waited for the end of its standard output would wait forever.
  let errorData = DataRead()
  let errorHandle = errors.fileHandleForReading
  Thread.detachNewThread {
    errorData.finish(errorHandle.readDataToEndOfFile())
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  let errorBytes = errorData.wait()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    // SwiftPM writes compiler errors to standard output.
    let log = errorBytes.isEmpty ? data : errorBytes
    throw CheckError(
      message: "\(command) \(arguments.joined(separator: " ")) failed: "
        + String(decoding: log.suffix(500), as: UTF8.self))
  }
  return String(decoding: data, as: UTF8.self)
}

/// Data read on another thread, handed over once it is all read.
private final class DataRead: @unchecked Sendable {
  // `data` is guarded by `lock`.
  private let lock = NSLock()
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  /// Keeps `data` and wakes the thread waiting for it.
  func finish(_ data: Data) {
    lock.lock()
    self.data = data
    lock.unlock()
    done.signal()
  }

  /// The data, once `finish` was called.
  func wait() -> Data {
    done.wait()
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}

extension ValidationMeasurement {
  /// The figures as plain text, for the terminal.
  var text: [String] {
    var lines = ["validate(classesIn:), first check of the process and median of later ones"]
    for timing in [generated] + (demo.map { [$0] } ?? []) {
      lines.append(
        "  \(timing.module): \(timing.report) first \(format(ms: timing.firstMilliseconds)),"
          + " then \(format(ms: timing.medianMilliseconds))")
    }
    if let demoNote {
      lines.append("  LazyInjectDemo: not measured (\(demoNote))")
    }
    return lines
  }

  /// The section of BENCHMARKS.md.
  var markdown: String {
    var md = """
      ### Checking a whole module

      `validate(classesIn:)` finds a module's classes in its type records and checks every
      `@Lazy` and `@WeakLazy` property against the rules, making no object: what a test that checks
      a whole app pays. The first check of a process also makes the classes' metadata; later ones
      are the median of the rest. GeneratedScreens is generated at build time: 1,000 screens over
      20 base classes, with properties of 50 service types (half registered, half built with
      `init()`). The demo's is measured by `swift run -c release LazyInjectDemo --check`.

      | Module | Checked | First check | Later checks |
      | --- | --- | --- | --- |

      """
    for timing in [generated] + (demo.map { [$0] } ?? []) {
      md +=
        "| \(timing.module) | \(timing.report.dropFirst("Checked ".count).dropLast()) |"
        + " \(format(ms: timing.firstMilliseconds)) | \(format(ms: timing.medianMilliseconds)) |\n"
    }
    if let demoNote {
      md += "| LazyInjectDemo | not measured: \(demoNote) | | |\n"
    }
    return md
  }
}

func format(ms: Double) -> String {
  String(format: "%.2f ms", ms)
}
