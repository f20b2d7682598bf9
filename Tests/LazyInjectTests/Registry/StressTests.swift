import Foundation
import LazyInject
import Testing

private final class Value: Sendable {
  let tag: Int
  init(tag: Int) { self.tag = tag }
}

private final class Ephemeral {}

private class Container0 {}
private final class Container1: Container0 {}
private final class Container2: Container0 {}
private final class Container3: Container0 {}
private final class Container4 {}
private final class Container5 {}
private final class Container6 {}
private final class Container7 {}

private let containers: [AnyObject.Type] = [
  Container0.self, Container1.self, Container2.self, Container3.self, Container4.self,
  Container5.self, Container6.self, Container7.self,
]

private func make(_ type: AnyObject.Type) -> AnyObject {
  switch type {
  case is Container1.Type: Container1()
  case is Container2.Type: Container2()
  case is Container3.Type: Container3()
  case is Container4.Type: Container4()
  case is Container5.Type: Container5()
  case is Container6.Type: Container6()
  case is Container7.Type: Container7()
  default: Container0()
  }
}

private func register<P>(
  _ property: P.Type, in container: AnyObject.Type, into registry: InitializerRegistry,
  _ make: @escaping @Sendable () -> P
) {
  func open<C: AnyObject>(_: C.Type) { registry.register(P.self, in: C.self) { _ in make() } }
  open(container)
}

private func unregister<P>(
  _ property: P.Type, in container: AnyObject.Type, from registry: InitializerRegistry
) {
  func open<C: AnyObject>(_: C.Type) { registry.unregister(P.self, in: C.self) }
  open(container)
}

/// Runs `body(thread)` on `threads` threads for each of `rounds` rounds, starting each round
/// on every thread at once and waiting for all before the next.
private func runRounds(
  threads: Int, rounds: Int, prepare: @escaping () -> Void = {},
  body: @escaping @Sendable (Int) -> Void
) {
  let starts = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
  let done = DispatchSemaphore(value: 0)
  for thread in 0..<threads {
    Thread.detachNewThread {
      for _ in 0..<rounds {
        starts[thread].wait()
        body(thread)
        done.signal()
      }
    }
  }
  for _ in 0..<rounds {
    prepare()
    for start in starts { start.signal() }
    for _ in 0..<threads { done.wait() }
  }
}

/// The registry of the current round of the singleton stress test.
private final class RoundState: @unchecked Sendable {
  // Written by the driving thread between rounds, read by the racers during a round; the
  // semaphores of `runRounds` order the two.
  var registry = InitializerRegistry()
  var built = Counter()
  let seen = SerialCollector()
}

struct StressTests {
  @Test func manyThreadsRegisteringUnregisteringAndResolvingLoseNoRegistration() throws {
    let registry = InitializerRegistry()
    registry.duplicateRegistrationHandler = { _ in }
    runRounds(threads: 8, rounds: 300) { thread in
      let own: any AnyObject.Type = containers[thread]
      register(Value.self, in: own, into: registry) { Value(tag: thread) }
      register(Ephemeral.self, in: own, into: registry) { Ephemeral() }
      _ = try? registry.resolve(Value.self, for: make(containers[(thread + 1) % 8]))
      _ = try? registry.resolve(Ephemeral.self, for: make(own))
      unregister(Ephemeral.self, in: own, from: registry)
      _ = registry.explain(Value.self, in: own)
    }
    for (tag, container): (Int, any AnyObject.Type) in containers.enumerated() {
      #expect(try registry.resolve(Value.self, for: make(container)).tag == tag)
      #expect(throws: ResolutionError.self) {
        try registry.resolve(Ephemeral.self, for: make(container))
      }
    }
  }

  @Test func singletonIsBuiltOnceByEightThreadsInEachOfTenThousandRounds() {
    let rounds = 10_000
    let state = RoundState()
    var duplicateRounds = 0
    var round = 0
    runRounds(
      threads: 8, rounds: rounds,
      prepare: {
        if round > 0 && state.built.value != 1 { duplicateRounds += 1 }
        round += 1
        let built = Counter()
        state.built = built
        state.registry = InitializerRegistry()
        state.registry.register(Value.self, scope: .singleton) { _ in
          Value(tag: built.increment())
        }
      },
      body: { _ in
        let value = try? state.registry.resolve(Value.self, for: Container4())
        state.seen.append(value?.tag ?? -1)
      })
    if state.built.value != 1 { duplicateRounds += 1 }
    #expect(duplicateRounds == 0)
    #expect(state.seen.values.count == rounds * 8)
    #expect(state.seen.values.allSatisfy { $0 == 1 })
  }
}
