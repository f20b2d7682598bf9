import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Reads racing a reset of their scope, as *Logging In and Out* promises them ("Resets and
// threads"): a read racing the reset returns the old instance or a new one, never a torn value;
// a read that starts after `reset` returns never gets an instance built before it; and nothing
// stops the program. No async rule, no `load()`, no layer: plain `register` with a custom scope,
// so that background threads build the session too.
//
// Each program runs in a child process (an exit test), where a stop fails the test and its
// message is shown. 1.0.0 stopped in both with "load() is building it with an async
// initializer": a reader woken from its wait looked at the slot twice, and a second reader that
// claimed the slot after a reset in between made it take that claim for `load()`'s.

extension InitializerRegistry.Scope {
  fileprivate static let raceSession = Self.custom("ResetRaceTests.session")
}

/// Numbered in build order: `check` is `serial * 7`, so a torn read would find another.
private final class RaceSession: Sendable {
  static let built = Counter()
  let serial: Int
  let check: Int

  init() {
    serial = Self.built.increment()
    check = serial * 7
  }
}

/// Program A's object: the app's coordinator, whose session the threads read.
private final class AppCoordinator: @unchecked Sendable {
  @Lazy var session: RaceSession
}

/// Program B's objects: a strong and a weak property of one scope.
private final class RaceHolder: @unchecked Sendable {
  @Lazy var session: RaceSession
  @WeakLazy var weakSession: RaceSession?
}

/// `plain` rounds, or a tenth of them under a sanitizer, which slows the threads ten times or more.
private func rounds(_ plain: Int) -> Int { isSanitized ? plain / 10 : plain }

/// Reads that started after a reset returned, and the failures they saw.
private final class Promises: Sendable {
  let failures = Locked<[String]>([])

  /// Checks `session`, read after a reset that began when `floor` sessions were built.
  func check(_ session: RaceSession?, readAfterResetAt floor: Int?, by reader: String) {
    guard let session else { return }
    if session.check != session.serial * 7 {
      failures.mutate { $0.append("\(reader) read a torn session \(session.serial)") }
    }
    if let floor, session.serial <= floor {
      failures.mutate {
        $0.append("\(reader) read session \(session.serial), built before the reset at \(floor)")
      }
    }
  }

  /// Exits the child process with the failures, if any.
  func requireNone() {
    let failures = failures.value
    require(failures.isEmpty, "\(failures.count) broken promises: \(failures.prefix(5))")
  }
}

/// Runs `read` in a loop on `threads` threads until `body` returns, then joins them.
private func whileReading(
  threads: Int, _ read: @escaping @Sendable () -> Void, during body: () -> Void
) {
  let done = Locked(false)
  let group = DispatchGroup()
  for _ in 0..<threads {
    group.enter()
    Thread.detachNewThread {
      while !done.value { read() }
      group.leave()
    }
  }
  body()
  done.mutate { $0 = true }
  group.wait()
}

@Suite(.serialized)  // Each program has the two cores to itself: its threads race more.
struct ResetRaceTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    /// Program A: four threads read one object's session while the test logs out and reads.
    @Test func readsOfOneObjectRacingResetsNeverStop() async throws {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        startWatchdog(seconds: 120)
        let registry = InitializerRegistry.shared
        registry.register(RaceSession.self, scope: .raceSession) { _ in RaceSession() }
        let app = AppCoordinator()
        let promises = Promises()
        whileReading(threads: 4) {
          promises.check(app.session, readAfterResetAt: nil, by: "a thread")
        } during: {
          for _ in 0..<rounds(40_000) {
            let floor = RaceSession.built.value
            registry.reset(.raceSession)
            promises.check(app.session, readAfterResetAt: floor, by: "the test")
          }
        }
        promises.requireNone()
        endReportingCompletion()
      }
      expectRanToItsEnd(result)
    }

    /// Program B: four threads read the strong and weak properties of eight objects while the
    /// test resets their scope and reads.
    @Test func readsOfStrongAndWeakPropertiesRacingResetsNeverStop() async throws {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        startWatchdog(seconds: 120)
        let registry = InitializerRegistry.shared
        registry.register(RaceSession.self, scope: .raceSession) { _ in RaceSession() }
        let holders = (0..<8).map { _ in RaceHolder() }
        let promises = Promises()
        // The object whose turn it is, four rounds each: the test resets and reads it, and the
        // threads read it too.
        let turn = Locked(0)
        whileReading(threads: 4) {
          let holder = holders[turn.value]
          promises.check(holder.session, readAfterResetAt: nil, by: "a thread")
          promises.check(holder.weakSession, readAfterResetAt: nil, by: "a thread")
        } during: {
          for round in 0..<rounds(16_000) {
            let index = round / 4 % holders.count
            turn.mutate { $0 = index }
            let floor = RaceSession.built.value
            registry.reset(.raceSession)
            let holder = holders[index]
            promises.check(holder.session, readAfterResetAt: floor, by: "the test")
            promises.check(holder.weakSession, readAfterResetAt: floor, by: "the test")
          }
        }
        promises.requireNone()
        endReportingCompletion()
      }
      expectRanToItsEnd(result)
    }
  #endif
}
