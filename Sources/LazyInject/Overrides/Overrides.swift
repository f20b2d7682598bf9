import _LazyInjectShims

extension InitializerRegistry {
  /// Runs `operation` with extra registrations that win over this registry's, as tests do to swap
  /// in mocks.
  ///
  /// ```swift
  /// InitializerRegistry.shared.withOverrides { overrides in
  ///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
  ///   overrides.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
  ///     StubLoader()
  ///   }
  /// } operation: {
  ///   UsersViewController().loadResources()
  ///   // Its request manager is the mock; other containers' loaders are untouched.
  /// }
  /// ```
  ///
  /// `configure` registers into a fresh, empty layer. While `operation` runs, every resolution
  /// from this registry on the same task (or, outside tasks, the same thread) looks at that layer
  /// first: a rule from it beats every rule of the layers below, however deep its container class,
  /// and within the layer the most specific rule wins as usual. Nested calls stack, the innermost
  /// first. No code outside `operation` sees the layer (only the objects created inside it, see
  /// below), so tests running in parallel can each override ``shared``.
  ///
  /// Registering on this registry while `operation` runs (in a test's body, a suite's `init`,
  /// or production set-up that a test calls) adds to the innermost layer too, below the rules
  /// of every layer's `configure`: a mock always wins over a registration made while it is in
  /// force, whatever the order. Unregistering and resetting apply to the innermost layer. All of
  /// it dies with the layer: a test never changes the registry that parallel tests share.
  /// Inside `configure`, registering on this registry adds to the layer being configured.
  ///
  /// An object created while `operation` runs keeps its layers: its `@Lazy` and `@WeakLazy`
  /// properties resolve with them even when first read after `withOverrides` returned, as a
  /// view model created in a preview or a factory does. Read inside other layers, such a property
  /// resolves with the object's layers and, above them, the reader's layers that the object was
  /// not created under. Those layers are no single chain, so a shared instance whose build used
  /// any of them goes to that read alone: no layer keeps it.
  ///
  /// Singletons built from the layer's registrations belong to the layer and go away with it. So
  /// does a shared (singleton, weak or custom-scope) instance of the registry whose build used a
  /// rule of the layer, directly or through the values it needed: it is seen only inside the
  /// layer, never by later or parallel code. A registry singleton whose build used no override is
  /// shared as usual.
  ///
  /// The layers are a task-local value: a `Task {}` created inside `operation` inherits them, as
  /// it inherits every task-local value, and keeps seeing the overrides (and keeping the layer
  /// alive) after `withOverrides` has returned, whatever other tasks and threads do. A
  /// `Task.detached` does not inherit them.
  ///
  /// The first override layer of a process turns the fast path of first reads off for the rest
  /// of it (see <doc:ConcurrencyAndLifetimes#The-fast-path-and-when-it-is-off>): measure speed in
  /// a process that makes none.
  ///
  /// - Parameters:
  ///   - configure: Registers the overriding initializers.
  ///   - operation: The code that sees the overrides.
  /// - Returns: What `operation` returns.
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void, operation: () throws -> Result
  ) rethrows -> Result {
    let stack = try OverrideScope.stack(adding: configure, over: self)
    return try OverrideScope.$current.withValue(stack, operation: operation)
  }

  /// Runs the asynchronous `operation` with extra registrations that win over this registry's.
  ///
  /// ```swift
  /// await InitializerRegistry.shared.withOverrides { overrides in
  ///   overrides.register(RequestManager.self) { _ in MockRequestManager() }
  /// } operation: {
  ///   await feed.refresh()  // resolutions after suspension points see the mock too
  /// }
  /// ```
  ///
  /// The overrides follow `operation` across suspension points and into its child tasks; see
  /// ``withOverrides(_:operation:)`` for the rules. Made first off the main actor, it awaits the
  /// installation of the automatic modules on the main actor, blocking no thread.
  public func withOverrides<Result>(
    _ configure: (InitializerRegistry) throws -> Void,
    isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
  ) async rethrows -> Result {
    await installAutomaticModulesIfNeeded()
    let stack = try OverrideScope.stack(adding: configure, over: self)
    return try await OverrideScope.$current.withValue(
      stack, operation: operation, isolation: isolation)
  }
}

