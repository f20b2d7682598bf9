import Foundation
import LazyInject

/// One news item.
struct NewsItem {
  let date: Date
  let text: String
}

/// The answer a background fetch gives the system.
enum FetchResult: String {
  case newData = "new data"
  case noData = "no data"
}

/// The list of news, built on first access ("this saves memory") and observed by screens.
final class NewsStore {
  private(set) var items: [NewsItem]
  private var observers: [ObjectIdentifier: (NewsStore) -> Void] = [:]

  init() {
    items = [NewsItem(date: NewsStore.date(0), text: "News text 1")]
    say("  NewsStore allocated on first access, seeded with \"News text 1\"")
  }

  /// Calls `onChange` after every change, until the returned token is released.
  func observe(_ onChange: @escaping (NewsStore) -> Void) -> ObservationToken {
    let token = ObservationToken()
    observers[ObjectIdentifier(token)] = onChange
    token.cancel = { [weak self, id = ObjectIdentifier(token)] in
      self?.observers.removeValue(forKey: id)
    }
    return token
  }

  /// The simulated server: half the time nothing new, otherwise one more item.
  func fetch(using random: inout SeededRandom) -> Bool {
    guard random.nextBool() else { return false }
    items.append(NewsItem(date: NewsStore.date(items.count), text: "News text \(items.count + 1)"))
    for onChange in observers.values { onChange(self) }
    return true
  }

  var observerCount: Int { observers.count }

  private static func date(_ minutes: Int) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + Double(minutes) * 60)
  }
}

/// Stops an observation when released.
final class ObservationToken {
  var cancel: () -> Void = {}
  deinit { cancel() }
}

/// The app delegate: it answers the system's background fetch.
@MainActor
final class AppDelegate {
  @Lazy var newsStore: NewsStore
  private var random: SeededRandom

  init(seed: UInt64) {
    random = SeededRandom(seed: seed)
  }

  func performBackgroundFetch(completion: (FetchResult) -> Void) {
    completion(newsStore.fetch(using: &random) ? .newData : .noData)
  }
}

/// The table of news: reloads at once when on screen, or when it comes back.
@MainActor
final class NewsTableViewController {
  @Lazy var newsStore: NewsStore
  private var observation: ObservationToken?
  private(set) var isOnScreen = false
  private var needsReload = false

  func viewDidAppear() {
    isOnScreen = true
    observation =
      observation
      ?? newsStore.observe { [weak self] store in
        MainActor.assumeIsolated { self?.storeDidChange(store) }
      }
    reload()
  }

  func appDidEnterBackground() {
    isOnScreen = false
    say("  NewsTableViewController is off screen")
  }

  func appWillEnterForeground() {
    isOnScreen = true
    if needsReload {
      say("  NewsTableViewController is back on screen and reloads the deferred change")
      reload()
    }
  }

  private func storeDidChange(_ store: NewsStore) {
    if isOnScreen {
      reload()
    } else {
      needsReload = true
      say("  NewsTableViewController is not visible: reload deferred")
    }
  }

  private func reload() {
    needsReload = false
    say(
      "  NewsTableViewController shows \(newsStore.items.count) item(s): last \"\(newsStore.items.last!.text)\""
    )
  }

  deinit {
    say("  NewsTableViewController released; it stops observing")
  }
}

/// SplitMix64: a small, seeded generator, so the demo's output is the same on every run.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func nextBool() -> Bool {
    next() >> 63 == 1
  }
}
