import App
import LazyInject

/// Opens both tabs and prints what each got.
///
/// No registration call at start-up: the packages' linked modules and the app's automatic
/// module are installed before the first read.
@main
enum FeatureAppMain {
  /// On the main actor, like an app's delegate: the screens are main-actor isolated.
  static func main() {
    let root = RootViewController(userName: "Ada")
    root.launch()
    root.feed.model.load()
    print("\(root.feed.title): \(root.feed.model.posts.joined(separator: "; "))")
    root.profile.model.load()
    print("\(root.profile.title): \(root.profile.model.summary)")
    let linked = InitializerRegistry.shared.description.split(separator: "\n").filter {
      $0.hasPrefix("linked modules:")
    }
    print(linked.first ?? "linked modules: none")
  }
}
