import ConsumerApp
import LazyInject
import XCTest

/// An XCTest method may be `async`: it prepares what launch prepares, then loads on the main actor.
nonisolated final class AsyncServicesXCTests: XCTestCase {
  func testModelLoadsItsAvatarFromThePreparedSession() async throws {
    try await InitializerRegistry.shared.prepare()
    let (user, avatarURL) = try await Self.openProfile()
    XCTAssertEqual(user, "ada")
    XCTAssertEqual(avatarURL, "https://cdn.example.com/ada.png")
  }

  @MainActor
  private static func openProfile() async throws -> (String, String?) {
    let model = ProfileViewModel()
    try await model.loadAvatar()
    return (model.session.user, model.avatarURL)
  }
}
