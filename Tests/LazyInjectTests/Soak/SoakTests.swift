import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Everything that may run at once, run at once, for as long as `LAZYINJECT_SOAK_SECONDS` says
// (3 s unless set): first and hot reads of `@Lazy` and `@WeakLazy` properties of many objects
// (unique, singleton, weak and custom scopes, an optional, a protocol through a forward, a rule
// for one property) on eight threads; resets of each scope and `resetAllScopes()`; tasks that
// make override layers and register in them, `load()` and `prepare()` async rules; recording
// started and stopped. After each operation it checks what the docs promise:
//
// - a value is never torn;
// - a read that starts after a reset returned never gets an instance built before that reset;
// - per rule and reset count, reads see one instance (one built across a reset goes only to
//   the read that asked for it, which is then no read that started after the reset);
// - a property holds its `.unique` value until it is reset;
// - a task's layer is never seen by another task, nor by code outside layers;
// - an object released by everything that held it is deallocated (observed weakly, at the end).
//
// It runs in a child process (an exit test): a stop, or a broken promise, fails the test and
// shows each thread's and task's last operations (`SoakLog`).

extension InitializerRegistry.Scope {
  fileprivate static let soakSession = Self.custom("SoakTests.session")
  fileprivate static let soakAccount = Self.custom("SoakTests.account")
}

/// The scopes the soak resets, and the resets of each that began and ended.
private enum SoakScope: Int, CaseIterable {
  case singleton, weak, session, account

  var scope: InitializerRegistry.Scope {
    switch self {
    case .singleton: .singleton
    case .weak: .weak
    case .session: .soakSession
    case .account: .soakAccount
    }
  }
}

/// How many resets of each scope began and ended.
private final class ResetCounts: Sendable {
  private let counts = Locked(
    Array(repeating: (begun: 0, ended: 0), count: SoakScope.allCases.count))

  func snapshot(_ scope: SoakScope) -> (begun: Int, ended: Int) { counts.value[scope.rawValue] }

  /// Runs `reset`, counted as a reset of each of `scopes`.
  func resetting(_ scopes: [SoakScope], _ reset: () -> Void) {
    counts.mutate { counts in for scope in scopes { counts[scope.rawValue].begun += 1 } }
    reset()
    counts.mutate { counts in for scope in scopes { counts[scope.rawValue].ended += 1 } }
  }
}

private let resetCounts = ResetCounts()

/// Every value the soak builds: numbered, with a check that a torn read would break, the layer
/// whose rule built it (0: the registry's), and the resets of its scope begun when it was built.
private class SoakValue: @unchecked Sendable {
  static let built = Counter()
  /// Every hundredth value, held weakly: all are gone once everything that held them is.
  static let sample = Locked<[Weak]>([])

  let serial: Int
  let check: Int
  let layer: Int
  let resetsBegun: Int

  init(scope: SoakScope?, layer: Int = 0) {
    serial = Self.built.increment()
    check = serial &* 7
    self.layer = layer
    resetsBegun = scope.map { resetCounts.snapshot($0).begun } ?? 0
    if serial % 100 == 0 {
      Self.sample.mutate { sample in
        if sample.count < 100_000 { sample.append(Weak(self)) }
      }
    }
  }
}

