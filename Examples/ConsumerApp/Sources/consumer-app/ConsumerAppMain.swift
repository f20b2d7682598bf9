import ConsumerApp
import Dispatch
import LazyInject

/// Opens the screens and prints what each got.
///
/// No registration call at start-up: `AutomaticModules.swift` lists the modules, and LazyInject
/// installs them before the first read.
@main
enum ConsumerAppMain {
  /// `@MainActor`, like an app's delegate: the screens are main-actor isolated.
  @MainActor
  static func main() async throws {
    // What must await to exist is built at launch; screens then read it as a plain property.
    try await InitializerRegistry.shared.prepare()

    let users = UsersViewController()
    let admins = AdminUsersViewController()
    let settings = SettingsViewController()
    let profile = ProfileViewController()

    for screen in [users, admins] {
      screen.load()
      print("\(screen.title): \(screen.loaded ?? "-"), spinner \"\(screen.progressView.message)\"")
    }
    print("\(settings.title): \(settings.resourceLoader.loadResources()) (root default)")
    profile.load()
    print("\(profile.title): \(profile.model.greeting), session of \(profile.model.session.user)")
    try await profile.model.loadAvatar()
    print("\(profile.title): avatar \(profile.model.avatar.url)")

    let managers = [users, admins, settings].map { $0.resourceLoader.requestManager }
    print("One RequestManager for every screen: \(managers.allSatisfy { $0 === managers[0] })")

    // A nonisolated service resolves its request manager on a background queue.
    let prefetched = await withCheckedContinuation { done in
      DispatchQueue.global().async { done.resume(returning: AvatarPrefetcher().prefetch("ada")) }
    }
    print("Prefetched on a background queue: \(prefetched)")
  }
}
