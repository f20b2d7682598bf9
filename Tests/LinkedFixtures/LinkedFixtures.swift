import LazyInject

// Linked modules of the test binary: `InitializerRegistry.shared` installs `ProbeInitializers` in
// every test process, and the whole-app check on `shared` reports `GenericInitializers`. Only
// the types below use them, so no other test sees them.

/// What `ProbeInitializers` builds, saying who built it.
public final class LinkedProbe: Sendable {
  /// Who built it.
  public let origin: String

  /// A probe built by `origin`.
  public init(origin: String) { self.origin = origin }
}

/// A class whose property only `ProbeInitializers` serves.
public final class LinkedProbeScreen {
  /// Served by `ProbeInitializers` only.
  @Lazy public var probe: LinkedProbe

  /// A screen whose probe is not built yet.
  public init() {}
}

/// A linked module: no code of the program names it.
public struct ProbeInitializers: LinkedModule {
  /// The module, as the registry makes it.
  public init() {}

  /// Registers how `LinkedProbeScreen` gets its probe.
  public func register(in registry: InitializerRegistry) {
    registry.register(LinkedProbe.self, in: LinkedProbeScreen.self) { _ in
      LinkedProbe(origin: "ProbeInitializers")
    }
  }
}

/// A generic linked module, which cannot be made without its type argument.
public struct GenericInitializers<Service>: LinkedModule {
  /// The module, which the registry cannot make: it knows no `Service`.
  public init() {}

  /// Registers nothing.
  public func register(in registry: InitializerRegistry) {}
}

/// What only the program can build, which `RequiringInitializers` requires.
public protocol LinkedAnalytics: AnyObject {}

/// A class that reads what its package requires from the program.
public final class RequiringScreen {
  /// Served by the program, never by this package.
  @Lazy public var analytics: any LinkedAnalytics

  /// A screen whose analytics are not built yet.
  public init() {}
}

/// A module, not linked (tests install it into registries of their own), that requires
/// `any LinkedAnalytics` from the program.
public struct RequiringInitializers: InitializerModule {
  /// The module.
  public init() {}

  /// Registers nothing, and requires `any LinkedAnalytics`.
  public func register(in registry: InitializerRegistry) {
    registry.require((any LinkedAnalytics).self)
  }
}