private struct Weak: @unchecked Sendable {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

private final class UniqueService: SoakValue, @unchecked Sendable {}
private final class SingletonService: SoakValue, @unchecked Sendable {}
private final class WeakService: SoakValue, @unchecked Sendable {}
private final class SessionService: SoakValue, @unchecked Sendable {}
private final class Account: SoakValue, @unchecked Sendable {}
private protocol Tracking: AnyObject, Sendable {}
private final class TrackingService: SoakValue, Tracking, @unchecked Sendable {}
private final class AuditLog: SoakValue, @unchecked Sendable {}
private final class RemoteConfig: SoakValue, @unchecked Sendable {}
private final class Avatar: SoakValue, @unchecked Sendable {
  let owner: Int
  init(owner: Int) {
    self.owner = owner
    super.init(scope: nil)
  }
}

/// An object of the app, read by every thread: `@Lazy` guards its slots.
private final class Screen: @unchecked Sendable {
  @Lazy var unique: UniqueService
  @Lazy var singleton: SingletonService
  @Lazy var shared: WeakService
  @WeakLazy var weakSession: SessionService?
  @Lazy var session: SessionService
  @Lazy var account: Account?
  @Lazy var tracking: any Tracking
  @Lazy var audit: AuditLog
}

/// An object whose properties async rules serve: only `load()` reads them.
private final class LoadingScreen: @unchecked Sendable {
  static let made = Counter()
  let number = LoadingScreen.made.increment()
  @Lazy var avatar: Avatar
  @Lazy var config: RemoteConfig
}

/// The production rules.
private func registerRules() {
  let registry = InitializerRegistry.shared
  registry.register(UniqueService.self) { _ in UniqueService(scope: nil) }
  registry.register(SingletonService.self, scope: .singleton) { _ in
    SingletonService(scope: .singleton)
  }
  registry.register(WeakService.self, scope: .weak) { _ in WeakService(scope: .weak) }
  registry.register(SessionService.self, scope: .soakSession) { _ in
    SessionService(scope: .session)
  }
  registry.register(Account?.self, scope: .soakAccount) { _ in Account(scope: .account) }
  registry.register(TrackingService.self, scope: .soakSession) { _ in
    TrackingService(scope: .session)
  }
  registry.forward((any Tracking).self, to: TrackingService.self)
  registry.register(\Screen.$audit) { _ in AuditLog(scope: nil) }
  registry.register(Avatar.self, in: LoadingScreen.self) { screen in
    await Task.yield()
    return Avatar(owner: screen.number)
  }
  registry.register(RemoteConfig.self, scope: .soakAccount) {
    await Task.yield()
    return RemoteConfig(scope: .account)
  }
}

/// What the reads of the registry saw: for each rule and count of ended resets, the instance
/// that reads with no reset around them got.
private final class Promises: Sendable {
  let log: SoakLog
  private let epochs = Locked<[String: (ended: Int, serial: Int)]>([:])
  let broken = Locked<[String]>([])

  init(log: SoakLog) { self.log = log }

  func fail(_ track: Int, _ text: String) {
    log.note(track, .brokenPromise)
    broken.mutate { $0.append(text) }
  }

  /// Reads `value` with `read` on `track` outside every layer, and checks the promises of a
  /// value of `scope` (nil: `.unique`) that `rule` builds.
  @discardableResult
  func read<Value: SoakValue>(
    _ track: Int, _ rule: String, scope: SoakScope?, _ read: () -> Value?
  ) -> Value? {
    let before = scope.map(resetCounts.snapshot)
    let value = read()
    let after = scope.map(resetCounts.snapshot)
    guard let value else { return nil }
    check(track, value, layer: 0, "\(rule) outside every layer")
    guard let scope, let before, let after else { return value }
    if value.resetsBegun < before.ended {
      fail(
        track,
        "\(rule) #\(value.serial), built before reset \(value.resetsBegun + 1) of \(scope),"
          + " was read after \(before.ended) resets ended")
    }
    // A read with no reset under way around it sees the one instance of its reset count.
    let isQuiet = before.begun == before.ended && after.begun == before.ended
    guard isQuiet, scope != .weak else { return value }
    let seen = epochs.withLock { epochs in
      if let seen = epochs[rule], seen.ended == before.ended { return seen.serial }
      epochs[rule] = (before.ended, value.serial)
      return value.serial
    }
    if seen != value.serial {
      fail(
        track,
        "\(rule): two instances, #\(seen) and #\(value.serial), after \(before.ended) resets")
    }
    return value
  }

  /// Checks that `value` is whole and that the layer `layer` (0: none) or the registry built it.
  func check(_ track: Int, _ value: SoakValue, layer: Int, _ what: String) {
    if value.check != value.serial &* 7 {
      fail(track, "\(what): a torn value #\(value.serial)")
    }
    if value.layer != 0 && value.layer != layer {
      fail(track, "\(what): the value #\(value.serial) of the layer \(value.layer)")
    }
  }
}

/// The soak's shared objects: a pool of screens that threads read and replace.
private final class Pool: Sendable {
  private let screens = Locked((0..<64).map { _ in Screen() })
  /// Screens replaced in the pool, held weakly: all are gone once the threads have ended.
  let replaced = Locked<[Weak]>([])

  func screen(_ index: Int) -> Screen { screens.value[index % 64] }

  func replace(_ index: Int) {
    let old = screens.withLock { screens in
      let old = screens[index % 64]
      screens[index % 64] = Screen()
      return old
    }
    replaced.mutate { replaced in
      if replaced.count < 4_096 { replaced.append(Weak(old)) }
    }
  }

