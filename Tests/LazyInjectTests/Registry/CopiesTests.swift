import Foundation
import LazyInject
import LazyInjectTestSupport
import LazyInjectTesting
import Testing
import XCTest

// Two copies of LazyInject in one process (a library that links it statically, in two dynamic
// libraries) each have their own `shared`. Building such libraries takes this suite too long:
// `scripts/two-copies-lab` builds them and checks the warning. Here the report is given the
// images, in a child process, whose warning cannot fail `.ci/run` (which fails on a LazyInject
// warning that the tests print).

private let images = ["/app/lib/libFeedKit.so", "/app/lib/libProfileKit.so"]

struct CopiesTests {
  @Test func theTestProcessHoldsOneCopyOfLazyInject() {
    _ = InitializerRegistry.shared.description  // Its first use read the conformance records.
    let found = InitializerRegistry.imagesWithLazyInject()
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.contains(".xctest") == true, "\(found)")
  }

  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func anAppIsWarnedOfTwoCopiesWithBothImagesAndTheFix() async throws {
      let result = try #require(
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
          InitializerRegistry.reportCopies(in: images)
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.hasPrefix("LazyInject warning: this process holds 2 copies"), "\(output)")
      #expect(output.contains(" in /app/lib/libFeedKit.so and /app/lib/libProfileKit.so."))
      #expect(output.contains("Fix: link LazyInject once"))
    }

    @Test func theFirstUseOfSharedWarnsOfNothingWithOneCopy() async throws {
      let result = try #require(
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
          startWatchdog()
          _ = InitializerRegistry.shared.description
          InitializerRegistry.reportCopies(in: ["/app/App"])
          require(InitializerRegistry.takeCopiesWarning() == nil, "one copy was reported")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(!output.contains("LazyInject warning"), "\(output)")
    }

    @Test func theFirstTestUnderTheTraitFailsWithWhatWasFoundBeforeAndTheNextPasses() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.reportCopies(in: images)  // Before any test started.
        let trait = OverridesTrait.overrides { _ in }
        let first = try await issues { try await trait.provideScope(named: "first") {} }
        require(first.count == 1, "the first test recorded \(first)")
        require(first[0].contains("/app/lib/libProfileKit.so"), "\(first[0])")
        require(!first[0].contains("LazyInject warning"), "the test run would print the warning")
        let next = try await issues { try await trait.provideScope(named: "next") {} }
        require(next.isEmpty, "the next test recorded \(next)")
      }
    }

    @Test func aTestUnderTheTraitWhoseStartFindsTwoCopiesFails() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        // Found in the test's layer, as the first use of `shared` inside `withOverrides` finds it.
        let trait = OverridesTrait.overrides { _ in InitializerRegistry.reportCopies(in: images) }
        let found = try await issues { try await trait.provideScope(named: "first") {} }
        require(found.count == 1, "the test recorded \(found)")
      }
    }

    @Test func theFirstOverridingTestCaseFailsWithTheWarningAndTheNextPasses() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.reportCopies(in: images)
        let first = CopiesProbeTestCase.make()
        first.run()
        require(first.testRun?.failureCount == 1, "the first test did not fail")
        let next = CopiesProbeTestCase.make()
        next.run()
        require(next.testRun?.failureCount == 0, "the next test failed")
        require(first.didRun && next.didRun, "a test method did not run")
      }
    }
  #endif
}

/// The comments of the issues that `body` records.
private func issues(in body: () async throws -> Void) async throws -> [String] {
  let recorded = Locked<[String]>([])
  try await withKnownIssue(isIntermittent: true) {
    try await body()
  } matching: { issue in
    recorded.mutate { $0.append(issue.comments.map(\.rawValue).joined()) }
    return true
  }
  return recorded.value
}

/// An `OverridingTestCase` that the tests run by hand: XCTest finds no test method in it.
private final class CopiesProbeTestCase: OverridingTestCase {
  private(set) var didRun = false

  #if canImport(ObjectiveC)
    @objc func probe() {
      didRun = true
    }
  #else
    func probe() {
      didRun = true
    }
  #endif

  static func make() -> CopiesProbeTestCase {
    #if canImport(ObjectiveC)
      CopiesProbeTestCase(selector: #selector(probe))
    #else
      CopiesProbeTestCase(name: "probe") { test in
        (test as? CopiesProbeTestCase)?.probe()
      }
    #endif
  }
}
