import LazyInject

/// A custom scope: the session lives until log-out, while singletons stay.
enum SessionScene {
  @MainActor
  static func run() {
    say("Initializers/SessionInitializers.swift registers UserSession with scope .session.")
    say("Ada signs in; two screens read their session:")
    let manager = showSessions()
    say("Log-out: InitializerRegistry.shared.reset(.session); Grace signs in.")
    SignIn.user = "Grace"
    InitializerRegistry.shared.reset(.session)
    let settings = AccountViewController()
    say("  \(settings.name) gets \(settings.session.name), for \(settings.session.user)")
    say("  The RequestManager singleton is untouched: \(settings.requestManager.name == manager)")
    say(
      "Grace logs out: reset(.session) again; her session goes with the last screen that holds it.")
    InitializerRegistry.shared.reset(.session)
    SignIn.user = "Ada"
  }

  /// Two screens that share Ada's session; returns the name of their request manager.
  @MainActor
  private static func showSessions() -> String {
    let inbox = AccountViewController()
    let profile = AccountViewController()
    let shared = inbox.session === profile.session
    say("  \(inbox.name) and \(profile.name) share \(profile.session.name): \(shared)")
    say("  Their request manager is the app's singleton, which log-out keeps:")
    return inbox.requestManager.name
  }
}
