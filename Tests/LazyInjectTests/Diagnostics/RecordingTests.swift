import Foundation
import LazyInject
import LazyInjectChecks
import Testing

// The recorder: every build between startRecording() and stopRecording(), nested as it ran,
// with its thread, and the waits for other threads' builds; the trace event JSON that Perfetto
// opens, and the summary and chart of LazyInjectChecks. Recording is process-wide, and other
// suites build while these tests record: each test looks only at its own private types.

private final class Session: Sendable {}

private final class Api: Sendable {
  let session: Session
  init(session: Session) { self.session = session }
}

private final class Feed: Sendable {}

/// A build that, when `isGated`, waits for `release`, once it signalled `started`.
private final class Slow: Sendable {
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
private final class Screen: @unchecked Sendable {
  @Lazy var api: Api
  @Lazy var session: Session
  @Lazy var feed: Feed
  @Lazy var slow: Slow
}

/// The builds of this file's types, by their type's name.
private func builds(_ timeline: InitializerRegistry.Timeline) -> [InitializerRegistry.Timeline
  .Build]
{
  timeline.builds.filter { build in
    ["Api", "Session", "Feed", "Slow"].contains { build.rule.propertyTypeName.hasSuffix(".\($0)") }
  }
}

@Suite(.serialized)  // Recording is process-wide: one test records at a time.
struct RecordingTests {
  private static let production: Void = {
    let registry = InitializerRegistry.shared
    registry.register(Session.self) { _ in Session() }
    registry.register(Api.self, in: Screen.self) { screen in Api(session: screen.session) }
    registry.register(Feed.self) { _ async in Feed() }
    registry.register(Slow.self, scope: .recorded) { _ in Slow() }
  }()

  init() { _ = Self.production }

  @Test func eachBuildIsRecordedWithItsContainerPropertyAndParent() throws {
    InitializerRegistry.startRecording()
    _ = Screen().api
    let recorded = builds(InitializerRegistry.stopRecording())
    let api = try #require(recorded.first { $0.rule.propertyTypeName.hasSuffix(".Api") })
    let session = try #require(recorded.first { $0.rule.propertyTypeName.hasSuffix(".Session") })
    #expect(recorded.count == 2)
    #expect(api.entry == .read)
    #expect(api.builtFor.hasSuffix("Screen.api"))
    #expect(api.parentID == nil)
    #expect(session.builtFor.hasSuffix("Screen.session"))
    #expect(session.parentID == api.id)
    #expect(session.thread == api.thread)
    #expect(session.startNanoseconds >= api.startNanoseconds)
    #expect(session.durationNanoseconds <= api.durationNanoseconds)
    #expect(api.selfNanoseconds == api.durationNanoseconds - session.durationNanoseconds)
    #expect(api.rule.scope == .unique)
  }

  @Test func resolveLoadAndPrepareAreRecordedAsTheirEntries() async throws {
    let registry = InitializerRegistry()
    registry.register(Feed.self, scope: .singleton) { () async in Feed() }
    InitializerRegistry.startRecording()
    _ = try InitializerRegistry.shared.resolve(Session.self, for: Screen())
    try await registry.prepare()
    _ = try await Screen().$feed.load()
    let recorded = builds(InitializerRegistry.stopRecording())
    let session = try #require(recorded.first { $0.rule.propertyTypeName.hasSuffix(".Session") })
    #expect(session.entry == .resolve)
    #expect(session.builtFor.hasSuffix("Screen"))
    let prepared = try #require(recorded.first { $0.entry == .prepare })
    #expect(prepared.builtFor == "prepare()")
    #expect(prepared.task != nil)
    let loaded = try #require(recorded.first { $0.entry == .load })
    #expect(loaded.builtFor.hasSuffix("Screen"))
    #expect(recorded.count == 3)
  }

  @Test func aReadThatWaitsForAnotherThreadsBuildIsRecordedAsAWait() throws {
    InitializerRegistry.shared.reset(.recorded)
    Slow.isGated.mutate { $0 = true }
    InitializerRegistry.startRecording()
    runConcurrently(threads: 2) { index in
      if index == 1 {
        Slow.started.wait()  // The other thread builds the singleton.
        Thread.detachNewThread {
          // Released once this thread waits for it (no sleep: the wait is what is awaited).
          while !WaitGraph.isWaiting(for: Slow.self) { sched_yield() }
          Slow.release.signal()
        }
      }
      _ = Screen().slow
    }
    let timeline = InitializerRegistry.stopRecording()
    let wait = try #require(timeline.waits.first { $0.waitedFor.hasSuffix("Screen.slow") })
    #expect(wait.waitedFor.contains("Slow in "))
    #expect(wait.buildID == nil)  // The read built nothing itself.
    let slow = try #require(builds(timeline).first { $0.rule.propertyTypeName.hasSuffix(".Slow") })
    #expect(slow.thread != wait.thread)
    #expect(wait.startNanoseconds >= slow.startNanoseconds)
    let json = timeline.traceEventJSON
    #expect(json.contains("\"name\":\"waiting for "))
  }

