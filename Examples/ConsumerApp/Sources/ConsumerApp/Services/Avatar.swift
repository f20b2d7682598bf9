/// A user's picture, fetched for the screen that shows it.
nonisolated public struct Avatar: Sendable {
  /// Where the picture is.
  public let url: String

  /// Creates an avatar at `url`.
  public init(url: String) {
    self.url = url
  }

  /// Fetches the avatar of `user`.
  public static func fetch(for user: String) async throws -> Avatar {
    await Task.yield()  // stands for a request
    return Avatar(url: "https://cdn.example.com/\(user).png")
  }
}
