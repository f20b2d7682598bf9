import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// `@WeakLazy` of a class-bound protocol with a primary associated type, `(any Producer<Int>)?`:
// its metadata is an extended existential (kind 0x307), whose class constraint LazyInject does
// not read; the first value decides.

private protocol Producer<Output>: AnyObject, Sendable {
  associatedtype Output
  func produce() -> Output
}

private final class NumberSource: Producer {
  func produce() -> Int { 42 }
}

private protocol ValueProducer<Output>: Sendable {
  associatedtype Output
}

private struct IntProducer: ValueProducer {
  typealias Output = Int
}

private final class Dashboard {
  @WeakLazy var producer: (any Producer<Int>)?
}

private final class ValueDashboard {
  @WeakLazy var producer: (any ValueProducer<Int>)?
}

struct PrimaryAssociatedTypeWeakLazyTests {
  @Test func classBoundProtocolWithAPrimaryAssociatedTypeResolvesAndIsHeldWeakly() {
    InitializerRegistry.shared.withOverrides {
      $0.register((any Producer<Int>)?.self, in: Dashboard.self) { _ in NumberSource() }
    } operation: {
      let dashboard = Dashboard()
      // Resolved for this read, and released with it: the property holds it weakly.
      #expect(dashboard.producer?.produce() == 42)
      weak let first = dashboard.producer
      #expect(first == nil)
      let kept: any Producer<Int> = NumberSource()
      dashboard.producer = kept
      #expect(dashboard.producer === kept)
    }
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func protocolThatIsNotClassBoundStopsTheProgramAtItsFirstValue() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          let dashboard = ValueDashboard()  // Its metadata does not tell: made all the same.
          dashboard.producer = IntProducer()
          failExitTest("a value that is no object was stored weakly")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("must be a class or a class-bound protocol"))
    }
  #endif
}