/// One override layer over a registry.
///
/// Two registries hold its rules: those its `configure` closure registered (the trait's, an
/// `OverridingTestCase`'s `overrides(_:)`), and those registered on the base registry while the
/// layer is in force (a test's body, production set-up it calls). Every layer's own rules rank
/// above every layer's in-force rules, so a mock wins whatever the order of registration. Both
/// share the layer's depth, and die with it.
internal struct OverrideLayer: Sendable {
  /// The rules `configure` registered.
  let registry: InitializerRegistry
  /// The rules registered on the base registry while the layer is in force.
  let inForce: InitializerRegistry
  /// The registry the layer overrides.
  var base: ObjectIdentifier { registry.root }
}

/// The override layers in force, outermost first: what a task holds in its task-local, and what
/// an object created under them keeps for its first reads (see `CreationLayers`).
internal final class OverrideStack: Sendable {
  let layers: [OverrideLayer]
  /// Whether the stack joins an object's layers and a reader's that do not nest in them (see
  /// `adding(_:)`): its layers are then no single chain, and no layer may keep a shared
  /// instance built with any of them.
  let isMerged: Bool

  init(_ layers: [OverrideLayer], isMerged: Bool = false) {
    self.layers = layers
    self.isMerged = isMerged
  }

  /// The registries a resolution from `base` searches before `base` itself: every layer's own
  /// rules, innermost first, then every layer's in-force rules, innermost first.
  func searchOrder(over base: InitializerRegistry) -> [InitializerRegistry] {
    let over = layers.reversed().filter { $0.base == ObjectIdentifier(base) }
    return over.map(\.registry) + over.map(\.inForce)
  }

  /// The layers of this stack, then those of `reader` that it lacks: the layers a first read of
  /// an object created under this stack uses, made where `reader` is in force.
  ///
  /// When the reader's layers nest inside this stack's (a layer made inside the one the object
  /// was made in), that is the reader's stack: one chain.
  func adding(_ reader: OverrideStack?) -> OverrideStack {
    guard let reader, reader !== self else { return self }
    if reader.layers.starts(with: layers, by: { $0.registry === $1.registry }) { return reader }
    let added = reader.layers.filter { new in !layers.contains { $0.registry === new.registry } }
    return added.isEmpty ? self : OverrideStack(layers + added, isMerged: true)
  }

  /// The layers up to and including the one that holds `registry` (either part of it): the
  /// chain of layers a shared instance kept by `registry` was built in; nil if none holds it.
  func chain(through registry: ObjectIdentifier) -> OverrideStack? {
    layers.firstIndex {
      ObjectIdentifier($0.registry) == registry || ObjectIdentifier($0.inForce) == registry
    }
    .map { OverrideStack(Array(layers[...$0])) }
  }
}

/// The override layers an object keeps, in each unresolved property, for its first reads: those
/// in force when it was made, and, for an object made while a shared instance was being built,
/// that build, whose keeper then decides its layers.
internal final class CreationLayers: Sendable {
  let stack: OverrideStack?
  let build: SharedBuild?

  /// The layers of the calling task, or nil when nothing is in force; in a process that never
  /// made a layer, nil at once.
  static var current: CreationLayers? { CreationLayers() }

  /// The calling task's layers (see `current`).
  private init?() {
    guard _lazyinject_layers_made() != 0 else { return nil }
    stack = OverrideScope.current
    build = OverrideScope.sharedBuild
    if stack == nil && build == nil { return nil }
  }

  /// The layers a first read made where `reader` is in force uses: those of the keeper of the
  /// shared instance the object belongs to, whoever reads it (none for the registry, or a layer
  /// the reader is not under), so that a reader's mocks never reach a kept instance; else the
  /// object's layers with the reader's it lacks.
  func layers(readBy reader: OverrideStack?) -> OverrideStack? {
    if let build, case .kept(let keeper) = build.keeper.withLock({ $0 }) {
      return keeper.flatMap { reader?.chain(through: $0) }
    }
    return stack.map { $0.adding(reader) } ?? reader
  }
}

/// A shared instance's build under way in a process that made override layers: it records the
/// layers the build used across suspensions (an async build, or an object's first reads made
/// with no resolution of its own around them), and objects made during it learn from it, once
/// it ends, which registry keeps the instance.
internal final class SharedBuild: Sendable {
  enum Keeper {
    case building
    /// Kept by the registry (nil) or by this override layer's registry.
    case kept(ObjectIdentifier?)
    /// Kept by nobody: it went to the read that built it alone.
    case notKept
  }

  let keeper = Protected(Keeper.building)
  let uses = Protected(LayersUsed())
}

