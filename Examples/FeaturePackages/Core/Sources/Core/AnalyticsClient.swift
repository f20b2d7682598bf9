/// Records what users do.
///
/// Only the app can build one (it knows its analytics account), so the feature packages
/// require it rather than register it.
public protocol AnalyticsClient: Sendable {
  /// Records that `event` happened.
  func track(_ event: String)
}
