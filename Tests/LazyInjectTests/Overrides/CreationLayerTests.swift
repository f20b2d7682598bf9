import Foundation
import LazyInject
import Testing

private final class Gateway: Sendable {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private protocol Ledger: Sendable {
  var kind: String { get }
}

private struct LiveLedger: Ledger {
  let kind: String
}

private final class Parent: Sendable {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private protocol Delegate: AnyObject, Sendable {
  var kind: String { get }
}

private final class LiveDelegate: Delegate {
  let kind: String
  init(_ kind: String) { self.kind = kind }
}

private final class Checkout {
  @Lazy var gateway: Gateway
  @Lazy var ledger: any Ledger
  @WeakLazy var parent: Parent?
  @WeakLazy var delegate: (any Delegate)?
}

private final class SharedCart: Sendable {}

private final class CartScreen {
  @Lazy var cart: SharedCart
}

/// Built from the gateway its sender resolves.
private final class Till: Sendable {
  let gatewayKind: String
  init(gatewayKind: String) { self.gatewayKind = gatewayKind }
}

private final class TillScreen {
  @Lazy var till: Till
}

/// Registers a `.singleton` till, built from the gateway in force, in `layer`.
private func registerSingletonTill(in layer: InitializerRegistry) {
  layer.register(Till.self, scope: .singleton) { sender in
    Till(gatewayKind: try InitializerRegistry.shared.resolve(Gateway.self, for: sender).kind)
  }
}

/// Registers production for this file's types on `.shared` (outside any layer: on a thread of
/// its own, since a test's layer would take it), once.
private let production: Void = runConcurrently(threads: 1) { _ in
  let registry = InitializerRegistry.shared
  registry.register(Gateway.self) { _ in Gateway("live") }
  registry.register((any Ledger).self) { _ in LiveLedger(kind: "live") }
  registry.register(SharedCart.self, scope: .singleton) { _ in SharedCart() }
}

/// The instances the weak properties of `checkoutMadeWithMocks` get: a test keeps them alive.
///
/// (Not globals: a weak reference gives its object a side table, which a global object keeps for
/// the life of the process, where the leak sanitizer cannot see it.)
private struct WeakMocks {
  let parent = Parent("mock")
  let delegate = LiveDelegate("mock")
}

/// Makes a checkout inside a layer of mocks, and returns it unread.
private func checkoutMadeWithMocks(_ weakMocks: WeakMocks = WeakMocks()) -> Checkout {
  InitializerRegistry.shared.withOverrides {
    $0.register(Gateway.self) { _ in Gateway("mock") }
    $0.register((any Ledger).self) { _ in LiveLedger(kind: "mock") }
    $0.register(Parent?.self) { _ in weakMocks.parent }
    $0.register((any Delegate)?.self) { _ in weakMocks.delegate }
  } operation: {
    Checkout()
  }
}

// An object keeps the override layers in force when it was made: its properties resolve with
// them even when first read after the layer ended, and the reader's layers that it was not made
// under go above them.
struct CreationLayerTests {
  init() { production }

  @Test func objectMadeInsideALayerResolvesWithItAfterTheLayerEnded() {
    let weakMocks = WeakMocks()
    let checkout = checkoutMadeWithMocks(weakMocks)
    #expect(checkout.gateway.kind == "mock")
    #expect(checkout.ledger.kind == "mock")
    #expect(checkout.parent === weakMocks.parent)
    #expect(checkout.delegate === weakMocks.delegate)
  }

  @Test func objectMadeOutsideLayersResolvesWithTheReadersLayer() {
    let checkout = Checkout()
    InitializerRegistry.shared.withOverrides {
      $0.register(Gateway.self) { _ in Gateway("reader's mock") }
    } operation: {
      #expect(checkout.gateway.kind == "reader's mock")
    }
    #expect(Checkout().gateway.kind == "live")
  }

  @Test func readersOwnLayerGoesAboveTheObjectsLayers() {
    let checkout = checkoutMadeWithMocks()
    InitializerRegistry.shared.withOverrides {
      $0.register(Gateway.self) { _ in Gateway("reader's mock") }
    } operation: {
      #expect(checkout.gateway.kind == "reader's mock")
      #expect(checkout.ledger.kind == "mock")  // The object's layer, which the reader lacks.
    }
  }

  @Test func objectMadeInANestedLayerKeepsItInsideTheOuterOne() {
    InitializerRegistry.shared.withOverrides {
      $0.register(Gateway.self) { _ in Gateway("outer mock") }
    } operation: {
      let checkout = InitializerRegistry.shared.withOverrides {
        $0.register(Gateway.self) { _ in Gateway("inner mock") }
      } operation: {
        Checkout()
      }
      #expect(checkout.gateway.kind == "inner mock")
    }
  }

