import LazyInject

/// The signed-in user's session: state the app keeps until log-out.
@MainActor
final class UserSession {
  let name = Narrator.shared.nextName(for: "UserSession")
  let user: String

  init(user: String) {
    self.user = user
    say("  \(name) started for \(user)")
  }

  deinit {
    say("  \(name) released")
  }
}

/// Who is signed in.
@MainActor
enum SignIn {
  static var user = "Ada"
}

/// The part of the app that outlives sessions: it shows who is signed in.
final class AppShell {
  @Lazy var session: UserSession
}

/// A screen of the signed-in part of the app.
final class AccountViewController: ViewController {
  @Lazy var session: UserSession
}
