import LazyInject
import Testing

private final class RequestManager {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

private final class Session {}

private struct Token {
  let value: Int
}

private final class Screen {}

struct ScopeTests {
  @Test func uniqueScopeBuildsANewInstanceForEachResolution() throws {
    let registry = InitializerRegistry()
    registry.register(RequestManager.self) { _ in RequestManager(serial: 0) }
    let screen = Screen()
    #expect(
      try registry.resolve(RequestManager.self, for: screen)
        !== registry.resolve(RequestManager.self, for: screen))
  }

  @Test func singletonIsSharedByEveryContainer() throws {
    let registry = InitializerRegistry()
    let built = Counter()
    registry.register(RequestManager.self, scope: .singleton) { _ in
      RequestManager(serial: built.increment())
    }
    let first = try registry.resolve(RequestManager.self, for: Screen())
    let second = try registry.resolve(RequestManager.self, for: Screen())
    #expect(first === second)
    #expect(built.value == 1)
  }

  @Test func singletonIsBuiltExactlyOnceUnderConcurrentFirstResolution() {
    for _ in 0..<50 {
      let registry = InitializerRegistry()
      let built = Counter()
      registry.register(RequestManager.self, scope: .singleton) { _ in
        RequestManager(serial: built.increment())
      }
      let serials = SerialCollector()
      runConcurrently(threads: 6) { _ in
        let manager = try? registry.resolve(RequestManager.self, for: Screen())
        serials.append(manager?.serial ?? -1)
      }
      #expect(built.value == 1)
      #expect(serials.values == Array(repeating: 1, count: 6))
    }
  }

  @Test func replacingASingletonRegistrationDropsItsInstance() throws {
    let registry = InitializerRegistry()
    let duplicates = Counter()
    registry.duplicateRegistrationHandler = { _ in duplicates.increment() }
    registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager(serial: 1) }
    weak let first = try registry.resolve(RequestManager.self, for: Screen())
    registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager(serial: 2) }
    #expect(duplicates.value == 1)
    #expect(first == nil)
    #expect(try registry.resolve(RequestManager.self, for: Screen()).serial == 2)
  }

  @Test func weakScopeSharesWhileHeldAndRebuildsAfterRelease() throws {
    let registry = InitializerRegistry()
    let built = Counter()
    registry.register(RequestManager.self, scope: .weak) { _ in
      RequestManager(serial: built.increment())
    }
    var held: RequestManager? = try registry.resolve(RequestManager.self, for: Screen())
    #expect(try registry.resolve(RequestManager.self, for: Screen()) === held)
    #expect(built.value == 1)
    held = nil
    let rebuilt = try registry.resolve(RequestManager.self, for: Screen())
    #expect(rebuilt.serial == 2)
    #expect(held == nil)
  }

  @Test func weakScopeRejectsValueTypes() throws {
    let registry = InitializerRegistry()
    registry.register(Token.self, scope: .weak) { _ in Token(value: 1) }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Token.self, for: Screen())
    }
    #expect(error.kind == .weakScopeRequiresClass)
    #expect(error.description.contains("Token"))
  }

  @Test func failedSingletonInitializerCanBeRetried() throws {
    let registry = InitializerRegistry()
    let attempts = Counter()
    struct Flaky: Error {}
    registry.register(Session.self, scope: .singleton) { _ in
      if attempts.increment() == 1 { throw Flaky() }
      return Session()
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Session.self, for: Screen())
    }
    #expect(error.kind == .initializerFailed)
    #expect(error.underlyingError is Flaky)
    let session = try registry.resolve(Session.self, for: Screen())
    #expect(try registry.resolve(Session.self, for: Screen()) === session)
  }
}