  func empty() { screens.mutate { $0 = [] } }
}

/// A source of pseudo-random numbers, one per track, so that a run can be replayed in thought.
private struct Dice {
  var state: UInt64
  mutating func roll(_ sides: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(sides))
  }
}

/// One thread's operations until `deadline`.
private func runThread(
  _ track: Int, pool: Pool, promises: Promises, deadline: ContinuousClock.Instant
) {
  var dice = Dice(state: UInt64(track + 1) &* 0x9E37_79B9_7F4A_7C15)
  let log = promises.log
  /// Reads with `read` on `track`, noted as `operation` on the object `index`, and checks it.
  func read<Value: SoakValue>(
    _ operation: SoakLog.Operation, _ index: Int, _ rule: String, scope: SoakScope?,
    _ read: () -> Value?
  ) -> Value? {
    log.note(track, operation, subject: index)
    let value = promises.read(track, rule, scope: scope, read)
    log.noteValue(track, serial: value?.serial ?? 0)
    return value
  }
  while ContinuousClock.now < deadline {
    let index = dice.roll(64)
    let screen = pool.screen(index)
    switch dice.roll(100) {
    case 0..<12:
      let value = read(.firstRead, index, "UniqueService", scope: nil) { screen.unique }
      // Hot reads: the slot keeps its value.
      log.note(track, .hotReads, subject: index)
      for _ in 0..<16 {
        if screen.unique !== value {
          promises.fail(track, "a unique value changed with no reset of the property")
        }
      }
    case 12..<22:
      _ = read(.firstRead, index, "SingletonService", scope: .singleton) { screen.singleton }
    case 22..<32:
      _ = read(.firstRead, index, "WeakService", scope: .weak) { screen.shared }
    case 32..<44:
      _ = read(.firstRead, index, "SessionService", scope: .session) { screen.session }
    case 44..<54:
      _ = read(.weakRead, index, "SessionService", scope: .session) { screen.weakSession }
    case 54..<64:
      let value = read(.firstRead, index, "Account", scope: .account) { screen.account }
      if value == nil { promises.fail(track, "the account rule's value was nil") }
    case 64..<74:
      let value = read(.firstRead, index, "TrackingService", scope: .session) {
        screen.tracking as? TrackingService
      }
      if value == nil { promises.fail(track, "the forward gave no TrackingService") }
    case 74..<82:
      _ = read(.firstRead, index, "AuditLog", scope: nil) { screen.audit }
    case 82..<88:
      log.note(track, .replaceObject, subject: index)
      pool.replace(index)
    case 88..<97:
      let scope = SoakScope.allCases[dice.roll(SoakScope.allCases.count)]
      log.note(track, .reset, subject: scope.rawValue)
      resetCounts.resetting([scope]) { InitializerRegistry.shared.reset(scope.scope) }
    case 97:
      log.note(track, .resetAllScopes)
      resetCounts.resetting(SoakScope.allCases) { InitializerRegistry.shared.resetAllScopes() }
    default:
      guard track == 0 else { continue }
      log.note(track, .startRecording)
      InitializerRegistry.startRecording()
      for _ in 0..<8 {
        _ = read(.firstRead, -1, "UniqueService", scope: nil) { Screen().unique }
      }
      log.note(track, .stopRecording)
      let timeline = InitializerRegistry.stopRecording()
      log.noteValue(track, serial: timeline.builds.count)
    }
  }
}

