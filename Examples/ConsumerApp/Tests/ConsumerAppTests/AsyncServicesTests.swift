import ConsumerApp
import LazyInject
import LazyInjectTesting
import Testing

/// Services that must await to exist: prepared at launch, or loaded by the screen that shows them.
@MainActor
struct AsyncServicesTests {
  @Test func preparedSessionIsReadAsAPlainProperty() async throws {
    try await InitializerRegistry.shared.prepare()
    #expect(ProfileViewModel().session.user == "ada")
  }

  @Test func modelLoadsItsAvatarOnceAndThenReadsIt() async throws {
    try await InitializerRegistry.shared.prepare()
    let model = ProfileViewModel()
    #expect(model.$avatar.isResolved == false)
    try await model.loadAvatar()
    #expect(model.avatarURL == "https://cdn.example.com/ada.png")
    #expect(model.avatar.url == "https://cdn.example.com/ada.png")
    #expect(model.$avatar.rule?.isAsync == true)
  }

  /// A test swaps an async production rule for a synchronous stub: reads need no `load()`.
  @Test(.overrides { $0.register(Avatar.self) { _ in Avatar(url: "stub.png") } })
  func synchronousStubReplacesTheAsyncAvatar() {
    #expect(ProfileViewModel().avatar.url == "stub.png")
  }

}
