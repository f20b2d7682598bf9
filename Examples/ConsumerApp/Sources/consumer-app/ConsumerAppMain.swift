import ConsumerApp
import Dispatch

/// Opens the screens and prints what each got.
///
/// No registration call at start-up: `AutomaticModules.swift` lists the modules, and LazyInject
/// installs them before the first read.
@main
enum ConsumerAppMain {
  /// `@MainActor`, like an app's delegate: the screens are main-actor isolated.
  @MainActor
  static func main() {
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
    print("\(profile.title): \(profile.model.greeting)")

    let managers = [users, admins, settings].map { $0.resourceLoader.requestManager }
    print("One RequestManager for every screen: \(managers.allSatisfy { $0 === managers[0] })")

    // A nonisolated service resolves its request manager on a background queue.
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      print("Prefetched on a background queue: \(AvatarPrefetcher().prefetch("ada"))")
      done.signal()
    }
    done.wait()
  }
}
