import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectTestSupport
import Testing

// A reset of a scope reaches every `@Lazy` and `@WeakLazy` property that its rules filled: the
// old instance is released from all of them, and each resolves again at its next read, as after
// `$property.reset()`. What the app holds itself, values assigned by hand, and values of other
// scopes stay.

extension InitializerRegistry.Scope {
  fileprivate static let account = Self.custom("ScopeResetTests.account")
  fileprivate static let session = Self.custom("ScopeResetTests.session")
}

/// Numbered in build order; counts its deinits.
private final class Account: Sendable {
  static let built = Counter()
  static let released = Counter()
  let serial: Int
  /// `serial * 7`: a read that returned a torn object would find another.
  let check: Int

  init() {
    serial = Self.built.increment()
    check = serial * 7
  }

  deinit { Self.released.increment() }
}

private protocol AccountLike: AnyObject, Sendable {}
extension Account: AccountLike {}

private final class Preferences: Sendable {}
private final class Formatter: Sendable {}

private final class UserSession: Sendable {
  let user: String
  init(user: String) { self.user = user }
}

/// The signed-in user, or nil: what the session rule reads.
private let signedInUser = Locked<String?>(nil)

/// Read by one thread at a time, except where a test races reads, which `@Lazy` guards.
private final class Screen: @unchecked Sendable, InjectionObserving {
  @Lazy var account: Account
  @Lazy var forwarded: any AccountLike
  @WeakLazy var weakAccount: Account?
  @Lazy var preferences: Preferences
  @Lazy var formatter: Formatter
  @Lazy var session: UserSession?

  let injected = Locked<[String]>([])
  func didInject(_ value: Any, intoPropertyNamed name: String) {
    injected.mutate { $0.append(name) }
  }
}

/// Its first build waits for `release`, once it signalled `started`.
private final class SlowAccount: Sendable {
  static let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
  static let built = Counter()
  let serial: Int

  init() {
    serial = Self.built.increment()
    if serial == 1 {
      Self.started.signal()
      Self.release.wait()
    }
  }
}

/// `@Lazy` guards its slot against the threads that read it.
private final class SlowScreen: @unchecked Sendable {
  @Lazy var account: SlowAccount
}

/// A session whose rule is async.
private final class RemoteSession: Sendable {}

private final class RemoteScreen {
  @Lazy var session: RemoteSession
}

/// Built from an account by a registry rule of the scope `.account`.
private final class Ledger: Sendable {
  let account: Account
  init(account: Account) { self.account = account }
}

private final class Bank {
  @Lazy var account: Account
  @Lazy var ledger: Ledger
}

/// A long-lived object that holds a session through a property LazyInject does not fill.
private final class Coordinator {
  var account: Account?
}

@Suite(.serialized)  // The tests reset the scopes they share.
struct ScopeResetTests {
  private let registry = InitializerRegistry.shared

  /// The production rules, registered once: an account of the scope `.account`, reached
  /// through a forward too; preferences of another scope; a formatter of no scope; a session
  /// that is nil while no one is signed in.
  private static let production: Void = {
    let registry = InitializerRegistry.shared
    registry.register(Account.self, scope: .account) { _ in Account() }
    registry.forward((any AccountLike).self, to: Account.self)
    registry.register(Preferences.self, scope: .session) { _ in Preferences() }
    registry.register(Formatter.self) { _ in Formatter() }
    registry.register(SlowAccount.self, scope: .account) { _ in SlowAccount() }
    registry.register(Ledger.self, in: Bank.self, scope: .account) { bank in
      Ledger(account: bank.account)
    }
    registry.register(UserSession?.self, scope: .account) { _ in
      signedInUser.value.map(UserSession.init(user:))
    }
  }()

  init() { _ = Self.production }

