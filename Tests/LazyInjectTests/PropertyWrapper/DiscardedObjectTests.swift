import LazyInject
import Observation
import Testing

// SwiftUI makes view models more often than it shows them: a `@State` model's initializer runs
// again at each re-render of its parent, and only the first instance is kept. A `@Lazy`
// dependency of a model that is discarded is never built; a library that resolves in `init`
// builds every dependency of every discarded one.

private final class ProfileClient: Sendable {}
private final class ImageCache: Sendable {}
private final class Analytics: Sendable {}
private final class DateFormatting: Sendable {}
private final class ProfileStore: Sendable {}

/// How many dependencies were built.
private let built = Counter()

// Observation needs macOS 14 or iOS 17; the package supports older systems.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable @MainActor
private final class ProfileViewModel {
  @ObservationIgnored @Lazy var api: ProfileClient
  @ObservationIgnored @Lazy var images: ImageCache
  @ObservationIgnored @Lazy var analytics: Analytics
  @ObservationIgnored @Lazy var formatting: DateFormatting
  @ObservationIgnored @Lazy var store: ProfileStore
  var name = ""
}

struct DiscardedObjectTests {
  private static let rules: Void = {
    let registry = InitializerRegistry.shared
    registry.register(ProfileClient.self) { _ in
      built.increment()
      return ProfileClient()
    }
    registry.register(ImageCache.self) { _ in
      built.increment()
      return ImageCache()
    }
    registry.register(Analytics.self) { _ in
      built.increment()
      return Analytics()
    }
    registry.register(DateFormatting.self) { _ in
      built.increment()
      return DateFormatting()
    }
    registry.register(ProfileStore.self) { _ in
      built.increment()
      return ProfileStore()
    }
  }()

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test @MainActor func aModelMadeThreeTimesAndReadOnceBuildsOneDependency() {
    _ = Self.rules
    // Three renders of the parent: SwiftUI keeps the first model and discards the others.
    let kept = ProfileViewModel()
    for _ in 0..<2 { _ = ProfileViewModel() }
    #expect(built.value == 0)
    _ = kept.api  // The screen appears and reads one dependency.
    #expect(built.value == 1)
  }
}
