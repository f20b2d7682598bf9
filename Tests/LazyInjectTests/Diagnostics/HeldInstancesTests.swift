import LazyInject
import LazyInjectChecks
import Testing

// `heldInstances(afterResetOf:searching:)` reports a session that outlived its logout whatever
// the type of the properties that held it: the class itself, an optional of it (the logged-out
// state of *Logging In and Out*), or a protocol it conforms to.

extension InitializerRegistry.Scope {
  fileprivate static let session = Self.custom("HeldInstancesTests.session")
}

private protocol Session: Sendable {}
private protocol ClassSession: AnyObject, Sendable {}
/// Served through a forward to `UserSession`.
private protocol ForwardedSession: AnyObject, Sendable {}

private final class UserSession: Session, ClassSession, ForwardedSession {
  let user: String
  init(user: String) { self.user = user }
}

/// The signed-in user, or nil.
private let currentUser = Locked<String?>(nil)

/// The app's coordinator, which outlives every session, as the article writes it.
private final class AppCoordinator {
  @Lazy var session: UserSession?
  @Lazy var anySession: any Session
  @Lazy var classSession: any ClassSession
  @Lazy var optionalSession: (any Session)?
  @Lazy var forwardedSession: any ForwardedSession

  func logIn(as user: String) {
    currentUser.mutate { $0 = user }
    InitializerRegistry.shared.reset(.session)
  }

  func logOut() {
    currentUser.mutate { $0 = nil }
    InitializerRegistry.shared.reset(.session)
  }
}

/// Something the app forgot to clear at logout.
private final class Leak {
  var session: Any?
}

/// Runs `body` in a layer whose rules build the session, as the article's test suite does.
private func withSessionRules(_ body: () -> Void) {
  InitializerRegistry.shared.withOverrides {
    $0.register(UserSession?.self, scope: .session) { _ in
      currentUser.value.map(UserSession.init(user:))
    }
    $0.register((any Session).self, scope: .session) { _ in UserSession(user: "any") }
    $0.register((any ClassSession).self, scope: .session) { _ in UserSession(user: "class") }
    $0.register((any Session)?.self, scope: .session) { _ in UserSession(user: "optional") }
    $0.register(UserSession.self, scope: .session) { _ in UserSession(user: "forwarded") }
    $0.forward((any ForwardedSession).self, to: UserSession.self)
  } operation: {
    body()
  }
}

/// The coordinator's properties of a protocol type.
private enum ProtocolProperty: CaseIterable {
  case anySession, classSession, optionalSession, forwardedSession

  func read(from app: AppCoordinator) -> Any? {
    switch self {
    case .anySession: app.anySession
    case .classSession: app.classSession
    case .optionalSession: app.optionalSession
    case .forwardedSession: app.forwardedSession
    }
  }
}

@Suite(.serialized)  // The tests share the signed-in user.
struct HeldInstancesTests {
  @Test func anOptionalSessionKeptAliveAfterLogoutIsReportedWithItsHolderUntilReleased() {
    withSessionRules {
      let app = AppCoordinator()
      app.logIn(as: "ada")
      let leak = Leak()
      leak.session = app.session
      app.logOut()
      #expect(app.session == nil)
      let held = InitializerRegistry.shared.heldInstances(afterResetOf: .session, searching: [leak])
      #expect(held.count == 1)
      #expect(held.first?.typeName.hasSuffix("UserSession") == true)
      #expect(held.first?.holders.count == 1)
      #expect(held.first?.holders.first?.hasSuffix("Leak.session") == true)
      #expect(held.first?.rule.propertyTypeName.hasSuffix("UserSession>") == true)
      leak.session = nil
      #expect(InitializerRegistry.shared.heldInstances(afterResetOf: .session).isEmpty)
    }
  }

  @Test(arguments: ProtocolProperty.allCases)
  fileprivate func aSessionHeldAsAProtocolIsReportedLikeAClass(_ property: ProtocolProperty) {
    withSessionRules {
      let app = AppCoordinator()
      let leak = Leak()
      leak.session = property.read(from: app)
      app.logOut()
      let held = InitializerRegistry.shared.heldInstances(afterResetOf: .session, searching: [leak])
      #expect(held.count == 1)
      #expect(held.first?.holders.first?.hasSuffix("Leak.session") == true)
      // Reported by the scope reset, never by a forward's (`.unique`).
      #expect(InitializerRegistry.shared.heldInstances(afterResetOf: .unique).isEmpty)
      leak.session = nil
      #expect(InitializerRegistry.shared.heldInstances(afterResetOf: .session).isEmpty)
    }
  }
}
