import Core
import Foundation

/// Records the events tracked: the test's stand-in for the app's client, which Feed requires.
final class AnalyticsSpy: AnalyticsClient, @unchecked Sendable {
  // `lock` guards `tracked`: screens may track from any thread.
  private let lock = NSLock()
  private var tracked: [String] = []

  /// The events tracked, in order.
  var events: [String] {
    lock.lock()
    defer { lock.unlock() }
    return tracked
  }

  func track(_ event: String) {
    lock.lock()
    defer { lock.unlock() }
    tracked.append(event)
  }
}
