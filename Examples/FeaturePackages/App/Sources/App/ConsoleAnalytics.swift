import Core

/// The app's analytics client (a stand-in: it prints each event rather than send it).
///
/// `nonisolated`: events are tracked from any thread.
nonisolated public struct ConsoleAnalytics: AnalyticsClient {
  /// Creates the client.
  public init() {}

  /// Prints the event.
  public func track(_ event: String) {
    print("analytics: \(event)")
  }
}
