import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectTestSupport
import Testing

// Async initializers: registered in every form, built by `prepare()` and `$property.load()`,
// read synchronously once their scope keeps the instance. Rules go in override layers, the
// calling task's own, so that parallel tests never see each other's; exit tests use the shared
// registry in a fresh process.

private final class Database: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

private final class Avatar: Sendable {
  let owner: Int
  init(owner: Int) { self.owner = owner }
}

private struct OpeningFailed: Error {}

// Shared with tasks and threads on purpose: `@Lazy` guards its slots, which is what these tests
// check; the screens have no other mutable state.
private final class DatabaseScreen: @unchecked Sendable {
  @Lazy var database: Database
}

private final class ProfileScreen: @unchecked Sendable {
  let user: Int
  @Lazy var avatar: Avatar
  init(user: Int = 7) { self.user = user }
}

private protocol Storage: AnyObject, Sendable {}
extension Database: Storage {}

private final class StorageScreen: @unchecked Sendable {
  @Lazy var storage: any Storage
}

/// A distinct type for each of several rules with no sender.
private final class Shard<Tag>: Sendable {}
private enum Tag1 {}
private enum Tag2 {}
private enum Tag3 {}
private enum Tag4 {}

/// Lets tasks wait until `count` of them have arrived: a preparation that ran its initializers
/// one after another would never get them all there.
private actor Barrier {
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private let count: Int
  init(count: Int) { self.count = count }

  func arrive() async {
    if waiting.count + 1 == count {
      for task in waiting { task.resume() }
      waiting = []
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }
}

private let registry = InitializerRegistry.shared

/// Registers an async initializer of `Avatar` for profile screens that counts its builds.
private func registerCountedAvatar(in registry: InitializerRegistry, counting built: Counter) {
  registry.register(Avatar.self, in: ProfileScreen.self) { screen in
    await Task.yield()
    built.increment()
    return Avatar(owner: screen.user)
  }
}

/// The error `body` throws, if any.
private func outcome(_ body: () async throws -> Void) async -> (any Error)? {
  do {
    try await body()
    return nil
  } catch { return error }
}

struct AsyncInitializerTests {
  @Test func preparedSingletonIsWhatSynchronousReadsReturn() async throws {
    let opened = Counter()
    try await registry.withOverrides {
      $0.register(Database.self, scope: .singleton) {
        await Task.yield()
        return Database(serial: opened.increment())
      }
    } operation: {
      try await registry.prepare()
      let (first, second) = (DatabaseScreen(), DatabaseScreen())
      #expect(first.database === second.database)
      #expect(opened.value == 1)
      #expect(first.$database.rule?.isAsync == true)
      // Prepared again: kept already, not rebuilt.
      try await registry.prepare()
      #expect(opened.value == 1)
    }
  }

  @Test func loadAwaitsAnInitializerWithItsSenderAndKeepsTheValue() async throws {
    let built = Counter()
    try await registry.withOverrides {
      registerCountedAvatar(in: $0, counting: built)
    } operation: {
      let screen = ProfileScreen(user: 42)
      #expect(!screen.$avatar.isResolved)
      let avatar = try await screen.$avatar.load()
      #expect(avatar.owner == 42)
      #expect(screen.avatar === avatar)  // A plain read: the kept value.
      let again = try await screen.$avatar.load()
      #expect(again === avatar)
      #expect(built.value == 1)
      #expect(screen.$avatar.rule?.isAsync == true)
    }
  }

  @Test func loadOfAPropertyWithASynchronousRuleResolvesItAsAReadWould() async throws {
    try await registry.withOverrides {
      $0.register(Avatar.self, in: ProfileScreen.self) { screen in Avatar(owner: screen.user) }
    } operation: {
      let screen = ProfileScreen(user: 3)
      #expect(screen.$avatar.rule == nil)
      let avatar = try await screen.$avatar.load()
      #expect(avatar.owner == 3)
      #expect(screen.$avatar.rule?.isAsync == false)
    }
  }

  @Test func asyncRuleForOnePropertyIsLoaded() async throws {
    try await registry.withOverrides {
      $0.register(\ProfileScreen.$avatar) { screen in
        await Task.yield()
        return Avatar(owner: screen.user + 1)
      }
    } operation: {
      let avatar = try await ProfileScreen(user: 1).$avatar.load()
      #expect(avatar.owner == 2)
    }
  }

  @Test func loadThrowsWhereAReadWouldStopAndLeavesThePropertyUnresolved() async throws {
    let screen = DatabaseScreen()  // No rule serves `Database`, which has no `init()`.
    let error = try await #require(throws: ResolutionError.self) {
      try await screen.$database.load()
    }
    #expect(error.kind == .missingInitializer)
    #expect(error.description.contains("DatabaseScreen"))
    #expect(!screen.$database.isResolved)
  }

  /// The main actor runs its jobs on the main queue, whichever thread drains it: the queue's
  /// specific value tells where an initializer runs.
  @Test @MainActor func nonisolatedInitializerRunsOffTheMainActor() async throws {
    let onMainQueue = Locked<Bool?>(nil)
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
    #expect(DispatchQueue.getSpecific(key: key) == true)
    try await registry.withOverrides {
      $0.register(Avatar.self, in: ProfileScreen.self) { screen in
        await Task.yield()  // An async rule: a closure that does not await registers a sync one.
        onMainQueue.mutate { $0 = DispatchQueue.getSpecific(key: key) ?? false }
        return Avatar(owner: screen.user)
      }
    } operation: {
      _ = try await ProfileScreen().$avatar.load()
    }
    #expect(onMainQueue.value == false)
  }

  /// `load()` resolves where it is called, as a read does: a `registerOnMainActor` rule serves a
  /// `load()` made on the main actor.
  @Test @MainActor func loadOnTheMainActorUsesAMainActorRule() async throws {
    try await registry.withOverrides {
      $0.registerOnMainActor(Avatar.self, in: ProfileScreen.self) { screen in
        MainActor.assertIsolated()
        return Avatar(owner: screen.user)
      }
    } operation: {
      let screen = ProfileScreen(user: 4)
      let avatar = try await screen.$avatar.load()
      #expect(avatar.owner == 4)
      #expect(screen.$avatar.rule?.isMainActor == true)
    }
  }

  @Test func loadFollowsAForwardToAnAsyncRuleAndKeepsTheForwardAsTheRule() async throws {
    try await registry.withOverrides {
      $0.register(Database.self, in: StorageScreen.self) { _ in
        await Task.yield()
        return Database(serial: 9)
      }
      $0.forward((any Storage).self, to: Database.self)
    } operation: {
      let screen = StorageScreen()
      let storage = try await screen.$storage.load()
      #expect((storage as? Database)?.serial == 9)
      #expect(screen.storage === storage)
      #expect(screen.$storage.rule?.forwardTargetTypeName?.hasSuffix("Database") == true)
    }
  }

  @Test func synchronousClosuresStillRegisterSynchronousRules() throws {
    registry.withOverrides {
      $0.register(Database.self) { _ in Database(serial: 1) }
      $0.register(Avatar.self, in: ProfileScreen.self) { screen in Avatar(owner: screen.user) }
    } operation: {
      // Read with no prepare() and no load(): the rules are synchronous.
      #expect(DatabaseScreen().database.serial == 1)
      #expect(ProfileScreen(user: 5).avatar.owner == 5)
    }
  }

  @Test func resolveOfAnAsyncRuleWithNothingKeptThrowsWithTheFix() throws {
    let registry = InitializerRegistry()
    registry.register(Database.self, scope: .singleton) {
      await Task.yield()
      return Database(serial: 1)
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Database.self, for: DatabaseScreen())
    }
    #expect(error.kind == .requiresLoad)
    #expect(error.description.contains("its rule is async"))
    #expect(error.description.contains("prepare()"))
    #expect(error.description.contains("$property.load()"))
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func synchronousReadOfAnAsyncRuleWithNothingKeptStopsNamingThePropertyAndTheFix()
      async throws
    {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(Database.self, scope: .singleton) {
            await Task.yield()
            return Database(serial: 1)
          }
          _ = DatabaseScreen().database
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("DatabaseScreen.database synchronously"))
      #expect(output.contains("prepare()"))
    }

    @Test func prepareRunsTheInitializersConcurrently() async throws {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let barrier = Barrier(count: 4)
        let registry = InitializerRegistry.shared
        registry.register(Shard<Tag1>.self, scope: .singleton) {
          await barrier.arrive()
          return Shard()
        }
        registry.register(Shard<Tag2>.self, scope: .singleton) {
          await barrier.arrive()
          return Shard()
        }
        registry.register(Shard<Tag3>.self, scope: .singleton) {
          await barrier.arrive()
          return Shard()
        }
        registry.register(Shard<Tag4>.self, scope: .singleton) {
          await barrier.arrive()
          return Shard()
        }
        do { try await registry.prepare() } catch { failExitTest("prepare threw \(error)") }
      }
    }
  #endif

  @Test func prepareThrowsTheFirstErrorAndKeepsWhatWasBuilt() async throws {
    try await registry.withOverrides {
      $0.register(Database.self, scope: .singleton) { Database(serial: 1) }
      $0.register(Avatar.self, scope: .singleton) { () async throws -> Avatar in
        throw OpeningFailed()
      }
    } operation: {
      let error = try await #require(throws: ResolutionError.self) {
        try await registry.prepare()
      }
      #expect(error.kind == .initializerFailed)
      #expect(error.underlyingError is OpeningFailed)
      #expect(error.description.contains("Avatar"))
      #expect(DatabaseScreen().database.serial == 1)
    }
  }

  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func cancellingThePreparationCancelsItsInitializers() async throws {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.register(Database.self, scope: .singleton) {
          try await Task.sleep(for: .seconds(3600))
          return Database(serial: 1)
        }
        let preparation = Task { try await InitializerRegistry.shared.prepare() }
        preparation.cancel()
        do {
          try await preparation.value
          failExitTest("the preparation finished")
        } catch {
          require(error is CancellationError, "threw \(error)")
        }
      }
    }
  #endif

  @Test func failedLoadLeavesThePropertyUnresolvedAndTheNextLoadTriesAgain() async throws {
    let attempts = Counter()
    try await registry.withOverrides {
      $0.register(Avatar.self, in: ProfileScreen.self) { screen in
        guard attempts.increment() > 1 else { throw OpeningFailed() }
        return Avatar(owner: screen.user)
      }
    } operation: {
      let screen = ProfileScreen(user: 9)
      let error = try await #require(throws: ResolutionError.self) {
        try await screen.$avatar.load()
      }
      #expect(error.underlyingError is OpeningFailed)
      #expect(!screen.$avatar.isResolved)
      let avatar = try await screen.$avatar.load()
      #expect(avatar.owner == 9)
      #expect(attempts.value == 2)
    }
  }

  @Test func concurrentLoadsOfOnePropertyBuildOneValue() async throws {
    let built = Counter()
    try await registry.withOverrides {
      registerCountedAvatar(in: $0, counting: built)
    } operation: {
      for _ in 0..<20 {
        let screen = ProfileScreen()
        let avatars = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
          for _ in 0..<8 { group.addTask { ObjectIdentifier(try await screen.$avatar.load()) } }
          return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(avatars.count == 1)
      }
      #expect(built.value == 20)
    }
  }

  @Test func loadsAndReadsOfASynchronousRuleRaceToOneValue() async throws {
    let built = Counter()
    try await registry.withOverrides {
      $0.register(Avatar.self, in: ProfileScreen.self) { screen in
        built.increment()
        return Avatar(owner: screen.user)
      }
    } operation: {
      for _ in 0..<20 {
        let screen = ProfileScreen()
        let seen = Locked(Set<ObjectIdentifier>())
        async let loaded = screen.$avatar.load()
        runConcurrently(threads: 3) { _ in
          let avatar = screen.avatar
          seen.mutate { $0.insert(ObjectIdentifier(avatar)) }
        }
        let avatar = try await loaded
        seen.mutate { $0.insert(ObjectIdentifier(avatar)) }
        #expect(seen.value.count == 1)
      }
      #expect(built.value == 20)
    }
  }

  @Test func loadsAndReadsOfAPreparedSingletonRaceToIt() async throws {
    try await registry.withOverrides {
      $0.register(Database.self, scope: .singleton) {
        await Task.yield()
        return Database(serial: 1)
      }
    } operation: {
      try await registry.prepare()
      let screens = (0..<8).map { _ in DatabaseScreen() }
      let loaded = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
        for screen in screens {
          group.addTask { ObjectIdentifier(try await screen.$database.load()) }
        }
        return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
      }
      let read = Locked(Set<ObjectIdentifier>())
      runConcurrently(threads: 4) { index in
        let database = screens[index].database
        read.mutate { $0.insert(ObjectIdentifier(database)) }
      }
      #expect(loaded.count == 1 && read.value == loaded)
    }
  }

  @Test func asyncInitializerLoadingItsOwnPropertyReportsTheCycle() async throws {
    try await registry.withOverrides {
      $0.register(Avatar.self, in: ProfileScreen.self) { screen in
        try await screen.$avatar.load()
      }
    } operation: {
      let error = try await #require(throws: ResolutionError.self) {
        try await ProfileScreen().$avatar.load()
      }
      #expect(error.kind == .dependencyCycle)
      #expect(error.description.contains("ProfileScreen.avatar"))
    }
  }

  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func initializersAwaitingEachOtherInTwoTasksReportTheCycleInsteadOfHanging()
      async throws
    {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Database.self, scope: .singleton) {
          _ = try await ProfileScreen().$avatar.load()
          return Database(serial: 1)
        }
        registry.register(Avatar.self, scope: .singleton) {
          _ = try await DatabaseScreen().$database.load()
          return Avatar(owner: 1)
        }
        async let database = outcome { _ = try await DatabaseScreen().$database.load() }
        async let avatar = outcome { _ = try await ProfileScreen().$avatar.load() }
        for error in [await database, await avatar] {
          guard let error = error as? ResolutionError else {
            failExitTest("no cycle reported: \(String(describing: error))")
          }
          require(
            error.kind == .dependencyCycle
              || (error.underlyingError as? ResolutionError)?.kind == .dependencyCycle,
            "\(error)")
        }
      }
    }
  #endif

  @Test func synchronousMockInATestLayerReplacesAnAsyncProductionRule() throws {
    registry.withOverrides {
      $0.register(Database.self, scope: .singleton) {
        await Task.yield()
        return Database(serial: 1)
      }
    } operation: {
      registry.withOverrides {
        $0.register(Database.self) { _ in Database(serial: 2) }
      } operation: {
        #expect(DatabaseScreen().database.serial == 2)  // No prepare(): the mock does not await.
      }
    }
  }

  @Test func mainActorInitializerIsAwaitedOnTheMainActor() async throws {
    let onMain = Locked(false)
    try await registry.withOverrides {
      $0.register(Database.self, scope: .singleton) { @MainActor in
        MainActor.assertIsolated("the initializer runs off the main actor")  // Traps if not.
        onMain.mutate { $0 = true }
        return Database(serial: 1)
      }
    } operation: {
      try await registry.prepare()
      #expect(onMain.value)
    }
  }

  @Test func explainValidateAndTheGraphTellAsyncRules() async throws {
    try await registry.withOverrides {
      $0.register(Database.self, scope: .singleton) {
        await Task.yield()
        return Database(serial: 1)
      }
    } operation: {
      let before = registry.explain(Database.self, in: DatabaseScreen.self)
      #expect(before.contains("singleton scope, async"))
      #expect(before.contains("a read stops until prepare() or $property.load() builds"))
      let report = try registry.validate(classes: [DatabaseScreen.self])
      #expect(report.asyncProperties == ["LazyInjectTests.DatabaseScreen.database"])
      #expect(report.description.contains("served by async initializers"))
      let graph = registry.dependencyGraph(classes: [DatabaseScreen.self])
      #expect(graph.dot.contains("async"))
      // An object's property that an async rule serves passes, before `prepare()` too: its rule
      // resolves it, by `prepare()` or `load()`.
      #expect(throws: Never.self) { try registry.validate(DatabaseScreen()) }
      try await registry.prepare()
      #expect(
        registry.explain(Database.self, in: DatabaseScreen.self).contains(
          "its instance is ready"))
      #expect(throws: Never.self) { try registry.validate(DatabaseScreen()) }
    }
  }
}

/// A module of async registrations: installed like any other.
private struct AvatarModule: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(Avatar.self, in: ProfileScreen.self) { screen in
      await Task.yield()
      return Avatar(owner: screen.user * 2)
    }
  }
}

struct AsyncModuleTests {
  @Test func moduleInstallsAsyncRules() async throws {
    try await registry.withOverrides {
      $0.install(AvatarModule())
    } operation: {
      let avatar = try await ProfileScreen(user: 4).$avatar.load()
      #expect(avatar.owner == 8)
    }
  }
}
