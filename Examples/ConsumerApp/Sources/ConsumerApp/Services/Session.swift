/// The signed-in session, restored from storage at launch: it must await to exist.
///
/// Registered with an async initializer and no sender, so the app prepares it at launch
/// (`prepare()`) and every screen then reads it as a plain property.
nonisolated public final class Session: Sendable {
  /// The signed-in user's name.
  public let user: String

  /// Creates a session for `user`.
  public init(user: String) {
    self.user = user
  }

  /// Restores the session that was saved when the app last ran.
  public static func restore() async throws -> Session {
    await Task.yield()  // stands for reading the keychain
    return Session(user: "ada")
  }
}
