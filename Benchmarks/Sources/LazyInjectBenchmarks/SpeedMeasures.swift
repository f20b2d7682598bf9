import Dependencies
import LazyInject
import Swinject

// The measured loops. Each is a function of its own, never inlined, that returns a checksum.

@inline(never) func readLazyVar(_ holder: LazyVarHolder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= holder.service.value }
  return sum
}

@inline(never) func readLazy(_ holder: LazyInjectHolder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= holder.service.value }
  return sum
}

@inline(never) func readLazyVar(_ holder: LazyVarMutableHolder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= holder.service.value }
  return sum
}

@inline(never) func readLazy(_ holder: LazyMutableHolder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= holder.service.value }
  return sum
}

@inline(never) func readDependency(_ holder: DependencyHolder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= holder.service.value }
  return sum
}

@inline(never) func resolveSwinject(_ container: Container, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= container.resolve(Service.self)!.value }
  return sum
}

@inline(never) func coldLazyVar(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= LazyVarHolder().service.value }
  return sum
}

@inline(never) func coldLazy(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= LazyInjectHolder().service.value }
  return sum
}

@inline(never) func coldLazy<Holder: Level0>(_ make: () -> Holder, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= make().service.value }
  return sum
}

@inline(never) func coldDependency(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= DependencyHolder().service.value }
  return sum
}

@inline(never) func coldSwinject(_ container: Container, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count {
    let holder = SwinjectHolder()
    holder.service = container.resolve(Service.self)
    sum &+= holder.service!.value
  }
  return sum
}

@inline(never) func coldResolve(_ registry: InitializerRegistry, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= (try? registry.resolve(Service.self, for: Consumer()))?.value ?? 0 }
  return sum
}

/// The same shared value a singleton gives, read through `lazy var`.
let sharedManager = SharedManager()

final class LazyVarSingletonHolder {
  lazy var manager = sharedManager
}

@inline(never) func singletonLazyVar(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= LazyVarSingletonHolder().manager.value }
  return sum
}

@inline(never) func singletonLazy(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= SingletonHolder().manager.value }
  return sum
}

@inline(never) func singletonDependency(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= DependencySingletonHolder().manager.value }
  return sum
}

@inline(never) func singletonSwinject(_ container: Container, _ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count {
    let holder = SwinjectHolder()
    sum &+= container.resolve(SharedManager.self)!.value
    withExtendedLifetime(holder) {}
  }
  return sum
}

// MARK: Measures

func measureHotRead(_ settings: RunSettings) -> Measurement {
  let lazyVar = LazyVarHolder()
  let lazy = LazyInjectHolder()
  let dependency = DependencyHolder()
  _ = (lazyVar.service, lazy.service, dependency.service)
  let containerScope = makeSwinjectContainer(scope: .container)
  let transient = makeSwinjectContainer(scope: .transient)
  return measure(
    "Hot read of an already-resolved dependency", settings,
    [
      Candidate(name: "lazy var") { readLazyVar(lazyVar, $0) },
      Candidate(name: "@Lazy") { readLazy(lazy, $0) },
      Candidate(name: "swift-dependencies @Dependency") { readDependency(dependency, $0) },
      Candidate(name: "Swinject resolve, container scope") { resolveSwinject(containerScope, $0) },
      Candidate(name: "Swinject resolve, transient") { resolveSwinject(transient, $0) },
    ])
}

func measureHotReadOfMutableField(_ settings: RunSettings) -> Measurement {
  let lazyVar = LazyVarMutableHolder()
  let lazy = LazyMutableHolder()
  _ = (lazyVar.service, lazy.service)
  return measure(
    "Hot read of a `var` field of a resolved dependency", settings,
    [
      Candidate(name: "lazy var") { readLazyVar(lazyVar, $0) },
      Candidate(name: "@Lazy") { readLazy(lazy, $0) },
    ])
}

func measureCold(_ settings: RunSettings) -> Measurement {
  let transient = makeSwinjectContainer(scope: .transient)
  return measure(
    "Cold: new container, first read, release", settings,
    [
      Candidate(name: "lazy var") { coldLazyVar($0) },
      Candidate(name: "@Lazy") { coldLazy($0) },
      Candidate(name: "@Lazy, 1 class deep, registered at the root") { coldLazy(Level0.init, $0) },
      Candidate(name: "@Lazy, 5 classes deep") { coldLazy(Level4.init, $0) },
      Candidate(name: "@Lazy, 20 classes deep") { coldLazy(Level19.init, $0) },
      Candidate(name: "swift-dependencies @Dependency") { coldDependency($0) },
      Candidate(name: "Swinject resolve, transient") { coldSwinject(transient, $0) },
    ])
}

func measureSingleton(_ settings: RunSettings) -> Measurement {
  let container = makeSwinjectContainer(scope: .container)
  return measure(
    "Singleton from a fresh container", settings,
    [
      Candidate(name: "lazy var of a global") { singletonLazyVar($0) },
      Candidate(name: "@Lazy, singleton scope") { singletonLazy($0) },
      Candidate(name: "swift-dependencies @Dependency") { singletonDependency($0) },
      Candidate(name: "Swinject resolve, container scope") { singletonSwinject(container, $0) },
    ])
}

func measureRegistrySize(_ settings: RunSettings) -> Measurement {
  let sizes = [10, 1_000, settings.largestRegistry].filter { $0 <= settings.largestRegistry }
  var candidates = [Candidate(name: "lazy var") { coldLazyVar($0) }]
  for size in Array(Set(sizes)).sorted() {
    let registry = InitializerRegistry()
    register(randomKeys(size - 1), into: registry)
    registry.register(Service.self, in: Consumer.self) { _ in Service() }
    candidates.append(Candidate(name: "\(size) registrations") { coldResolve(registry, $0) })
  }
  return measure("Cold resolve(_:for:) by registry size", settings, candidates)
}
