import Foundation
import Testing

// These tests launch the demo with Foundation's Process, which iOS, tvOS, watchOS and visionOS
// lack.
#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
  /// Runs the demo executable built next to this test binary with `arguments`; returns what it
  /// printed, or nil if the executable is not there.
  private func runDemo(_ arguments: [String]) throws -> String? {
    // The build folder: the test binary's on Linux; on Darwin, where the process is the xctest
    // tool, the .xctest bundle's. (Bundle.allBundles leaks on Linux: LeakSanitizer reports it.)
    var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    #if canImport(Darwin)
      folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
        $0.bundleURL.deletingLastPathComponent()
      }
    #endif
    let candidates = folders.map { $0.appendingPathComponent("LazyInjectDemo") }
    guard
      let demo = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else { return nil }
    let process = Process()
    process.executableURL = demo
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  // The UI-testing module is switched on by the process's launch argument, read when the registry
  // is first used: a fresh process of the demo, launched as UI tests launch an app.
  struct LaunchArgumentTests {
    @Test func uiTestingArgumentSwitchesTheNetworkToMocks() throws {
      let output = try #require(try runDemo(["mocks", "--ui-testing"]), "no LazyInjectDemo binary")
      #expect(output.contains("Launched with --ui-testing: UITestingInitializers is installed."))
      let production = try #require(output.components(separatedBy: "Production:").last)
      #expect(production.contains("MockRequestManager #1 built"))
      #expect(!output.contains("LazyInject warning"))
    }

    @Test func withoutTheArgumentTheNetworkIsProduction() throws {
      let output = try #require(try runDemo(["mocks"]), "no LazyInjectDemo binary")
      #expect(!output.contains("Launched with --ui-testing"))
      #expect(output.contains("  RequestManager #1 built"))
    }
  }
#endif