/// One task's operations until `deadline`: layers (after half the run, so that the first half
/// takes the fast path of first reads), `load()` and `prepare()`.
private func runTask(
  _ track: Int, layerNumbers: Counter, promises: Promises, deadline: ContinuousClock.Instant,
  layersFrom: ContinuousClock.Instant
) async {
  var dice = Dice(state: UInt64(track + 1) &* 0xD1B5_4A32_D192_ED03)
  let log = promises.log
  let registry = InitializerRegistry.shared
  while ContinuousClock.now < deadline {
    switch dice.roll(3) {
    case 0 where ContinuousClock.now >= layersFrom:
      let layer = layerNumbers.increment()
      log.note(track, .layer, subject: layer)
      await registry.withOverrides {
        $0.register(SessionService.self, scope: .soakSession) { _ in
          SessionService(scope: nil, layer: layer)
        }
      } operation: {
        // Registered in the layer in force, below its configure's rules.
        registry.register(UniqueService.self) { _ in UniqueService(scope: nil, layer: layer) }
        await Task.yield()
        let screen = Screen()
        log.note(track, .layerRead, subject: layer)
        for value in [screen.session, screen.unique, screen.weakSession] as [SoakValue?] {
          guard let value else { continue }
          promises.check(track, value, layer: layer, "a read in layer \(layer)")
          if value.layer != layer {
            promises.fail(track, "a read in layer \(layer) missed its rule: #\(value.serial)")
          }
          log.noteValue(track, serial: value.serial)
        }
        // A registry rule that no layer overrides serves the layer too.
        promises.check(track, screen.singleton, layer: layer, "a singleton in layer \(layer)")
      }
    case 1:
      let screen = LoadingScreen()
      log.note(track, .load, subject: screen.number)
      do {
        let avatar = try await screen.$avatar.load()
        if avatar.owner != screen.number {
          promises.fail(track, "load() gave the avatar of \(avatar.owner) to \(screen.number)")
        }
        let before = resetCounts.snapshot(.account)
        let config = try await screen.$config.load()
        promises.check(track, config, layer: 0, "a loaded RemoteConfig")
        if config.resetsBegun < before.ended {
          promises.fail(track, "load() got RemoteConfig #\(config.serial) built before a reset")
        }
        log.noteValue(track, serial: config.serial)
      } catch {
        promises.fail(track, "load() threw \(error)")
      }
    default:
      log.note(track, .prepare)
      do {
        try await registry.prepare()
      } catch {
        promises.fail(track, "prepare() threw \(error)")
      }
    }
  }
}

/// The soak's length: `LAZYINJECT_SOAK_SECONDS`, or 3 s.
private var soakSeconds: Int {
  ProcessInfo.processInfo.environment["LAZYINJECT_SOAK_SECONDS"].flatMap { Int($0) } ?? 3
}

struct SoakTests {
  // An exit test: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func everythingThatMayRunAtOnceKeepsEveryPromise() async throws {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let seconds = soakSeconds
        startWatchdog(seconds: seconds + 120)
        let threads = 8
        let tasks = 4
        let log = SoakLog(
          trackNames: [
            "thread 0", "thread 1", "thread 2", "thread 3", "thread 4", "thread 5", "thread 6",
            "thread 7", "task 0", "task 1", "task 2", "task 3",
          ])
        writeOutOnStop(log)
        registerRules()
        let promises = Promises(log: log)
        let pool = Pool()
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let group = DispatchGroup()
        for track in 0..<threads {
          group.enter()
          Thread.detachNewThread {
            runThread(track, pool: pool, promises: promises, deadline: deadline)
            group.leave()
          }
        }
        let layerNumbers = Counter()
        await withTaskGroup(of: Void.self) { tasksGroup in
          for task in 0..<tasks {
            tasksGroup.addTask {
              await runTask(
                threads + task, layerNumbers: layerNumbers, promises: promises,
                deadline: deadline, layersFrom: start + .seconds(seconds) / 2)
            }
          }
        }
        group.wait()
        // Everything that held the replaced screens and the values has ended.
        pool.empty()
        resetCounts.resetting(SoakScope.allCases) { InitializerRegistry.shared.resetAllScopes() }
        let screensAlive = pool.replaced.value.filter { $0.object != nil }.count
        let valuesAlive = SoakValue.sample.value.filter { $0.object != nil }.count
        if screensAlive > 0 { promises.fail(0, "\(screensAlive) replaced screens are alive") }
        if valuesAlive > 0 { promises.fail(0, "\(valuesAlive) released values are alive") }
        let operations = (0..<threads + tasks).map(log.count(of:)).reduce(0, +)
        let summary =
          "soak: \(seconds) s, \(operations) operations on \(threads) threads and \(tasks)"
          + " tasks, \(SoakValue.built.value) values built, \(layerNumbers.value) layers"
        FileHandle.standardError.write(Data("\(summary)\n".utf8))
        let broken = promises.broken.value
        if !broken.isEmpty {
          log.writeOut()
          failExitTest("\(broken.count) broken promises: \(broken.prefix(10))")
        }
        endReportingCompletion()
      }
      expectRanToItsEnd(result)
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      // The summary, for runs that set the length.
      if ProcessInfo.processInfo.environment["LAZYINJECT_SOAK_SECONDS"] != nil {
        print(output.split(separator: "\n").filter { $0.hasPrefix("soak: ") }.joined())
      }
    }
  #endif
}
