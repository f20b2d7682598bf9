import Foundation
import LazyInject
import LazyInjectChecks
import Testing

// The recorder: every build between startRecording() and stopRecording(), nested as it ran,
// with its thread, and the waits for other threads' builds; the trace event JSON that Perfetto
// opens, and the summary and chart of LazyInjectChecks. Recording is process-wide, and other
// suites build while these tests record: each test looks only at its own private types.

private final class RecordedSession: Sendable {}

extension WaitGraph {
  /// Whether a thread or task waits for a build under way of a `property` value.
  fileprivate static func isWaiting(for property: Any.Type) -> Bool {
    waiters.withLock { waiters in
      waiters.contains {
        guard case .property(let type, _, _)? = $0.chain.last?.what else { return false }
        return type == property
      }
    }
  }
}

private final class RecordedApi: Sendable {
  let session: RecordedSession
  init(session: RecordedSession) { self.session = session }
}

private final class RecordedFeed: Sendable {}

/// A build that, when `isGated`, waits for `release`, once it signalled `started`.
private final class RecordedSlow: Sendable {
  static let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
  static let isGated = Locked(false)

  init() {
    let isGated = Self.isGated.withLock { isGated in
      defer { isGated = false }
      return isGated
    }
    if isGated {
      Self.started.signal()
      Self.release.wait()
    }
  }
}

extension InitializerRegistry.Scope {
  fileprivate static let recorded = Self.custom("RecordingTests.recorded")
}

/// `@Lazy` guards its slots against the threads that read them.
private final class RecordedScreen: @unchecked Sendable {
  @Lazy var api: RecordedApi
  @Lazy var session: RecordedSession
  @Lazy var feed: RecordedFeed
  @Lazy var slow: RecordedSlow
}

/// The builds of this file's types, by their type's name.
private func builds(_ timeline: InitializerRegistry.Timeline) -> [InitializerRegistry.Timeline
  .Build]
{
  timeline.builds.filter { build in
    ["RecordedApi", "RecordedSession", "RecordedFeed", "RecordedSlow"].contains {
      build.rule.propertyTypeName == "LazyInjectTests.\($0)"
    }
  }
}

@Suite(.serialized)  // Recording is process-wide: one test records at a time.
struct RecordingTests {
  private static let production: Void = {
    let registry = InitializerRegistry.shared
    registry.register(RecordedSession.self) { _ in RecordedSession() }
    registry.register(RecordedApi.self, in: RecordedScreen.self) { screen in
      RecordedApi(session: screen.session)
    }
    registry.register(RecordedFeed.self) { _ async in RecordedFeed() }
    registry.register(RecordedSlow.self, scope: .recorded) { _ in RecordedSlow() }
  }()

  init() { _ = Self.production }

