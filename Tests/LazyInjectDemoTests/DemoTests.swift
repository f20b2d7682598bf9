import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectTestSupport
import Testing

@testable import LazyInjectDemo

/// Runs `scene` and returns what it said, in a child process (an exit test) where exit tests
/// run: a scene starts by resetting every scope of `InitializerRegistry.shared`, which in this
/// process would release instances that the suites running beside this one hold across reads.
@MainActor
private func lines(of scene: String) async throws -> [String] {
  #if compiler(>=6.3) && !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) { [scene = scene as String] in
      startWatchdog()
      exit(await Demo.run(arguments: [scene]))
    }
    return String(decoding: try #require(result).standardOutputContent, as: UTF8.self)
      .split(separator: "\n").map(String.init)
  #else
    let scene = try #require(Scene.named(scene))
    await scene.perform(echo: false)
    return Narrator.shared.lines
  #endif
}

/// The index of the first line containing `text`.
private func index(of text: String, in lines: [String]) throws -> Int {
  try #require(lines.firstIndex { $0.contains(text) }, "no line contains \(text)")
}

// Serialized: where exit tests do not run, every scene narrates into `Narrator.shared`, one record
// for the whole process that `perform` empties (and whose serial numbers it restarts) before the
// scene runs. The tests are async: run in parallel, two scenes would interleave at their
// suspensions, and each test would read the other's lines.
@MainActor
@Suite(.serialized)
struct DemoTests {
  @Test func sceneListNamesEverySceneInTheArticlesOrder() async {
    #expect(
      Scene.all.map(\.name) == [
        "boilerplate", "custom-initializer", "container-specific", "singletons", "modules",
        "protocols", "mocks", "coordinators", "news", "session", "weak-coordinator",
        "two-loggers",
      ])
    #expect(await Demo.run(arguments: ["--list"], echo: false) == 0)
  }

  @Test func twoLoggersSceneGivesEachPropertyItsOwnRule() async throws {
    let lines = try await lines(of: "two-loggers")
    #expect(lines.contains("OrdersViewController #1.auditLog is Logger #1, audit;"))
    #expect(lines.contains("  its debugLog is Logger #2, debug."))
    #expect(lines.contains("OrdersViewController #2.auditLog is Logger #1, audit;"))
    #expect(lines.contains("Both screens share one audit trail: true."))
    #expect(
      lines.contains(
        "RefundsViewController #1.auditLog is refund audit of RefundsViewController #1."))
    #expect(lines.contains("Its debugLog is still the type's: debug."))
    #expect(
      lines.contains {
        $0.hasPrefix(
          "  LazyInjectDemo.Logger for LazyInjectDemo.OrdersViewController.auditLog, singleton scope"
        )
      })
    #expect(
      lines.contains {
        $0.hasPrefix(
          "  Result for LazyInjectDemo.OrdersViewController.auditLog: its property rule, singleton")
      })
  }

  @Test func unknownSceneFails() async {
    #expect(await Demo.run(arguments: ["no-such-scene"], echo: false) == 1)
  }

  @Test func everySceneRuns() async {
    // In a child process where exit tests run, as `lines(of:)` runs a scene.
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
      await #expect(processExitsWith: .success) {
        startWatchdog()
        exit(await Demo.run(arguments: [], echo: false))
      }
    #else
      #expect(await Demo.run(arguments: [], echo: false) == 0)
    #endif
  }

  // An exit test (Swift Testing runs none on iOS, tvOS, watchOS or visionOS): recording is
  // process-wide, and other suites record meanwhile.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func timelineRecordsTheLaunchANestedBuildAndTheStorePreparedOffTheMainThread()
      async throws
    {
      let result = try #require(
        await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
          startWatchdog()
          exit(await Demo.run(arguments: ["--timeline"]))
        })
      let text = String(decoding: result.standardOutputContent, as: UTF8.self)
      #expect(text.contains("Time in builds: "))
      #expect(
        text.contains("LazyInjectDemo.FeedViewModel for LazyInjectDemo.HomeViewController.feed"))
      #expect(text.contains("ImageCache for LazyInjectDemo.HomeViewController, main thread"))
      #expect(text.contains("LazyInjectDemo.NewsStore for prepare(), task 1"))
      #expect(text.contains("gantt\n  title Builds of at least 1 ms"))
      let lines = text.split(separator: "\n").map(String.init)
      let tracing = try index(of: "chrome://tracing: ", in: lines)
      let path = try #require(lines[tracing].split(separator: ": ").last.map(String.init))
      let json = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: path)))
      let events = try #require((json as? [String: Any])?["traceEvents"] as? [[String: Any]])
      #expect(events.contains { $0["name"] as? String == "LazyInjectDemo.NewsStore for prepare()" })
    }
  #endif

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func checkPassesAndPrintsTheLineTheBenchmarksRead() async throws {
      #expect(await Demo.run(arguments: ["--check"], echo: false) == 0)
      // In a fresh process, as the benchmarks run `LazyInjectDemo --check`.
      let result = try #require(
        await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
          startWatchdog()
          let status = await Demo.run(arguments: ["--check"])
          exit(status)
        })
      // What measureDemo (Benchmarks) reads from the last line: "Checked 39 properties of 38
      // classes. First check 1.234 ms, then a median of 0.123 ms over 30."
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      let sentence = try #require(output.split(separator: "\n").last.map(String.init))
      let report = try InitializerRegistry.shared.validate(classesIn: "LazyInjectDemo")
      let reportEnd = try #require(sentence.range(of: ". First check "), "\(sentence)")
      #expect(sentence[..<reportEnd.lowerBound] + "." == report.description)
      #expect(Double(sentence[reportEnd.upperBound...].prefix { $0 != " " }) != nil, "\(sentence)")
      let medianStart = try #require(sentence.range(of: " ms, then a median of "), "\(sentence)")
      #expect(
        Double(sentence[medianStart.upperBound...].prefix { $0 != " " }) != nil, "\(sentence)")
      #expect(sentence.hasSuffix(" ms over 30."))
    }
  #endif

  @Test func boilerplateSceneBuildsOnlyInLoadResourcesAndReleasesWithTheController()
    async throws
  {
    let lines = try await lines(of: "boilerplate")
    #expect(lines.contains("Built so far: progressViewService false, resourceLoader false."))
    let withLazy = try index(of: "With @Lazy", in: lines)
    let load = try #require(lines[withLazy...].firstIndex(of: "loadResources():"))
    let built = try index(
      of: "ProgressViewService #2 built for SettingsViewController #1", in: lines)
    #expect(built > load)
    #expect(lines.contains("Reading them again builds nothing: ResourceLoader #2."))
    let released = try index(of: "SettingsViewController #1 released", in: lines)
    #expect(lines[(released + 1)...].contains("  ProgressViewService #2 released"))
    #expect(lines[(released + 1)...].contains("  ResourceLoader #2 released"))
    #expect(lines.filter { $0.contains("built") && $0.contains("#3") }.isEmpty)
  }

  @Test func customInitializerSceneBuildsTheServiceFromItsSender() async throws {
    let lines = try await lines(of: "custom-initializer")
    #expect(lines.contains("  ProgressViewService #1 built for UsersViewController #1"))
    #expect(lines.contains("The service was built for this controller: true."))
  }

  @Test func containerSpecificSceneGivesEachControllerItsLoader() async throws {
    let lines = try await lines(of: "container-specific")
    #expect(lines.contains("  -> ResourceLoader #1, the users loader"))
    #expect(lines.contains("  -> ResourceLoader #2, the projects loader"))
    #expect(lines.contains("  -> ResourceLoader #3, the default loader"))
    let admin = try index(of: "AdminUsersViewController #1.resourceLoader:", in: lines)
    #expect(lines[admin + 2] == "  -> ResourceLoader #4, the users loader")
    #expect(lines.contains { $0.contains("inherited by LazyInjectDemo.AdminUsersViewController") })
  }

  @Test func singletonSceneSharesOneRequestManager() async throws {
    let lines = try await lines(of: "singletons")
    #expect(lines.filter { $0.hasSuffix("built") && $0.contains("RequestManager") }.count == 1)
    #expect(lines.contains("  RequestManager #1 GET /users"))
    #expect(lines.contains("  RequestManager #1 GET /projects"))
    #expect(lines.contains("Same instance: true."))
  }

  @Test func sharedRegistryInstalledTheDemoModulesWithoutAnyCall() async throws {
    // Nothing in the demo or its tests calls install: the conformance in AutomaticModules.swift
    // made `.shared` install them before its first resolution.
    _ = UsersViewController().resourceLoader
    #expect(InitializerRegistry.shared.description.contains("LazyInjectDemo.NewsStore"))
  }

  @Test func sharedRegistryInstalledTheLinkedNewsModuleThatNoListNames() {
    // NewsInitializers is a LinkedModule, which AutomaticModules.swift does not list: the
    // registry found it in the binary (built as an Xcode 26 app, its conformance is isolated to
    // the main actor).
    let description = InitializerRegistry.shared.description
    let linked = description.split(separator: "\n").first { $0.hasPrefix("linked modules: ") }
    #expect(linked?.contains("LazyInjectDemo.NewsInitializers") == true, "\(description)")
    #expect(description.contains("module LazyInjectDemo.NewsInitializers"), "\(description)")
  }

  @Test func modulesSceneListsTheRegistrationsOfEveryModule() async throws {
    let lines = try await lines(of: "modules")
    #expect(lines.contains { $0.hasPrefix("  InitializerRegistry, ") })
    for file in [
      "ServiceInitializers", "LoaderInitializers", "NetworkInitializers",
      "CoordinatorInitializers", "NewsInitializers",
    ] {
      #expect(lines.contains { $0.contains("LazyInjectDemo/\(file).swift:") }, "\(file)")
    }
  }

  @Test func protocolSceneResolvesTheExistentialPerContainer() async throws {
    let lines = try await lines(of: "protocols")
    #expect(lines.contains("  ResourceLoader #1 built (any ResourceLoading)"))
    #expect(lines.contains("  CachedLoader #1 serves cached resources"))
  }

  @Test func mockSceneUsesTheMockOnlyInsideTheOverride() async throws {
    let lines = try await lines(of: "mocks")
    let mock = try index(of: "(mock) returns canned resources for /users", in: lines)
    let production = lines.indices.filter { lines[$0].contains("RequestManager #1 GET /users") }
    #expect(production.count == 2)
    #expect(production.first! < mock && mock < production.last!)
    #expect(lines.filter { $0 == "  RequestManager #1 built" }.count == 1)
  }

  @Test func coordinatorSceneReleasesTheFinishedChildFlow() async throws {
    let lines = try await lines(of: "coordinators")
    #expect(lines.contains("AppCoordinator #1 created; its dependencies are not built yet: true."))
    let finished = try index(of: "AuthCoordinator #1 finished", in: lines)
    let released = try index(of: "AuthCoordinator #1 released", in: lines)
    #expect(finished < released)
    #expect(lines.contains("Children of AppCoordinator #1: [\"MainFlowCoordinator #1\"]."))
    #expect(lines.contains("  recorded: [\"add MainFlowCoordinator\"]"))
    #expect(lines.filter { $0.contains("DefaultCoordinatorDependencies built") }.count == 1)
  }

  @Test func newsSceneOpensTheStoreAtLaunchAndDefersReloadsOffScreen() async throws {
    let lines = try await lines(of: "news")
    let launch = try index(of: "opens the news store asynchronously: prepare()", in: lines)
    let opened = try index(of: "NewsStore opened", in: lines)
    #expect(opened == launch + 1)
    #expect(lines.contains("The app delegate reads the prepared store: 1 item(s)."))
    #expect(lines.contains("Same store for the app delegate and the table: true."))
    let offScreen = try index(of: "is off screen", in: lines)
    let deferred = lines.indices.filter { lines[$0].contains("reload deferred") }
    #expect(!deferred.isEmpty && deferred.allSatisfy { $0 > offScreen })
    #expect(lines.contains { $0.contains("back on screen and reloads the deferred change") })
    #expect(lines.contains("Observers left: 0."))
    #expect(
      lines.contains {
        $0.hasPrefix("  StoryViewController shows the thumbnail of \"News text")
          && $0.hasSuffix("later reads: true")
      })
    let results = lines.filter { $0.hasPrefix("  completion:") }
    #expect(results.count == 7)
    #expect(Set(results) == ["  completion: new data", "  completion: no data"])
  }

  @Test func outputIsTheSameOnEveryRun() async throws {
    let first = try await lines(of: "news") + lines(of: "coordinators")
    let second = try await lines(of: "news") + lines(of: "coordinators")
    #expect(first == second)
  }

  @Test func sessionSceneReleasesTheSessionFromEveryHolderAtLogOut() async throws {
    let lines = try await lines(of: "session")
    #expect(
      lines.contains(
        "  AccountViewController #1, AccountViewController #2 and the shell share UserSession #1:"
          + " true"))
    let logOut = try index(of: "Log-out:", in: lines)
    let released = try index(of: "  UserSession #1 released", in: lines)
    #expect(released == logOut + 1)  // At the reset, though the screens and the shell live on.
    #expect(lines.contains("  The shell's session is resolved: false"))
    #expect(lines.contains("  Sessions still held after the log-out: 0"))
    #expect(lines.contains("  The shell shows UserSession #2, for Grace"))
    #expect(lines.contains("  AccountViewController #3 gets it too: true"))
    #expect(lines.contains("  The RequestManager singleton is untouched: true"))
    let lastLogOut = try index(of: "Grace logs out", in: lines)
    #expect(lines[lastLogOut...].contains("  UserSession #2 released"))
  }

  @Test func weakCoordinatorSceneReleasesTheFlowTheScreenPointsTo() async throws {
    let lines = try await lines(of: "weak-coordinator")
    #expect(lines.contains("CheckoutScreen #1.coordinator is CheckoutCoordinator #1, held weakly."))
    let released = try index(of: "CheckoutCoordinator #1 released", in: lines)
    let after = try index(of: "CheckoutScreen #1.coordinator is now nil.", in: lines)
    #expect(released < after)
  }
}
