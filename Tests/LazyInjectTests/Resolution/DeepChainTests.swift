import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

/// A link of a chain: each link's value reads the `@Lazy` property of a new link.
final class ChainLink {
  final class Value: Sendable {
    let next: Value?
    init(next: Value?) { self.next = next }
  }
  let level: Int
  @Lazy var value: Value
  init(level: Int) { self.level = level }
}

private final class Anchor {}
private final class Node: Sendable {
  let child: Node?
  init(child: Node?) { self.child = child }
}

/// The stack of a secondary thread on Darwin (and of GCD and Swift concurrency workers).
private let darwinSecondaryThreadStack = 512 * 1024

struct DeepChainTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func endlessLazyChainOnA512KiBThreadStopsWithTheCycleMessage() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(ChainLink.Value.self, in: ChainLink.self) { link in
            ChainLink.Value(next: ChainLink(level: link.level + 1).value)
          }
          runOnThread(stackSize: darwinSecondaryThreadStack) {
            _ = ChainLink(level: 0).value
          }
          failExitTest("the endless chain returned")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("LazyInject found a dependency cycle"))
      #expect(output.contains("initializers deep"))
      #expect(output.contains("ChainLink.Value in LazyInjectTests.ChainLink.value"))
    }

    @Test func endlessResolveChainOnA512KiBThreadThrowsTheCycleError() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry()
        registry.register(Node.self) { [unowned registry] _ in
          Node(child: try registry.resolve(Node.self, for: Anchor()))
        }
        let outcome = Locked<String>("not run")
        runOnThread(stackSize: darwinSecondaryThreadStack) {
          do {
            _ = try registry.resolve(Node.self, for: Anchor())
            outcome.mutate { $0 = "returned" }
          } catch let error as ResolutionError {
            outcome.mutate { $0 = error.kind == .dependencyCycle ? "cycle" : "\(error)" }
          } catch {
            outcome.mutate { $0 = "\(error)" }
          }
        }
        if outcome.value != "cycle" { failExitTest("expected the cycle error: \(outcome.value)") }
      }
    }
  #endif

  @Test func hundredLevelChainOnA512KiBThreadSucceeds() throws {
    final class Link {
      let level: Int
      @Lazy var value: ChainLink.Value
      init(level: Int) { self.level = level }
    }
    InitializerRegistry.shared.register(ChainLink.Value.self, in: Link.self) { link in
      ChainLink.Value(next: link.level < 100 ? Link(level: link.level + 1).value : nil)
    }
    // Sanitizers about double the stack of each call; the thread grows with them.
    let stackSize = darwinSecondaryThreadStack * (isSanitized ? 3 : 1)
    let depth = Locked(0)
    runOnThread(stackSize: stackSize) {
      var next: ChainLink.Value? = Link(level: 0).value
      var count = 0
      while let current = next {
        count += 1
        next = current.next
      }
      depth.mutate { $0 = count }
    }
    #expect(depth.value == 101)
  }
}
