import LazyInject
import Swinject

// The app-scale group: what an app pays at launch for hundreds of first reads of new pairs (a
// property type and a container class), in a binary with tens of thousands of protocol
// conformances. Each executable of the group (AppScale0, AppScale200, AppScale20000) is this
// kit's runner over the code that AppScaleGenerator generated for it from its app-scale.json;
// `LazyInjectBenchmarks --only app-scale` builds them, runs each child mode in fresh processes,
// and prints the table (AppScaleMeasure.swift there).

/// What an app-scale executable generated: its services' reads, rules and registrations.
///
/// Every array holds one closure per service, in the same order. Each `lazyReads` closure reads
/// `use(opaque(Holder<i>()).service)`: a new container, returned by a function the optimizer
/// cannot see into, whose `@Lazy` property is read once and passed to a function that is never
/// inlined; the first call of a closure is the first read of its pair in the process.
/// `controlReads` does the same through `lazy var service = ControlService<i>()` in a
/// `ControlHolder<i>` of its own.
public struct AppScaleApp: Sendable {
  /// The module's name, as `validate(classesIn:)` takes it.
  public let moduleName: String
  /// The generated conformances to `AppScaleMarker`.
  public let conformances: Int
  /// The module of one rule per `@Lazy` service (`register(Service<i>.self) { _ in ... }`).
  public let module: any InitializerModule & Sendable
  /// Each `@Lazy` pair's read.
  public let lazyReads: [@Sendable () -> Void]
  /// Each `lazy var` control pair's read.
  public let controlReads: [@Sendable () -> Void]
  /// Registers one factory per Swinject service in a container.
  public let registerSwinject: @Sendable (Container) -> Void
  /// Each Swinject service's `resolve`, from a container `registerSwinject` filled.
  public let swinjectResolves: [@Sendable (Container) -> Void]
  /// Each swift-dependencies key's read, `Dependency(\.appScale<i>).wrappedValue`.
  public let dependencyReads: [@Sendable () -> Void]
  /// The sum of the `tag`s read, printed so that no read can be dropped.
  public let checksum: @Sendable () -> Int

  /// Gathers what the generated code of an executable made.
  public init(
    moduleName: String, conformances: Int, module: any InitializerModule & Sendable,
    lazyReads: [@Sendable () -> Void], controlReads: [@Sendable () -> Void],
    registerSwinject: @escaping @Sendable (Container) -> Void,
    swinjectResolves: [@Sendable (Container) -> Void],
    dependencyReads: [@Sendable () -> Void], checksum: @escaping @Sendable () -> Int
  ) {
    self.moduleName = moduleName
    self.conformances = conformances
    self.module = module
    self.lazyReads = lazyReads
    self.controlReads = controlReads
    self.registerSwinject = registerSwinject
    self.swinjectResolves = swinjectResolves
    self.dependencyReads = dependencyReads
    self.checksum = checksum
  }

  /// How many services (pairs) of each system.
  public var services: Int { lazyReads.count }
}

/// What the linked module of the group builds.
public final class AppScaleLinkedService: Sendable {
  /// A service.
  public init() {}
}

/// A linked module: the first use of `InitializerRegistry.shared` finds it in the conformance
/// records and installs it, as an app's feature packages' modules (row 3, first use).
public struct AppScaleLinkedInitializers: LinkedModule {
  /// The module, as the registry makes it.
  public init() {}

  /// Registers the linked service.
  public func register(in registry: InitializerRegistry) {
    registry.register(AppScaleLinkedService.self) { _ in AppScaleLinkedService() }
  }
}