  @Test func eachBuildIsRecordedWithItsContainerPropertyAndParent() throws {
    InitializerRegistry.startRecording()
    _ = RecordedScreen().api
    let timeline = InitializerRegistry.stopRecording()
    let recorded = builds(timeline)
    let api = try #require(recorded.first { $0.rule.propertyTypeName.hasSuffix(".RecordedApi") })
    let session = try #require(
      recorded.first { $0.rule.propertyTypeName.hasSuffix(".RecordedSession") })
    #expect(recorded.count == 2)
    #expect(api.trigger == .read)
    #expect(api.builtFor.hasSuffix("RecordedScreen.api"))
    #expect(timeline.parent(of: api) == nil)
    #expect(session.builtFor.hasSuffix("RecordedScreen.session"))
    #expect(timeline.parent(of: session)?.id == api.id)
    #expect(session.track == api.track)
    #expect(session.startNanoseconds >= api.startNanoseconds)
    #expect(session.durationNanoseconds <= api.durationNanoseconds)
    #expect(
      timeline.ownNanoseconds(of: api) == api.durationNanoseconds - session.durationNanoseconds)
    #expect(api.rule.scope == .unique)
  }

  /// Stopping a recording names nothing: a build is named when read, by what its record keeps,
  /// which outlives its rule.
  @Test func aBuildNamesItsRuleAndContainerWhenReadAfterItsRuleIsGone() throws {
    let registry = InitializerRegistry()
    registry.register(RecordedFeed.self, in: RecordedScreen.self) { _ in RecordedFeed() }
    InitializerRegistry.startRecording()
    _ = try registry.resolve(RecordedFeed.self, for: RecordedScreen())
    let timeline = InitializerRegistry.stopRecording()
    registry.unregisterAll()
    let build = try #require(builds(timeline).first)
    #expect(builds(timeline).count == 1)
    #expect(build.rule.propertyTypeName == "LazyInjectTests.RecordedFeed")
    #expect(build.rule.containerTypeName == "LazyInjectTests.RecordedScreen")
    #expect(build.builtFor == "LazyInjectTests.RecordedScreen")
    #expect(build.trigger == .resolve)
  }

  @Test func resolveLoadAndPrepareAreRecordedAsTheirEntries() async throws {
    let registry = InitializerRegistry()
    registry.register(RecordedFeed.self, scope: .singleton) { () async in RecordedFeed() }
    InitializerRegistry.startRecording()
    _ = try InitializerRegistry.shared.resolve(RecordedSession.self, for: RecordedScreen())
    try await registry.prepare()
    _ = try await RecordedScreen().$feed.load()
    let recorded = builds(InitializerRegistry.stopRecording())
    let session = try #require(
      recorded.first { $0.rule.propertyTypeName.hasSuffix(".RecordedSession") })
    #expect(session.trigger == .resolve)
    #expect(session.builtFor.hasSuffix("RecordedScreen"))
    let prepared = try #require(recorded.first { $0.trigger == .prepare })
    #expect(prepared.builtFor == "prepare()")
    guard case .task = prepared.track else {
      Issue.record("an async build on \(prepared.track), not on its task's track")
      return
    }
    let loaded = try #require(recorded.first { $0.trigger == .load })
    #expect(loaded.builtFor.hasSuffix("RecordedScreen"))
    #expect(recorded.count == 3)
  }

  @Test func aReadThatWaitsForAnotherThreadsBuildIsRecordedAsAWait() throws {
    InitializerRegistry.shared.reset(.recorded)
    RecordedSlow.isGated.mutate { $0 = true }
    InitializerRegistry.startRecording()
    runConcurrently(threads: 2) { index in
      if index == 1 {
        RecordedSlow.started.wait()  // The other thread builds the singleton.
        Thread.detachNewThread {
          // Released once this thread waits for it (no sleep: the wait is what is awaited).
          while !WaitGraph.isWaiting(for: RecordedSlow.self) { sched_yield() }
          RecordedSlow.release.signal()
        }
      }
      _ = RecordedScreen().slow
    }
    let timeline = InitializerRegistry.stopRecording()
    let wait = try #require(timeline.waits.first { $0.waitedFor.hasSuffix("RecordedScreen.slow") })
    #expect(wait.waitedFor.contains("RecordedSlow in "))
    let slow = try #require(
      builds(timeline).first { $0.rule.propertyTypeName.hasSuffix(".RecordedSlow") })
    #expect(slow.track != wait.track)
    #expect(wait.startNanoseconds >= slow.startNanoseconds)
    #expect(timeline.waitNanoseconds(of: slow) == 0)  // The builder waited for no one.
    let json = timeline.traceEventJSON
    #expect(json.contains("\"name\":\"waiting for "))
    #expect(timeline.summary.contains("Waits for another thread's build:"))
  }

  @Test func theTraceEventJSONHasTheRequiredFieldsNestingAndThreads() throws {
    InitializerRegistry.startRecording()
    _ = RecordedScreen().api
    runOnThread(stackSize: 1 << 20) { _ = RecordedScreen().session }
    let timeline = InitializerRegistry.stopRecording()
    let data = Data(timeline.traceEventJSON.utf8)
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let events = try #require(root["traceEvents"] as? [[String: Any]])
    let complete = events.filter { $0["ph"] as? String == "X" }
    // A build whose rule has a hook has an event of its own for the hook (another suite's).
    let hooks = timeline.builds.filter { $0.afterBuildNanoseconds > 0 }.count
    #expect(complete.count == timeline.builds.count + hooks + timeline.waits.count)
    for event in complete {
      for field in ["name", "ph", "ts", "dur", "pid", "tid"] {
        #expect(event[field] != nil, "\(field) missing in \(event)")
      }
    }
    func event(named suffix: String) -> [[String: Any]] {
      complete.filter { ($0["name"] as? String)?.hasSuffix(suffix) == true }
    }
    let api = try #require(event(named: "RecordedScreen.api").first)
    let sessions = event(named: "RecordedScreen.session")
    #expect(sessions.count == 2)
    let nested = try #require(sessions.first { $0["tid"] as? Int == api["tid"] as? Int })
    let other = try #require(sessions.first { $0["tid"] as? Int != api["tid"] as? Int })
    let (start, end) = (api["ts"] as! Double, (api["ts"] as! Double) + (api["dur"] as! Double))
    #expect(nested["ts"] as! Double >= start)
    #expect((nested["ts"] as! Double) + (nested["dur"] as! Double) <= end + 0.001)
    #expect((other["ts"] as! Double) >= end)  // Read on the other thread afterwards.
    let tracks = Set(complete.compactMap { $0["tid"] as? Int })
    let named = Set(events.filter { $0["ph"] as? String == "M" }.compactMap { $0["tid"] as? Int })
    #expect(tracks == named)
  }

  @Test func buildsUnderWayWhenRecordingStopsAreLeftOut() {
    final class RecordedLate: Sendable {
      static let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    }
    let registry = InitializerRegistry()
    registry.register(RecordedLate.self) { _ in
      RecordedLate.started.signal()
      RecordedLate.release.wait()
      return RecordedLate()
    }
    InitializerRegistry.startRecording()
    let timeline = Locked<InitializerRegistry.Timeline?>(nil)
    runConcurrently(threads: 2) { index in
      if index == 0 {
        _ = try? registry.resolve(RecordedLate.self, for: RecordedScreen())
      } else {
        RecordedLate.started.wait()
        timeline.mutate { $0 = InitializerRegistry.stopRecording() }
        RecordedLate.release.signal()
      }
    }
    #expect(
      timeline.value?.builds.contains { $0.rule.propertyTypeName.hasSuffix(".RecordedLate") }
        == false)
  }

  @Test func aBuildUnderWayWhenRecordingStartsOverIsLeftOut() {
    InitializerRegistry.shared.reset(.recorded)
    RecordedSlow.isGated.mutate { $0 = true }
    InitializerRegistry.startRecording()
    runConcurrently(threads: 2) { index in
      if index == 0 {
        _ = RecordedScreen().slow
      } else {
        RecordedSlow.started.wait()
        InitializerRegistry.startRecording()
        RecordedSlow.release.signal()
      }
    }
    _ = RecordedScreen().session
    let names = builds(InitializerRegistry.stopRecording()).map(\.rule.propertyTypeName)
    #expect(!names.contains("LazyInjectTests.RecordedSlow"))
    #expect(names.contains("LazyInjectTests.RecordedSession"))
  }

  @Test func nothingIsRecordedWhileNobodyRecords() {
    InitializerRegistry.startRecording()
    _ = InitializerRegistry.stopRecording()
    _ = RecordedScreen().api
    #expect(InitializerRegistry.stopRecording().builds.isEmpty)
  }

  @Test func theSummaryAndTheChartNameTheBuildsThatTookLong() throws {
    let registry = InitializerRegistry()
    final class RecordedHeavy: Sendable {
      init() {
        // About 2 ms of work, so that the chart's 1 ms threshold keeps it.
        let end = DispatchTime.now().uptimeNanoseconds + 2_000_000
        while DispatchTime.now().uptimeNanoseconds < end {}
      }
    }
    registry.register(RecordedHeavy.self) { _ in RecordedHeavy() }
    InitializerRegistry.startRecording()
    _ = try registry.resolve(RecordedHeavy.self, for: RecordedScreen())
    let timeline = InitializerRegistry.stopRecording()
    let summary = timeline.summary
    #expect(summary.contains("Time in builds"))
    #expect(summary.contains("RecordedHeavy"))
    let heavy = try #require(
      timeline.builds.first { $0.rule.propertyTypeName.hasSuffix("RecordedHeavy") })
    #expect(timeline.ownNanoseconds(of: heavy) == heavy.durationNanoseconds)
    let chart = timeline.mermaidGantt()
    let lines = chart.split(separator: "\n").map(String.init)
    #expect(lines.first == "gantt")
    #expect(lines.contains { $0.hasPrefix("  dateFormat x") })
    #expect(lines.contains { $0.hasPrefix("  section ") })
    #expect(lines.contains { $0.contains("RecordedHeavy") && $0.contains(":") })
    #expect(!timeline.mermaidGantt(minimumMilliseconds: 1e9).contains("RecordedHeavy"))
  }
}
