import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// A nonisolated service registered with `registerOnMainActor` and kept as a singleton: whichever
// thread reads it first, a read off the main actor stops the program with the fix, so that a
// test run cannot pass where production crashes.

private final class Cache: Sendable {}

private final class Prefetcher: @unchecked Sendable {
  // Read from one thread at a time in the exit tests below; `@Lazy` guards its slot.
  @Lazy var cache: Cache
}

struct MainActorOrderTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func backgroundReadAfterTheMainActorBuiltTheSingletonStopsWithTheFix() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.registerOnMainActor(Cache.self, scope: .singleton) { _ in
            Cache()
          }
          let built = await MainActor.run { Prefetcher().cache }
          let cache = Locked<Cache?>(nil)
          runConcurrently(threads: 1) { _ in cache.mutate { $0 = Prefetcher().cache } }
          require(cache.value !== built, "unreachable")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("Prefetcher.cache off the main actor"), "\(output)")
      #expect(output.contains("register(_:in:)"))
    }

    @Test func backgroundReadBeforeTheMainActorBuiltTheSingletonStopsWithTheFix() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.registerOnMainActor(Cache.self, scope: .singleton) { _ in
            Cache()
          }
          runConcurrently(threads: 1) { _ in _ = Prefetcher().cache }
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("Prefetcher.cache off the main actor"), "\(output)")
    }
  #endif

  @Test @MainActor func mainActorReadsOfTheSingletonShareIt() {
    InitializerRegistry.shared.withOverrides {
      $0.registerOnMainActor(Cache.self, in: Prefetcher.self, scope: .singleton) { _ in Cache() }
    } operation: {
      let first = Prefetcher().cache
      #expect(Prefetcher().cache === first)
    }
  }
}
