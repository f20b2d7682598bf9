import LazyInject

/// A loader that serves what it cached, for screens that must work offline.
final class CachedLoader: ResourceLoading {
  let name = Narrator.shared.nextName(for: "CachedLoader")
  let kind = "cached"

  init() {
    say("  \(name) built (cached)")
  }

  func loadResources() {
    say("  \(name) serves cached resources")
  }
}

/// A screen that depends on the protocol, not on a class.
@MainActor
class FeedScreen {
  @Lazy var loader: any ResourceLoading
}

/// The feed, when the network is gone.
final class OfflineFeedScreen: FeedScreen {}

/// Scene 6: the article's unfinished plan, protocol-typed properties.
enum ProtocolScene {
  @MainActor
  static func run() {
    say("A property typed `any ResourceLoading` resolves the registration for")
    say("`(any ResourceLoading).self`, container-specific ones included.")
    say("FeedScreen().loader:")
    FeedScreen().loader.loadResources()
    say("OfflineFeedScreen has a registration of its own:")
    OfflineFeedScreen().loader.loadResources()
  }
}