  @Test func theTraceEventJSONHasTheRequiredFieldsNestingAndThreads() throws {
    InitializerRegistry.startRecording()
    _ = Screen().api
    runOnThread(stackSize: 1 << 20) { _ = Screen().session }
    let timeline = InitializerRegistry.stopRecording()
    let data = Data(timeline.traceEventJSON.utf8)
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let events = try #require(root["traceEvents"] as? [[String: Any]])
    let complete = events.filter { $0["ph"] as? String == "X" }
    #expect(complete.count == timeline.builds.count + timeline.waits.count)
    for event in complete {
      for field in ["name", "ph", "ts", "dur", "pid", "tid"] {
        #expect(event[field] != nil, "\(field) missing in \(event)")
      }
    }
    let mine = builds(timeline)
    #expect(mine.count == 3)
    func event(of build: InitializerRegistry.Timeline.Build) throws -> [String: Any] {
      try #require(
        complete.first { ($0["args"] as? [String: Any])?["for"] as? String == build.builtFor })
    }
    let api = try event(of: try #require(mine.first { $0.builtFor.hasSuffix("Screen.api") }))
    let nested = try #require(
      mine.first { $0.builtFor.hasSuffix("Screen.session") && $0.parentID != nil })
    let session = try #require(
      complete.first {
        ($0["args"] as? [String: Any])?["for"] as? String == nested.builtFor
          && ($0["tid"] as? Int) == (api["tid"] as? Int)
      })
    let (start, end) = (api["ts"] as! Double, (api["ts"] as! Double) + (api["dur"] as! Double))
    #expect(session["ts"] as! Double >= start)
    #expect((session["ts"] as! Double) + (session["dur"] as! Double) <= end + 0.001)
    let other = try #require(
      mine.first { $0.parentID == nil && $0.builtFor.hasSuffix("Screen.session") })
    #expect(other.thread != nested.thread)
    let tracks = Set(complete.compactMap { $0["tid"] as? Int })
    let named = Set(events.filter { $0["ph"] as? String == "M" }.compactMap { $0["tid"] as? Int })
    #expect(tracks.isSubset(of: named))
  }

  @Test func buildsUnderWayWhenRecordingStopsAreLeftOut() {
    final class Late: Sendable {
      static let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    }
    let registry = InitializerRegistry()
    registry.register(Late.self) { _ in
      Late.started.signal()
      Late.release.wait()
      return Late()
    }
    InitializerRegistry.startRecording()
    let timeline = Locked<InitializerRegistry.Timeline?>(nil)
    runConcurrently(threads: 2) { index in
      if index == 0 {
        _ = try? registry.resolve(Late.self, for: Screen())
      } else {
        Late.started.wait()
        timeline.mutate { $0 = InitializerRegistry.stopRecording() }
        Late.release.signal()
      }
    }
    #expect(
      timeline.value?.builds.contains { $0.rule.propertyTypeName.hasSuffix(".Late") } == false)
  }

  @Test func nothingIsRecordedWhileNobodyRecords() {
    InitializerRegistry.startRecording()
    _ = InitializerRegistry.stopRecording()
    _ = Screen().api
    #expect(InitializerRegistry.stopRecording().builds.isEmpty)
  }

  @Test func theSummaryAndTheChartNameTheBuildsThatTookLong() throws {
    let registry = InitializerRegistry()
    final class Heavy: Sendable {
      init() {
        // About 2 ms of work, so that the chart's 1 ms threshold keeps it.
        let end = DispatchTime.now().uptimeNanoseconds + 2_000_000
        while DispatchTime.now().uptimeNanoseconds < end {}
      }
    }
    registry.register(Heavy.self) { _ in Heavy() }
    InitializerRegistry.startRecording()
    _ = try registry.resolve(Heavy.self, for: Screen())
    let timeline = InitializerRegistry.stopRecording()
    let summary = timeline.summary
    #expect(summary.contains("Time in builds"))
    #expect(summary.contains("Heavy"))
    let chart = timeline.mermaidGantt()
    let lines = chart.split(separator: "\n").map(String.init)
    #expect(lines.first == "gantt")
    #expect(lines.contains { $0.hasPrefix("  dateFormat x") })
    #expect(lines.contains { $0.hasPrefix("  section ") })
    #expect(lines.contains { $0.contains("Heavy") && $0.contains(":") })
    #expect(!timeline.mermaidGantt(minimumMilliseconds: 1e9).contains("Heavy"))
  }
}
