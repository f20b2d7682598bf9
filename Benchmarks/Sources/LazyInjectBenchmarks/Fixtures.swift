import Dependencies
import LazyInject
import Swinject

/// What every system builds: one allocation, one field to read.
final class Service: Sendable, DefaultInitializable {
  let value: Int
  init() { value = 1 }
}

/// The same with a mutable field: reading a `var` of a class adds an exclusivity check.
final class MutableService: DefaultInitializable {
  var value = 1
  init() {}
}

final class LazyVarMutableHolder {
  lazy var service = MutableService()
}

final class LazyMutableHolder {
  @LazyInject.Lazy var service: MutableService
}

// MARK: lazy var

final class LazyVarHolder {
  lazy var service = Service()
}

// MARK: LazyInject

final class LazyInjectHolder {
  @LazyInject.Lazy var service: Service
}

/// A second type, so that its registration can live on the root of a class chain.
final class DeepService: Sendable {
  let value = 1
}

class Level0 {
  @LazyInject.Lazy var service: DeepService
}
class Level1: Level0 {}
class Level2: Level1 {}
class Level3: Level2 {}
class Level4: Level3 {}
class Level5: Level4 {}
class Level6: Level5 {}
class Level7: Level6 {}
class Level8: Level7 {}
class Level9: Level8 {}
class Level10: Level9 {}
class Level11: Level10 {}
class Level12: Level11 {}
class Level13: Level12 {}
class Level14: Level13 {}
class Level15: Level14 {}
class Level16: Level15 {}
class Level17: Level16 {}
class Level18: Level17 {}
final class Level19: Level18 {}

final class SharedManager: Sendable {
  let value = 1
}

final class SingletonHolder {
  @LazyInject.Lazy var manager: SharedManager
}

/// A container for explicit `resolve` calls.
final class Consumer {}

// MARK: swift-dependencies

private enum ServiceKey: DependencyKey {
  static var liveValue: Service { Service() }
}

private enum SharedManagerKey: DependencyKey {
  static let liveValue = SharedManager()
}

extension DependencyValues {
  var benchmarkService: Service {
    get { self[ServiceKey.self] }
    set { self[ServiceKey.self] = newValue }
  }

  var benchmarkManager: SharedManager {
    get { self[SharedManagerKey.self] }
    set { self[SharedManagerKey.self] = newValue }
  }
}

final class DependencyHolder {
  @Dependency(\.benchmarkService) var service
}

final class DependencySingletonHolder {
  @Dependency(\.benchmarkManager) var manager
}

// MARK: Swinject

// Swinject has a `Lazy` type too: with both imported, LazyInject's is `@LazyInject.Lazy`.

/// Swinject fills a property from `resolve`, as an app using it would.
final class SwinjectHolder {
  var service: Service?
}

func makeSwinjectContainer(scope: ObjectScope) -> Container {
  let container = Container()
  container.register(Service.self) { _ in Service() }.inObjectScope(scope)
  container.register(SharedManager.self) { _ in SharedManager() }.inObjectScope(.container)
  return container
}

// MARK: The targets' loop: the value passed on (TargetMeasures.swift)

/// What the targets' rows build and pass on: one allocation, one field to read.
final class TargetService: Sendable {
  let tag: Int
  init() { tag = 1 }
}

/// The control of the hot and cold targets.
final class PlainHolder {
  lazy var service = TargetService()
}

/// The hot and cold targets' container; its rule is `register(TargetService.self)`.
final class LazyHolder {
  @LazyInject.Lazy var service: TargetService
  init() {}
}

/// What the singleton target's rule keeps: one allocation, one field to read.
final class TargetSingle: Sendable {
  let tag: Int
  init() { tag = 1 }
}

/// The global instance the singleton target's control reads.
enum Global {
  static let single = TargetSingle()
}

/// The control of the singleton target.
final class PlainSingletonHolder {
  lazy var single = Global.single
}

/// A global instance made at run time, by a call the optimizer cannot see into.
///
/// A heap object, as a registered singleton is. `Global.single` is a statically initialized
/// object (`swift_initStaticObject`), immortal: its retains and releases write nothing.
enum HeapGlobal {
  static let single = madeAtRunTime()
}

@inline(never) @_optimize(none) func madeAtRunTime() -> TargetSingle { TargetSingle() }

/// The informative control of the singleton row: a `lazy var` of a global made at run time.
final class PlainHeapSingletonHolder {
  lazy var single = HeapGlobal.single
}