  @Test func resetReleasesTheInstanceFromEveryPropertyThatHoldsIt() {
    let (first, second) = (Screen(), Screen())
    weak let old = first.account
    #expect(second.account === old)
    #expect(first.weakAccount === old)
    #expect(first.forwarded === old)
    registry.reset(.account)
    #expect(old == nil)  // Its deinit ran: no property holds it.
    #expect(!first.$account.isResolved)
    #expect(first.$account.rule == nil)
    let new = first.account
    #expect(second.account === new)
    #expect(first.weakAccount === new)
    #expect(first.$account.rule?.scope == .account)
  }

  @Test func resetLeavesAssignedValuesOtherScopesAndUniqueRules() {
    let screen = Screen()
    let assigned = Account()
    screen.account = assigned
    let (preferences, formatter) = (screen.preferences, screen.formatter)
    registry.reset(.account)
    #expect(screen.account === assigned)
    #expect(screen.preferences === preferences)
    #expect(screen.formatter === formatter)
  }

  @Test func unregisteringKeepsWhatPropertiesHold() {
    final class Token: Sendable {}
    final class TokenScreen { @Lazy var token: Token }
    registry.withOverrides {
      $0.register(Token.self, scope: .account) { _ in Token() }
    } operation: {
      let screen = TokenScreen()
      let token = screen.token
      registry.unregister(Token.self)
      #expect(screen.$token.isResolved)
      #expect(screen.token === token)
    }
  }

  @Test(arguments: [false, true])
  func aResetReachesTheInstancesOfARuleReplacedOrRemovedSince(isRemoved: Bool) {
    final class Token: Sendable {}
    final class TokenScreen { @Lazy var token: Token }
    // The test's layer, whose rules are replaced in it, as production set-up that registers its
    // session rule again at login does; without the warning of a duplicate, which is the point.
    var layer: InitializerRegistry?
    registry.withOverrides { configured in
      layer = configured
      configured.duplicateRegistrationHandler = { _ in }
      configured.register(Token.self, scope: .account) { _ in Token() }
    } operation: {
      let screen = TokenScreen()
      weak let old = screen.token
      if isRemoved {
        layer?.unregister(Token.self)
      } else {
        layer?.register(Token.self, scope: .account) { _ in Token() }
      }
      #expect(screen.token === old)  // Properties keep it until a reset of its scope.
      registry.reset(.account)
      #expect(old == nil)
      #expect(!screen.$token.isResolved)
    }
  }

  @Test func observersSeeTheBuildAfterAResetAsANewInjection() {
    let screen = Screen()
    _ = screen.account
    registry.reset(.account)
    _ = screen.account
    #expect(screen.injected.value.filter { $0 == "account" }.count == 2)
  }

  @Test func resetInsideALayerReachesOnlyWhatTheLayersRulesProduced() {
    let production = Screen()
    let productionAccount = production.account
    registry.withOverrides {
      $0.register(Account.self, scope: .account) { _ in Account() }
    } operation: {
      let screen = Screen()
      weak let mock = screen.account
      #expect(mock !== productionAccount)
      registry.reset(.account)
      #expect(mock == nil)
      #expect(!screen.$account.isResolved)
      #expect(production.account === productionAccount)
    }
    weak let old = productionAccount
    _ = consume productionAccount
    registry.reset(.account)
    #expect(old == nil)
  }

  @Test func aResetOutsideEveryLayerLeavesWhatALayerBuiltOrKept() {
    // A bank made in a test's layer, which outlives it: its account is the layer's rule's, and
    // its ledger, the registry's rule's built with that account, is kept by the layer.
    let bank = registry.withOverrides {
      $0.register(Account.self, scope: .account) { _ in Account() }
    } operation: {
      let bank = Bank()
      _ = bank.ledger
      return bank
    }
    let (account, ledger) = (bank.account, bank.ledger)
    #expect(ledger.account === account)
    registry.reset(.account)
    #expect(bank.account === account)
    #expect(bank.ledger === ledger)
  }

  @Test func singletonsAndWeakScopesOfALayerAreReachedAlike() {
    final class Cache: Sendable {}
    final class Store: Sendable {}
    final class Owner {
      @Lazy var cache: Cache
      @Lazy var store: Store
    }
    registry.withOverrides {
      $0.register(Cache.self, scope: .singleton) { _ in Cache() }
      $0.register(Store.self, scope: .weak) { _ in Store() }
    } operation: {
      let owner = Owner()
      weak let cache = owner.cache
      weak let store = owner.store
      registry.resetAllScopes()
      #expect(cache == nil)
      #expect(store == nil)
      #expect(!owner.$cache.isResolved && !owner.$store.isResolved)
    }
  }

