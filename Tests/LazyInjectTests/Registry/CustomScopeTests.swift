import Foundation
import LazyInject
import Testing

extension InitializerRegistry.Scope {
  fileprivate static let session = Self.custom("session")
}

private final class UserProfile: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}
private final class Settings: Sendable {}
private final class Screen {}

/// A registry with a session-scoped `UserProfile`, numbered in build order, and a singleton.
private func registry(built: Counter) -> InitializerRegistry {
  let registry = InitializerRegistry()
  registry.register(UserProfile.self, scope: .session) { _ in
    UserProfile(serial: built.increment())
  }
  registry.register(Settings.self, scope: .singleton) { _ in Settings() }
  return registry
}

struct CustomScopeTests {
  @Test func sessionInstanceIsSharedUntilResetAndSingletonsStay() throws {
    let registry = registry(built: Counter())
    let first = try registry.resolve(UserProfile.self, for: Screen())
    let settings = try registry.resolve(Settings.self, for: Screen())
    #expect(try registry.resolve(UserProfile.self, for: Screen()) === first)
    registry.reset(.session)
    let second = try registry.resolve(UserProfile.self, for: Screen())
    #expect(second !== first)
    #expect(second.serial == 2)
    #expect(try registry.resolve(Settings.self, for: Screen()) === settings)
  }

  @Test func sessionInstanceIsBuiltOnceByEightThreads() {
    let built = Counter()
    let registry = registry(built: built)
    let serials = Locked<[Int]>([])
    runConcurrently(threads: 8) { _ in
      let serial = (try? registry.resolve(UserProfile.self, for: Screen()))?.serial ?? 0
      serials.mutate { $0.append(serial) }
    }
    #expect(built.value == 1)
    #expect(serials.value == Array(repeating: 1, count: 8))
  }

  @Test func resolutionAfterAResetNeverGetsTheInstanceBuiltBeforeIt() throws {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let built = Counter()
    let registry = InitializerRegistry()
    registry.register(UserProfile.self, scope: .session) { _ in
      let serial = built.increment()
      if serial == 1 {
        started.signal()
        release.wait()  // The first build is under way while the session is reset.
      }
      return UserProfile(serial: serial)
    }
    let serials = Locked<[Int: Int]>([:])
    runConcurrently(threads: 2) { index in
      if index == 1 {
        started.wait()
        registry.reset(.session)
        release.signal()
      }
      let serial = (try? registry.resolve(UserProfile.self, for: Screen()))?.serial ?? 0
      serials.mutate { $0[index] = serial }
    }
    #expect(serials.value[0] == 1)  // Asked before the reset: its own build.
    #expect(serials.value[1] == 2)  // Asked after it: a new instance.
    #expect(try registry.resolve(UserProfile.self, for: Screen()).serial == 2)
  }

  @Test func resetInsideALayerResetsOnlyTheLayersInstances() throws {
    let registry = registry(built: Counter())
    let production = try registry.resolve(UserProfile.self, for: Screen())
    try registry.withOverrides {
      $0.register(UserProfile.self, scope: .session) { _ in UserProfile(serial: 100) }
    } operation: {
      let mock = try registry.resolve(UserProfile.self, for: Screen())
      registry.reset(.session)
      #expect(try registry.resolve(UserProfile.self, for: Screen()) !== mock)
    }
    #expect(try registry.resolve(UserProfile.self, for: Screen()) === production)
  }

  @Test func resetInsideALayerDropsTheSessionInstanceItAdopted() throws {
    final class Token: Sendable {}
    final class Account: Sendable {
      let token: Token
      init(_ token: Token) { self.token = token }
    }
    let registry = InitializerRegistry()
    registry.register(Token.self) { _ in Token() }
    registry.register(Account.self, scope: .session) { [unowned registry] sender in
      Account(try registry.resolve(Token.self, for: sender))
    }
    try registry.withOverrides {
      $0.register(Token.self) { _ in Token() }  // The account is built with the layer's token.
    } operation: {
      let first = try registry.resolve(Account.self, for: Screen())
      #expect(try registry.resolve(Account.self, for: Screen()) === first)
      registry.reset(.session)
      #expect(try registry.resolve(Account.self, for: Screen()) !== first)
    }
  }

  @Test func descriptionAndExplainShowTheScope() {
    let registry = registry(built: Counter())
    #expect(registry.description.contains("root default: session scope"))
    #expect(registry.explain(UserProfile.self, in: Screen.self).contains("session scope"))
  }
}