/// The singleton target's container; its rule is `register(TargetSingle.self, scope: .singleton)`.
final class LazySingletonHolder {
  @LazyInject.Lazy var single: TargetSingle
  init() {}
}

/// What `use` adds the tags to: printed by the targets' child processes.
nonisolated(unsafe) var usedSum = 0  // Written by the single benchmark thread only.

/// Takes a dependency, as an app passes one on: the value must exist, retained, at the call.
@inline(never) func use(_ service: TargetService) {
  usedSum &+= service.tag
}

/// The same for the singleton target's value.
@inline(never) func use(_ single: TargetSingle) {
  usedSum &+= single.tag
}

/// Returns `object`, out of the optimizer's sight, so that a container made in a loop lives on
/// the heap, as an app's view controllers and view models do.
///
/// Never inlined is not enough: the optimizer reads the effects of a function it does not
/// inline, learns that `object` only comes back, and puts a `lazy var` container that goes
/// nowhere else on the stack (`swift_initStackObject`: no malloc, no free). Unoptimized, the
/// function has no effects it can read; its body is a retain and a return.
@inline(never) @_optimize(none) func opaque<Object: AnyObject>(_ object: Object) -> Object {
  object
}

/// Registrations every run needs in `InitializerRegistry.shared`.
func registerLazyInjectFixtures() {
  let registry = InitializerRegistry.shared
  registry.register(TargetService.self) { _ in TargetService() }
  registry.register(TargetSingle.self, scope: .singleton) { _ in TargetSingle() }
  registry.register(Service.self) { _ in Service() }
  registry.register(DeepService.self, in: Level0.self) { _ in DeepService() }
  registry.register(SharedManager.self, scope: .singleton) { _ in SharedManager() }
  registry.register(RacedService.self) { _ in RacedService() }
}

// MARK: The costs of scopes, recording and discarded models (CostMeasures.swift)

extension InitializerRegistry.Scope {
  /// The custom scope of the session rows: an app's user session, dropped at log-out.
  static let session = Self.custom("session")
}

/// What the session scope keeps: one allocation, one field to read.
final class BenchmarkSession: Sendable {
  let value = 1
}

/// An object whose `@Lazy` property holds the session, through the handle a reset empties.
final class SessionHolder {
  @LazyInject.Lazy var session: BenchmarkSession
}

/// The five dependencies of the discarded model: small classes, each built by a `.unique` rule.
final class ModelAPI: Sendable {
  let value = 1
}

final class ModelStore: Sendable {
  let value = 1
}

final class ModelLogger: Sendable {
  let value = 1
}

final class ModelAnalytics: Sendable {
  let value = 1
}

final class ModelImages: Sendable {
  let value = 1
}

/// A view model made and discarded unread, as SwiftUI makes a `@State` model at each re-render
/// of its parent: its `@Lazy` dependencies are never built.
final class LazyViewModel {
  let tag = 1
  @LazyInject.Lazy var api: ModelAPI
  @LazyInject.Lazy var store: ModelStore
  @LazyInject.Lazy var logger: ModelLogger
  @LazyInject.Lazy var analytics: ModelAnalytics
  @LazyInject.Lazy var images: ModelImages
}

/// The same model resolving its five dependencies in `init`, as eager injection does (Factory's
/// `@Injected`): each discarded one built them all.
final class EagerViewModel {
  let tag = 1
  private(set) var api: ModelAPI?
  private(set) var store: ModelStore?
  private(set) var logger: ModelLogger?
  private(set) var analytics: ModelAnalytics?
  private(set) var images: ModelImages?

  init() {
    let registry = InitializerRegistry.shared
    api = try? registry.resolve(ModelAPI.self, for: self)
    store = try? registry.resolve(ModelStore.self, for: self)
    logger = try? registry.resolve(ModelLogger.self, for: self)
    analytics = try? registry.resolve(ModelAnalytics.self, for: self)
    images = try? registry.resolve(ModelImages.self, for: self)
  }
}

/// Registrations of the session and the model's dependencies, in `InitializerRegistry.shared`:
/// made only where those rows run, so that the targets' processes register what they did.
func registerCostFixtures() {
  let registry = InitializerRegistry.shared
  registry.register(BenchmarkSession.self, scope: .session) { _ in BenchmarkSession() }
  registry.register(ModelAPI.self) { _ in ModelAPI() }
  registry.register(ModelStore.self) { _ in ModelStore() }
  registry.register(ModelLogger.self) { _ in ModelLogger() }
  registry.register(ModelAnalytics.self) { _ in ModelAnalytics() }
  registry.register(ModelImages.self) { _ in ModelImages() }
}