  @Test func unreadPropertyOfAnObjectMadeInALayerIsUnresolved() throws {
    let checkout = checkoutMadeWithMocks()
    #expect(!checkout.$gateway.isResolved)
    #expect(checkout.$gateway.rule == nil)
    _ = checkout.gateway
    #expect(checkout.$gateway.isResolved)
    #expect(try #require(checkout.$gateway.rule).overrideDepth == 1)
  }

  @Test func validateSeesAnUnreadPropertyOfAnObjectMadeInALayerAsUnresolved() {
    let checkout = checkoutMadeWithMocks()
    let registry = InitializerRegistry()
    #expect(throws: ResolutionError.self) { try registry.validate(checkout) }
  }

  @Test func resetForgetsTheObjectsLayers() {
    let checkout = checkoutMadeWithMocks()
    #expect(checkout.gateway.kind == "mock")
    checkout.$gateway.reset()
    #expect(checkout.gateway.kind == "live")
  }

  @Test func weakPropertyResolvesAgainWithTheObjectsLayersAfterItsInstanceWentAway() {
    let checkout = InitializerRegistry.shared.withOverrides {
      $0.register(Parent?.self) { _ in Parent("fresh mock") }
    } operation: {
      Checkout()
    }
    #expect(checkout.parent?.kind == "fresh mock")  // Built, and released after this read.
    #expect(checkout.parent?.kind == "fresh mock")  // Built again, with the object's layer.
    let kept = Parent("reader's mock")
    InitializerRegistry.shared.withOverrides {
      $0.register(Parent?.self) { _ in kept }
    } operation: {
      // The reader's layer goes above the object's: its rule wins.
      #expect(checkout.parent === kept)
    }
  }

  @Test func singletonBuiltForAnObjectMadeInALayerStaysInThatLayer() {
    let screen = InitializerRegistry.shared.withOverrides {
      $0.register(Gateway.self) { _ in Gateway("mock") }
      $0.register(SharedCart.self, scope: .singleton) { _ in SharedCart() }
    } operation: {
      CartScreen()
    }
    let production = CartScreen().cart
    #expect(screen.cart !== production)
    #expect(CartScreen().cart === production)
  }

  @Test func layersOfAnObjectAreReleasedWithTheObject() {
    final class Canary: Sendable {}
    weak var canary: Canary?
    // Only the layer's rule keeps the canary, and only the checkout keeps the layer.
    var checkout: Checkout? = InitializerRegistry.shared.withOverrides {
      let made = Canary()
      canary = made
      $0.register(Gateway.self) { _ in withExtendedLifetime(made) { Gateway("mock") } }
    } operation: {
      Checkout()
    }
    withExtendedLifetime(checkout) {
      #expect(canary != nil)  // The layer outlived its scope.
    }
    checkout = nil
    #expect(canary == nil)
  }

  @Test func concurrentFirstReadsOfAnObjectMadeInALayerBuildOneValue() {
    let built = Counter()
    let checkout = InitializerRegistry.shared.withOverrides {
      $0.register(Gateway.self) { _ in
        built.increment()
        return Gateway("mock")
      }
    } operation: {
      Handoff(value: Checkout())
    }
    let seen = Locked<[ObjectIdentifier]>([])
    runConcurrently(threads: 8) { _ in
      let gateway = checkout.value.gateway
      seen.mutate { $0.append(ObjectIdentifier(gateway)) }
    }
    #expect(built.value == 1)
    #expect(Set(seen.value).count == 1)
  }

  @Test func singletonOfTheObjectsLayerBuiltWithTheReadersMockIsKeptByNeither() {
    let (first, second) = InitializerRegistry.shared.withOverrides {
      registerSingletonTill(in: $0)
    } operation: {
      (TillScreen(), TillScreen())
    }
    InitializerRegistry.shared.withOverrides {
      $0.register(Gateway.self) { _ in Gateway("reader's mock") }
    } operation: {
      #expect(first.till.gatewayKind == "reader's mock")
    }
    // Kept by the object's layer, it would carry the other layer's mock to every object made in
    // that layer.
    #expect(second.till.gatewayKind == "live")
    #expect(second.till === second.till)
  }

  @Test func layerNestedInTheObjectsLayerKeepsTheSharedInstancesBuiltWithIt() {
    InitializerRegistry.shared.withOverrides {
      registerSingletonTill(in: $0)
    } operation: {
      let (first, second) = (TillScreen(), TillScreen())
      InitializerRegistry.shared.withOverrides {
        $0.register(Gateway.self) { _ in Gateway("nested mock") }
      } operation: {
        // The nested layer's stack is one chain with the objects' layer: it keeps the till.
        #expect(first.till.gatewayKind == "nested mock")
        #expect(second.till === first.till)
      }
      #expect(TillScreen().till.gatewayKind == "live")
    }
  }
}
