import Foundation
import LazyInject

/// One news item.
nonisolated struct NewsItem: Sendable {
  let date: Date
  let text: String
}

/// The answer a background fetch gives the system.
nonisolated enum FetchResult: String, Sendable {
  case newData = "new data"
  case noData = "no data"
}

/// The list of news, opened asynchronously at launch and observed by screens.
///
/// A service for background work, so `nonisolated`: background fetches add to it on a queue of
/// their own while the main actor's screens read it, which its lock makes safe.
nonisolated final class NewsStore: @unchecked Sendable {
  private let lock = NSLock()
  // Guarded by `lock`.
  private var storedItems: [NewsItem]
  private var observers: [ObjectIdentifier: @MainActor @Sendable (NewsStore) -> Void] = [:]
  private var random = SeededRandom(seed: 2026)
  private var hasUnannouncedChange = false

  private init() {
    storedItems = [NewsItem(date: NewsStore.date(0), text: "News text 1")]
    say("  NewsStore opened, seeded with \"News text 1\"")
  }

  /// Opens the store: an app reads its database here, off the main actor (a 20 ms pause stands
  /// in for it).
  static func open() async -> NewsStore {
    try? await Task.sleep(nanoseconds: 20_000_000)
    return NewsStore()
  }

  var items: [NewsItem] { lock.withLock { storedItems } }

  var observerCount: Int { lock.withLock { observers.count } }

  /// Calls `onChange` on the main actor after every change, until the returned token is
  /// released.
  @MainActor
  func observe(_ onChange: @escaping @MainActor @Sendable (NewsStore) -> Void)
    -> ObservationToken
  {
    let id = ObservationToken.ID()
    lock.withLock { observers[ObjectIdentifier(id)] = onChange }
    return ObservationToken { [weak self] in
      self?.lock.withLock { _ = self?.observers.removeValue(forKey: ObjectIdentifier(id)) }
    }
  }

  /// The simulated server, on any thread: half the time nothing new, otherwise one more item.
  func fetch() -> Bool {
    lock.withLock {
      guard random.nextBool() else { return false }
      storedItems.append(
        NewsItem(
          date: NewsStore.date(storedItems.count), text: "News text \(storedItems.count + 1)"))
      hasUnannouncedChange = true
      return true
    }
  }

  /// Tells the observers, on the main actor, of the changes fetched since the last call.
  @MainActor
  func announceChanges() {
    let toCall = lock.withLock {
      defer { hasUnannouncedChange = false }
      return hasUnannouncedChange ? Array(observers.values) : []
    }
    for onChange in toCall { onChange(self) }
  }

  private static func date(_ minutes: Int) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + Double(minutes) * 60)
  }
}

/// Stops an observation when released.
nonisolated final class ObservationToken: Sendable {
  /// Names one observation.
  final class ID: Sendable {}

  private let cancel: @Sendable () -> Void

  init(cancel: @escaping @Sendable () -> Void) {
    self.cancel = cancel
  }

  deinit { cancel() }
}

/// Fetches news for the system's background fetch, on a queue of its own.
///
/// A service for background work, so `nonisolated`: its store is resolved on that queue, from a
/// rule registered at launch on the main actor.
nonisolated final class NewsFetcher {
  @Lazy var newsStore: NewsStore

  func fetch() -> Bool {
    newsStore.fetch()
  }
}

/// The app delegate: it answers the system's background fetch.
@MainActor
final class AppDelegate {
  @Lazy var newsStore: NewsStore

  /// Fetches on a background queue, then tells the screens and the system, on the main actor.
  func performBackgroundFetch(completion: (FetchResult) -> Void) {
    let fetched = FetchOutcome()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let fetcher = NewsFetcher()
      fetched.hasNewData = fetcher.fetch()
      fetched.wasOnMainThread = Thread.isMainThread
      done.signal()
    }
    // The demo waits, so that its output keeps its order; an app returns here, and its
    // background task calls the completion handler.
    done.wait()
    say("  fetched on a background queue (main thread: \(fetched.wasOnMainThread))")
    newsStore.announceChanges()
    completion(fetched.hasNewData ? .newData : .noData)
  }
}

/// What a background fetch found, handed back to the main actor once the fetch has signalled.
nonisolated private final class FetchOutcome: @unchecked Sendable {
  // Written by the fetch before it signals, read after the wait: the semaphore orders them.
  var hasNewData = false
  var wasOnMainThread = true
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
        self?.storeDidChange(store)
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
    let items = newsStore.items
    say("  NewsTableViewController shows \(items.count) item(s): last \"\(items.last!.text)\"")
  }

  deinit {
    say("  NewsTableViewController released; it stops observing")
  }
}

/// A story's thumbnail, fetched for its screen.
nonisolated final class Thumbnail: Sendable, CustomStringConvertible {
  let headline: String
  private init(headline: String) { self.headline = headline }

  /// The simulated download.
  static func fetch(for headline: String) async -> Thumbnail {
    await Task.yield()
    return Thumbnail(headline: headline)
  }

  var description: String { "the thumbnail of \"\(headline)\"" }
}

/// A story's screen: its thumbnail is loaded for it when it appears.
@MainActor
final class StoryViewController {
  nonisolated let headline: String
  @Lazy var thumbnail: Thumbnail

  init(headline: String) { self.headline = headline }

  /// Loads the thumbnail (the first time, from the network), then shows it.
  func viewIsAppearing() async {
    do {
      let thumbnail = try await $thumbnail.load()
      say("  StoryViewController shows \(thumbnail); later reads: \(self.thumbnail === thumbnail)")
    } catch {
      say("  StoryViewController could not load its thumbnail: \(error)")
    }
  }
}

/// SplitMix64: a small, seeded generator, so the demo's output is the same on every run.
nonisolated struct SeededRandom: RandomNumberGenerator, Sendable {
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
