import LazyInject
import LazyInjectChecks

/// A custom scope: the session lives until log-out, while singletons stay.
///
/// The reset reaches every property that holds the session, in objects that outlive it too.
enum SessionScene {
  @MainActor
  static func run() {
    say("Initializers/SessionInitializers.swift registers UserSession with scope .session.")
    say("Ada signs in; the app's shell, which outlives sessions, and two screens read it:")
    let shell = AppShell()
    let (inbox, profile) = (AccountViewController(), AccountViewController())
    let shared = inbox.session === profile.session && shell.session === inbox.session
    say("  \(inbox.name), \(profile.name) and the shell share \(shell.session.name): \(shared)")
    let manager = inbox.requestManager.name
    say("Log-out: InitializerRegistry.shared.reset(.session), with the screens still alive:")
    InitializerRegistry.shared.reset(.session)
    say("  The shell's session is resolved: \(shell.$session.isResolved)")
    let held = InitializerRegistry.shared.heldInstances(afterResetOf: .session, searching: [shell])
    say("  Sessions still held after the log-out: \(held.count)")
    say("Grace signs in; the shell and a screen read the session again:")
    SignIn.user = "Grace"
    let settings = AccountViewController()
    say("  The shell shows \(shell.session.name), for \(shell.session.user)")
    say("  \(settings.name) gets it too: \(settings.session === shell.session)")
    say("  The RequestManager singleton is untouched: \(settings.requestManager.name == manager)")
    say("Grace logs out: reset(.session) again.")
    InitializerRegistry.shared.reset(.session)
    SignIn.user = "Ada"
    withExtendedLifetime((inbox, profile, settings)) {}
  }
}
