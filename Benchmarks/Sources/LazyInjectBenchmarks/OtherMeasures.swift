import AllocationCounter
import Dependencies
import Dispatch
import LazyInject
import Swinject

/// What a protocol-typed property stores.
protocol Loading: AnyObject {}

final class ProtocolHolder {
  @LazyInject.Lazy var loader: any Loading
}

final class LazyVarProtocolHolder {
  lazy var loader: any Loading = ConcreteLoader()
}

final class ConcreteLoader: Loading {}

/// One row of the memory table.
struct MemoryRow {
  let system: String
  let propertyBytes: Int
  let protocolPropertyBytes: Int?
  let allocationsPerResolution: Double?
}

/// Allocations made by `body`, per item, averaged over `count` items.
private func allocations(count: Int, _ body: () -> Void) -> Double? {
  guard allocation_counter_is_available() else { return nil }
  allocation_counter_set_enabled(true)
  defer { allocation_counter_set_enabled(false) }
  let before = allocation_counter_count()
  body()
  return Double(allocation_counter_count() - before) / Double(count)
}

/// Bytes per property before resolution, and heap allocations made by a first read.
func measureMemory() -> [MemoryRow] {
  let count = 1_000
  let lazyVarHolders = (0..<count).map { _ in LazyVarHolder() }
  let lazyHolders = (0..<count).map { _ in LazyInjectHolder() }
  let dependencyHolders = (0..<count).map { _ in DependencyHolder() }
  let swinjectHolders = (0..<count).map { _ in SwinjectHolder() }
  let container = makeSwinjectContainer(scope: .transient)
  return [
    MemoryRow(
      system: "lazy var", propertyBytes: MemoryLayout<Service?>.size,
      protocolPropertyBytes: MemoryLayout<(any Loading)?>.size,
      allocationsPerResolution: allocations(count: count) {
        for holder in lazyVarHolders { consume(holder.service.value) }
      }),
    MemoryRow(
      system: "@Lazy", propertyBytes: MemoryLayout<LazyInject.Lazy<Service>>.size,
      protocolPropertyBytes: MemoryLayout<LazyInject.Lazy<any Loading>>.size,
      allocationsPerResolution: allocations(count: count) {
        for holder in lazyHolders { consume(holder.service.value) }
      }),
    MemoryRow(
      system: "swift-dependencies @Dependency",
      propertyBytes: MemoryLayout<Dependency<Service>>.size, protocolPropertyBytes: nil,
      allocationsPerResolution: allocations(count: count) {
        for holder in dependencyHolders { consume(holder.service.value) }
      }),
    MemoryRow(
      system: "Swinject (optional property + resolve, transient)",
      propertyBytes: MemoryLayout<Service?>.size, protocolPropertyBytes: nil,
      allocationsPerResolution: allocations(count: count) {
        for holder in swinjectHolders {
          holder.service = container.resolve(Service.self)
          consume(holder.service!.value)
        }
      }),
  ]
}

/// Heap bytes of one new object of each holder class, as malloc was asked for them.
func objectBytes() -> (lazyVar: Int, lazy: Int)? {
  guard allocation_counter_is_available() else { return nil }
  allocation_counter_set_enabled(true)
  defer { allocation_counter_set_enabled(false) }
  let lazyVar = LazyVarHolder()
  let lazyVarBytes = Int(allocation_counter_last_size())
  let lazy = LazyInjectHolder()
  let lazyBytes = Int(allocation_counter_last_size())
  withExtendedLifetime((lazyVar, lazy)) {}
  return (lazyVarBytes, lazyBytes)
}

/// Nanoseconds per registration, and per installed module.
struct RegistrationCost {
  let count: Int
  let lazyInjectPerRegistration: Double
  let swinjectPerRegistration: Double
  let perModule: Double
}

private struct TenRegistrations: InitializerModule {
  let keys: ArraySlice<(property: Any.Type, container: AnyObject.Type)>

  func register(in registry: InitializerRegistry) {
    LazyInjectBenchmarks.register(Array(keys), into: registry)
  }
}

func measureRegistration(_ settings: RunSettings) -> RegistrationCost {
  let count = settings.largestRegistry
  let keys = randomKeys(count)
  let rounds = max(3, settings.rounds / 6)
  let lazyInject = timeOnce(rounds: rounds, count: count) {
    register(keys, into: InitializerRegistry())
  }
  let swinject = timeOnce(rounds: rounds, count: count) {
    register(keys, into: Container())
  }
  let modules = (0..<10).map {
    TenRegistrations(keys: keys.prefix(100)[($0 * 10)..<($0 * 10 + 10)])
  }
  let perModule = timeOnce(rounds: rounds * 10, count: modules.count) {
    let registry = InitializerRegistry()
    for module in modules { registry.install(module) }
  }
  return RegistrationCost(
    count: count, lazyInjectPerRegistration: lazyInject, swinjectPerRegistration: swinject,
    perModule: perModule)
}
