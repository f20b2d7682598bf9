import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

private class RequestManager {
  var name: String { "production" }
}

private final class MockRequestManager: RequestManager {
  override var name: String { "mock" }
}

private final class ResourceLoader {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Cache {}

private class ViewController {
  @Lazy var requestManager: RequestManager
  @Lazy var resourceLoader: ResourceLoader
}

private final class UsersViewController: ViewController {}
private final class ProjectsViewController: ViewController {}

/// Production registrations, made once for the whole suite.
private let production: Void = {
  let registry = InitializerRegistry.shared
  registry.register(RequestManager.self, in: UsersViewController.self) { _ in RequestManager() }
  registry.register(RequestManager.self) { _ in RequestManager() }
  registry.register(ResourceLoader.self) { _ in ResourceLoader("production") }
  registry.register(Cache.self, scope: .singleton) { _ in Cache() }
}()

struct OverrideTests {
  init() {
    production
  }

  @Test func overrideBeatsADeeperProductionRule() {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(RequestManager.self) { _ in MockRequestManager() }
    } operation: {
      #expect(UsersViewController().requestManager.name == "mock")
      #expect(ProjectsViewController().requestManager.name == "mock")
    }
  }

  @Test func overridesAreInvisibleOutsideTheOperation() {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(RequestManager.self) { _ in MockRequestManager() }
    } operation: {
    }
    #expect(UsersViewController().requestManager.name == "production")
  }

  @Test func consumerScopedOverrideTouchesOnlyThatConsumer() {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(ResourceLoader.self, in: UsersViewController.self) { _ in
        ResourceLoader("stub")
      }
    } operation: {
      #expect(UsersViewController().resourceLoader.name == "stub")
      #expect(ProjectsViewController().resourceLoader.name == "production")
    }
  }

  @Test func nestedOverridesStackWithTheInnermostWinning() {
    let registry = InitializerRegistry.shared
    registry.withOverrides { outer in
      outer.register(ResourceLoader.self) { _ in ResourceLoader("outer") }
      outer.register(RequestManager.self) { _ in MockRequestManager() }
    } operation: {
      registry.withOverrides { inner in
        inner.register(ResourceLoader.self) { _ in ResourceLoader("inner") }
      } operation: {
        let screen = ProjectsViewController()
        #expect(screen.resourceLoader.name == "inner")
        #expect(screen.requestManager.name == "mock")
      }
      #expect(ProjectsViewController().resourceLoader.name == "outer")
    }
  }

  @Test func asyncOverridesHoldAcrossSuspensionPointsAndChildTasks() async {
    await InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(ResourceLoader.self) { _ in ResourceLoader("async") }
    } operation: {
      await Task.yield()
      #expect(ProjectsViewController().resourceLoader.name == "async")
      async let child = ProjectsViewController().resourceLoader.name
      #expect(await child == "async")
    }
  }

  @Test func concurrentTasksEachSeeOnlyTheirOwnOverrides() async {
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for index in 0..<100 {
        group.addTask {
          await InitializerRegistry.shared.withOverrides { overrides in
            overrides.register(ResourceLoader.self) { _ in ResourceLoader("task \(index)") }
          } operation: {
            var mismatches = 0
            for _ in 0..<10 {
              await Task.yield()
              if ProjectsViewController().resourceLoader.name != "task \(index)" {
                mismatches += 1
              }
            }
            return mismatches
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test func singletonsOfAnOverrideScopeDieWithIt() throws {
    let registry = InitializerRegistry.shared
    let production = try registry.resolve(Cache.self, for: ProjectsViewController())
    weak var overridden: Cache?
    try registry.withOverrides { overrides in
      overrides.register(Cache.self, scope: .singleton) { _ in Cache() }
    } operation: {
      let first = try registry.resolve(Cache.self, for: ProjectsViewController())
      #expect(try registry.resolve(Cache.self, for: UsersViewController()) === first)
      #expect(first !== production)
      overridden = first
    }
    #expect(overridden == nil)
    #expect(try registry.resolve(Cache.self, for: ProjectsViewController()) === production)
  }

  @Test func overridesApplyToIndependentRegistriesToo() throws {
    let registry = InitializerRegistry()
    registry.register(ResourceLoader.self) { _ in ResourceLoader("production") }
    try registry.withOverrides { overrides in
      overrides.register(ResourceLoader.self) { _ in ResourceLoader("mock") }
    } operation: { () throws in
      #expect(
        try registry.resolve(ResourceLoader.self, for: ProjectsViewController()).name == "mock")
      // `.shared` is another registry: its layers are its own.
      #expect(ProjectsViewController().resourceLoader.name == "production")
    }
  }

  @Test func resetSingletonsKeepsRegistrations() throws {
    let registry = InitializerRegistry()
    registry.register(Cache.self, scope: .singleton) { _ in Cache() }
    let first = try registry.resolve(Cache.self, for: ProjectsViewController())
    registry.resetAllScopes()
    let second = try registry.resolve(Cache.self, for: ProjectsViewController())
    #expect(first !== second)
    #expect(try registry.resolve(Cache.self, for: ProjectsViewController()) === second)
  }
}

private final class OutlivingService: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class OutlivingScreen {
  @Lazy var service: OutlivingService
}

/// Reads `OutlivingScreen().service` in a task created inside an override scope, after the scope
/// has returned.
private func nameSeenByATaskThatOutlivesItsScope() async -> String {
  let (resume, resumer) = AsyncStream<Void>.makeStream()
  let task = InitializerRegistry.shared.withOverrides {
    $0.register(OutlivingService.self) { _ in OutlivingService("mock") }
  } operation: {
    Task {
      for await _ in resume { break }
      return OutlivingScreen().service.name
    }
  }
  resumer.yield()  // The scope has returned.
  return await task.value
}

struct OverrideLifetimeTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    // In a fresh process, so that no other test's scope is active while the task reads.
    @Test func taskCreatedInsideOverridesKeepsTheLayerWhateverOtherThreadsDo() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.register(OutlivingService.self) { _ in
          OutlivingService("production")
        }
        let alone = await nameSeenByATaskThatOutlivesItsScope()
        // The same while another thread is inside a scope of its own.
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          InitializerRegistry.shared.withOverrides { _ in
          } operation: {
            entered.signal()
            leave.wait()
          }
        }
        entered.wait()
        let alongside = await nameSeenByATaskThatOutlivesItsScope()
        leave.signal()
        guard alone == "mock", alongside == "mock" else {
          FileHandle.standardError.write(Data("alone: \(alone), alongside: \(alongside)\n".utf8))
          exit(1)
        }
      }
    }
  #endif
}
