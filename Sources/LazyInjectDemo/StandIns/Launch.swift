import LazyInject

/// The first screen of the app: its feed is built when the view loads.
final class HomeViewController {
  @Lazy var feed: FeedViewModel

  func viewDidLoad() {
    say("  The home screen shows \(feed.placeholders.count) placeholders")
  }
}

/// What the home screen shows; built with the images it needs.
final class FeedViewModel {
  let placeholders: [UInt8]

  init(images: ImageCache) { placeholders = images.decoded }
}

/// Placeholder images, decoded when the cache is made: real work on the thread that builds it.
final class ImageCache {
  let decoded: [UInt8]

  init() {
    var pixels = [UInt8](repeating: 0, count: 12)
    for index in 0..<2_000_000 { pixels[index % 12] &+= UInt8(truncatingIfNeeded: index >> 3) }
    decoded = pixels
  }
}
