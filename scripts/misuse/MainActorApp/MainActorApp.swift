// Misuses a newcomer writes in an Xcode 26 app target (default main-actor isolation, as
// scripts/check-misuse builds this file): the wrong methods of the table in Registering
// Initializers, each with the compiler error that the table quotes (and Apps with Default
// Main-Actor Isolation, the form with `in:`). The line after `expect:` comments must get an
// error containing their text, joined with spaces.
import LazyInject

let registry = InitializerRegistry.shared

/// One of the app's types: main-actor isolated, with an initializer of its own.
final class Feed {
  init() {}
  static func load() async -> Feed { Feed() }
}

/// A screen of the app.
final class FeedScreen {}

/// A service for background work.
nonisolated final class FeedClient: Sendable {
  static func connect() async -> FeedClient { FeedClient() }
}

func mainActorTypeRegisteredWithRegister() {
  // expect: call to main actor-isolated initializer 'init()' in a synchronous nonisolated context
  registry.register(Feed.self) { _ in Feed() }
}

func asyncInitializerOfAMainActorTypeRegisteredOnTheMainActor() {
  // expect: 'registerOnMainActor(_:scope:fileID:line:_:)' is unavailable: an async initializer is
  // expect: registered with register(_:scope:_:), for a main-actor type too: it is awaited on the
  // expect: actor its closure is isolated to, as in { @MainActor sender in ... }
  registry.registerOnMainActor(Feed.self) { _ in await Feed.load() }
}

func asyncInitializerForAContainerRegisteredOnTheMainActor() {
  // expect: 'registerOnMainActor(_:in:scope:fileID:line:_:)' is unavailable: an async initializer
  // expect: is registered with register(_:in:scope:_:), for a main-actor type too: it is awaited
  // expect: on the actor its closure is isolated to, as in { @MainActor sender in ... }
  registry.registerOnMainActor(Feed.self, in: FeedScreen.self) { _ in await Feed.load() }
}

func asyncInitializerWithoutMainActorCallingASynchronousOne() {
  registry.register(Feed.self) { _ in
    await Task.yield()
    // expect: main actor-isolated initializer 'init()' cannot be called from outside of the actor
    return Feed()
  }
}

func asyncInitializerOfANonisolatedTypeRegisteredOnTheMainActor() {
  // expect: 'registerOnMainActor(_:scope:fileID:line:_:)' is unavailable: an async initializer is
  // expect: registered with register(_:scope:_:), for a main-actor type too: it is awaited on the
  // expect: actor its closure is isolated to, as in { @MainActor sender in ... }
  registry.registerOnMainActor(FeedClient.self) { _ in await FeedClient.connect() }
}
