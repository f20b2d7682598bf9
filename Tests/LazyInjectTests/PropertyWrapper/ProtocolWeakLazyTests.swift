import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

/// What a flow tells the screen that started it: a class-bound protocol, as delegates are.
private protocol FlowDelegate: AnyObject, Sendable {
  var name: String { get }
}

private final class HostScreen: FlowDelegate {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class PaymentFlow {
  @WeakLazy var delegate: (any FlowDelegate)?
}

private final class RefundFlow: InjectionObserving {
  @WeakLazy var delegate: (any FlowDelegate)?
  var injected: [String] = []

  func didInject(_ value: Any, intoPropertyNamed name: String) {
    injected.append(name)
  }
}

private final class ValueHolder {
  @WeakLazy var count: Int?
}

private final class AnyObjectHolder {
  @WeakLazy var anything: AnyObject?
}

private struct WeakExistentialSlot {
  weak var delegate: (any FlowDelegate)?
}

/// The screen the app shows now; the rule for `PaymentFlow` hands it out.
private let currentHost = Locked<HostScreen?>(nil)

private let registrations: Void = {
  InitializerRegistry.shared.register((any FlowDelegate)?.self, in: PaymentFlow.self) { _ in
    currentHost.value
  }
}()

struct ProtocolWeakLazyTests {
  init() { registrations }

  @Test func protocolTypedPropertyResolvesAndDoesNotKeepTheInstanceAlive() {
    let flow = PaymentFlow()
    var host: HostScreen? = HostScreen("cart")
    weak let released = host
    currentHost.mutate { $0 = host }
    #expect(flow.delegate === host)
    #expect(flow.delegate?.name == "cart")
    currentHost.mutate { $0 = nil }
    host = nil
    #expect(released == nil, "the flow kept its delegate alive")
    #expect(flow.delegate == nil)
  }

  @Test func nonOptionalRuleOfTheProtocolApplies() {
    let host = HostScreen("root default")
    InitializerRegistry.shared.withOverrides {
      $0.register((any FlowDelegate).self) { _ in host }
    } operation: {
      #expect(RefundFlow().delegate === host)
    }
  }

  @Test func assignedInstanceIsHeldWeakly() {
    let flow = RefundFlow()
    var host: HostScreen? = HostScreen("assigned")
    flow.delegate = host
    #expect(flow.delegate?.name == "assigned")
    host = nil
    #expect(flow.delegate == nil)
  }

  @Test func concurrentFirstReadsBuildOneInstance() {
    let built = Counter()
    let kept = Locked<[HostScreen]>([])
    InitializerRegistry.shared.withOverrides {
      $0.register((any FlowDelegate).self, in: RefundFlow.self) { _ in
        let host = HostScreen("built \(built.increment())")
        kept.mutate { $0.append(host) }  // Kept alive, so that no read resolves twice.
        return host
      }
    } operation: {
      let flow = Handoff(value: RefundFlow())
      let seen = Locked<[ObjectIdentifier]>([])
      runConcurrently(threads: 8) { _ in
        if let delegate = flow.value.delegate {
          seen.mutate { $0.append(ObjectIdentifier(delegate)) }
        }
      }
      #expect(built.value == 1)
      #expect(Set(seen.value).count == 1)
    }
  }

  @Test func observerHearsTheProtocolTypedProperty() {
    let host = HostScreen("observed")
    InitializerRegistry.shared.withOverrides {
      $0.register((any FlowDelegate).self) { _ in host }
    } operation: {
      let flow = RefundFlow()
      #expect(flow.delegate === host)
      #expect(flow.injected == ["delegate"])
    }
  }

  @Test func anyObjectPropertyResolvesAndReadsAgain() {
    let host = HostScreen("any object")
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(AnyObject.self) { _ in host }
    } operation: {
      let holder = AnyObjectHolder()
      #expect(holder.anything === host)
      #expect(holder.anything === host)  // The read of the reference the slot keeps.
    }
  }

  @Test func takesNoMoreBytesThanAWeakVarOfTheProtocol() {
    #expect(
      MemoryLayout<WeakLazy<any FlowDelegate>>.size <= MemoryLayout<WeakExistentialSlot>.size)
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func nonClassTypeStopsTheProgramWithTheFix() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          _ = ValueHolder()
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("@WeakLazy holds its value weakly, so Swift.Int must be a class"))
      #expect(output.contains("Fix: declare the property with @Lazy"))
    }
  #endif

  @Test func missingRuleOfAProtocolTypedPropertyIsNil() {
    #expect(RefundFlow().delegate == nil)
  }
}