/// The override layers whose rules a build used, directly or through the values it read: what
/// decides which layer, if any, keeps a shared instance built with them.
///
/// Trivial, like the frames that hold it: layers are named, not retained. Every layer added comes
/// from a task's stack, a chain, so the innermost says it all, unless they are no single chain.
@usableFromInline internal struct LayersUsed {
  /// An override layer, as named here: its identity and what comparing layers needs.
  @usableFromInline struct Layer {
    @usableFromInline let identifier: ObjectIdentifier
    /// How many layers deep it is over its base registry (`overrideDepth`).
    @usableFromInline let depth: Int
    /// The identity of the registry it overrides.
    @usableFromInline let base: ObjectIdentifier
  }

  /// The innermost layer used, if any.
  @usableFromInline var layer: Layer?
  /// Whether the layers used are no single chain (the override layers of more than one registry,
  /// or layers used under an object's layers merged with a reader's): no layer may keep what was
  /// built with them.
  @usableFromInline var isMixed: Bool

  @inlinable init() {
    layer = nil
    isMixed = false
  }

  /// A use of `layer`.
  init(_ layer: InitializerRegistry) {
    self.layer = Layer(
      identifier: ObjectIdentifier(layer), depth: layer.overrideDepth, base: layer.root)
    isMixed = false
  }

  /// Whether nothing was used.
  var isEmpty: Bool { layer == nil && !isMixed }

  /// Adds what `other` used.
  mutating func add(_ other: LayersUsed) {
    if other.isMixed {
      isMixed = true
    }
    guard let used = other.layer else { return }
    guard let current = layer else {
      layer = used
      return
    }
    // Layers over two registries are no single chain.
    if current.base != used.base {
      isMixed = true
    }
    // Of one chain, the innermost layer used says it all.
    if used.depth > current.depth {
      layer = used
    }
  }
}

extension InitializerRegistry {
  /// The registries a resolution from this registry searches on the calling task, in order: the
  /// override layers in force (see `OverrideStack.searchOrder(over:)`), then the registry.
  package var searchedRegistries: [InitializerRegistry] { searched(under: OverrideScope.current) }

  /// The registries a resolution from this registry searches under `stack`, in order.
  ///
  /// The override layers of `stack` in force, then the registry; with no layer, `alone`.
  func searched(under stack: OverrideStack?) -> [InitializerRegistry] {
    if let stack {
      return stack.searchOrder(over: self) + [self]
    }
    return alone
  }

  /// `[self]`: for the shared registry, the same array every time (`sharedAlone`), rather than
  /// one allocated for each new pair read and each rule registered.
  var alone: [InitializerRegistry] {
    self === Self.shared ? Self.sharedAlone : [self]
  }

  private static let sharedAlone = [shared]

  /// How many override layers `registries`, a registry's search order, belong to: a layer's two
  /// parts count once.
  package static func layerCount(of registries: [InitializerRegistry]) -> Int {
    Set(registries.map(\.overrideDepth)).count - 1
  }
}

/// The override layers in force for the current task or thread.
internal enum OverrideScope {
  @TaskLocal static var current: OverrideStack?

  /// The layer whose `configure` closure is running: registering on its base registry adds to it.
  @TaskLocal static var configuring: InitializerRegistry?

  /// The build of a shared instance under way on this task (see `SharedBuild`).
  @TaskLocal static var sharedBuild: SharedBuild?

  /// The layers in force, outermost first; empty until the first layer of the process is made
  /// (reading the task-local would cost a sixth of a first read).
  static var layers: [OverrideLayer] {
    _lazyinject_layers_made() == 0 ? [] : current?.layers ?? []
  }

  /// The current layers plus a new one over `base`, filled by `configure`.
  static func stack(
    adding configure: (InitializerRegistry) throws -> Void, over base: InitializerRegistry
  ) rethrows -> OverrideStack {
    _lazyinject_set_overrides_used()
    let depth = layers.count { $0.base == ObjectIdentifier(base) } + 1
    let layer = OverrideLayer(
      registry: InitializerRegistry(overriding: base, depth: depth),
      inForce: InitializerRegistry(overriding: base, depth: depth, inForce: true))
    try $configuring.withValue(layer.registry) { try configure(layer.registry) }
    return OverrideStack(layers + [layer])
  }

  /// The innermost test running inside override layers on this task, if any.
  static var testName: String? { layers.reversed().lazy.compactMap(\.registry.testName).first }
}

extension InitializerRegistry {
  // For LazyInjectTesting: the trait and the XCTest base class name the test they run in their
  // layer's `configure`, so that a failed `@Lazy` read says which test it stopped.

  /// The test that runs inside this override layer, which a testing helper names in the layer's
  /// `configure` closure (setting `State.testName`); nil for a registry.
  package var testName: String? { withState(\.testName) }
}
