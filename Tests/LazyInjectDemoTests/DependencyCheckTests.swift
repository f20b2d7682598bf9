import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectTestSupport
import Testing

@testable import LazyInjectDemo

// The demo's module is checked, and drawn, as an app's test would: from its classes, without
// making any object.

struct DependencyCheckTests {
  @Test func everyClassOfTheDemoCanResolveItsProperties() async throws {
    let report = try InitializerRegistry.shared.validate(classesIn: "LazyInjectDemo")
    #expect(report.checkedClasses.contains("LazyInjectDemo.AdminUsersViewController"))
    #expect(report.checkedClasses.contains("LazyInjectDemo.NewsFetcher"))
    #expect(report.checkedPropertyCount >= 30)
    #expect(report.skippedGenericClasses.isEmpty)
  }

  @Test @MainActor func graphArgumentPrintsTheGraphInEitherLanguage() async throws {
    #expect(await Demo.run(arguments: ["--graph"], echo: false) == 0)
    #expect(await Demo.run(arguments: ["--graph", "dot"], echo: false) == 0)
    #expect(await Demo.run(arguments: ["--graph", "svg"], echo: false) == 1)
    let dot = try #require(Demo.graph(format: "dot"))
    #expect(dot.hasPrefix("digraph LazyInject {"))
    #expect(
      dot.contains(
        "\"UsersViewController\" -> \"ResourceLoader\" [label=\"resourceLoader: in"
          + " UsersViewController, unique scope\"];"))
    #expect(!dot.contains("missing"))
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func readmeShowsTheGraphTheDemoPrints() async throws {
      let readme = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "README.md"),
        encoding: .utf8)
      // In a fresh process, as `swift run LazyInjectDemo --graph` draws it: no property rule has
      // been told its property yet.
      let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        startWatchdog()
        let status = await Demo.run(arguments: ["--graph"])
        exit(status)
      }
      let graph = try #require(
        result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) })
      #expect(
        readme.contains("```mermaid\n\(graph)```"),
        "README.md's graph differs from `swift run LazyInjectDemo --graph`:\n\(graph)")
    }
  #endif
}