  @Test func theLoggedOutStateIsASessionRuleThatReturnsNil() {
    signedInUser.mutate { $0 = nil }
    registry.reset(.account)
    let screen = Screen()
    #expect(screen.session == nil)
    signedInUser.mutate { $0 = "ada" }
    registry.reset(.account)  // Logging in.
    #expect(screen.session?.user == "ada")
    signedInUser.mutate { $0 = nil }
    registry.reset(.account)  // Logging out.
    #expect(screen.session == nil)
  }

  @Test func heldInstancesNamesWhatStillHoldsAResetInstance() {
    let (screen, coordinator) = (Screen(), Coordinator())
    coordinator.account = screen.account
    registry.reset(.account)
    let held = registry.heldInstances(afterResetOf: .account, searching: [coordinator])
    #expect(held.count == 1)
    #expect(held.first?.holders.count == 1)
    #expect(held.first?.holders.first?.hasSuffix("Coordinator.account") == true)
    #expect(held.first?.typeName.hasSuffix("Account") == true)
    #expect(held.first?.description.contains("Coordinator.account") == true)
    coordinator.account = nil
    #expect(registry.heldInstances(afterResetOf: .account, searching: [coordinator]).isEmpty)
  }

  @Test func readsRacingResetsNeverReturnAnInstanceBuiltBeforeAFinishedReset() {
    let screens = (0..<4).map { _ in Screen() }
    // The serial of the last account built before the latest reset began, published once that
    // reset returned: a read that starts after must return a later one.
    let floor = Locked(0)
    let failures = Locked<[String]>([])
    runConcurrently(threads: 4) { index in
      if index == 0 {
        for _ in 0..<300 {
          let before = Account.built.value
          InitializerRegistry.shared.reset(.account)
          floor.mutate { $0 = before }
        }
        return
      }
      for round in 0..<3_000 {
        let minimum = floor.value
        let account = screens[round % screens.count].account
        if account.check != account.serial * 7 { failures.mutate { $0.append("torn") } }
        if account.serial <= minimum {
          failures.mutate { $0.append("read \(account.serial) after a reset at \(minimum)") }
        }
      }
    }
    #expect(failures.value.isEmpty, "\(failures.value.count) failures: \(failures.value.prefix(3))")
  }

  @Test func aBuildThatSpansAResetGoesToItsReaderAlone() {
    let (screen, other) = (SlowScreen(), SlowScreen())
    let serials = Locked<[Int: Int]>([:])
    runConcurrently(threads: 2) { index in
      if index == 1 {
        SlowAccount.started.wait()
        InitializerRegistry.shared.reset(.account)
        SlowAccount.release.signal()
      }
      let serial = (index == 0 ? screen : other).account.serial
      serials.mutate { $0[index] = serial }
    }
    #expect(serials.value[0] == 1)  // Asked before the reset: its own build.
    #expect(serials.value[1] == 2)  // Asked after it: a new instance.
    #expect(screen.account.serial == 2)  // The slot kept nothing built across the reset.
  }

  // An exit test: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func aSynchronousReadOfAnAsyncSessionRuleAfterAResetStopsWithTheFix() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          let registry = InitializerRegistry.shared
          registry.register(RemoteSession.self, scope: .session) { _ async in RemoteSession() }
          try await registry.prepare()
          let screen = RemoteScreen()
          require(screen.$session.isResolved == false, "resolved before its first read")
          _ = screen.session  // Prepared: served.
          registry.reset(.session)  // Logging out.
          _ = screen.session
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(!output.contains("watchdog"))
      #expect(output.contains("cannot build LazyInjectTests.RemoteSession in"))
      #expect(output.contains("again after each reset of its scope"))
    }
  #endif
}
