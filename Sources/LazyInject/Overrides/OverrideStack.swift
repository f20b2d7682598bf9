import _LazyInjectShims

/// One override layer over a registry.
///
/// Two registries hold its rules: those its `configure` closure registered (the trait's, an
/// `OverridingTestCase`'s `overrides(_:)`), and those registered on the base registry while the
/// layer is in force (a test's body, production set-up it calls). Every layer's own rules rank
/// above every layer's in-force rules, so a mock wins whatever the order of registration. Both
/// share the layer's depth, and die with it.
internal struct OverrideLayer: Sendable {
  /// The registry the layer overrides.
  let base: ObjectIdentifier
  /// The rules `configure` registered.
  let registry: InitializerRegistry
  /// The rules registered on the base registry while the layer is in force.
  let inForce: InitializerRegistry
}

/// The override layers in force, outermost first: what a task holds in its task-local, and what
/// an object created under them keeps for its first reads (see `Capture`).
internal final class OverrideStack: Sendable {
  let layers: [OverrideLayer]
  /// Whether the stack joins an object's layers and a reader's that do not nest in them (see
  /// `adding(_:)`): its layers are then no single chain, and no layer may keep a shared
  /// instance built with any of them.
  let isMerged: Bool

  init(_ layers: [OverrideLayer], isMerged: Bool = false) {
    (self.layers, self.isMerged) = (layers, isMerged)
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
    let own = Set(layers.map { ObjectIdentifier($0.registry) })
    let added = reader.layers.filter { !own.contains(ObjectIdentifier($0.registry)) }
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

/// What an object made while override layers may be in force keeps, in each unresolved
/// property, for its first reads: the layers in force when it was made, and, for an object made
/// while a shared instance was being built, that build, whose keeper then decides its layers.
internal final class Capture: Sendable {
  let stack: OverrideStack?
  let build: SharedBuild?

  private init(stack: OverrideStack?, build: SharedBuild?) {
    (self.stack, self.build) = (stack, build)
  }

  /// The capture of the calling task, or nil when nothing is in force; in a process that never
  /// made a layer, nil at once.
  static var current: Capture? {
    guard _lazyinject_overrides_used() != 0 else { return nil }
    let (stack, build) = (OverrideScope.current, OverrideScope.sharedBuild)
    return stack == nil && build == nil ? nil : Capture(stack: stack, build: build)
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

/// The build of a shared instance under way in a process that made override layers: objects made
/// during it capture it, and learn once it ends which registry keeps the instance.
internal final class SharedBuild: Sendable {
  enum Keeper {
    case building
    /// Kept by the registry (nil) or by this override layer's registry.
    case kept(ObjectIdentifier?)
    /// Kept by nobody: it went to the read that built it alone.
    case notKept
  }

  let keeper = Protected(Keeper.building)
}

extension InitializerRegistry {
  /// The registries a resolution from this registry searches on the calling task, in order: the
  /// override layers in force (see `OverrideStack.searchOrder(over:)`), then the registry.
  package var searchedRegistries: [InitializerRegistry] {
    (OverrideScope.current?.searchOrder(over: self) ?? []) + [self]
  }

  /// How many override layers `registries`, a registry's search order, belong to: a layer's two
  /// parts count once.
  package static func layerCount(of registries: [InitializerRegistry]) -> Int {
    Set(registries.map(\.overrideDepth)).count - 1
  }

  /// `"Registry"`, `"Override layer 2"`, or `"Override layer 2, registered while in force"`.
  internal var layerTitle: String {
    guard overrideDepth > 0 else { return "Registry" }
    return "Override layer \(overrideDepth)" + (isInForce ? ", registered while in force" : "")
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
    _lazyinject_overrides_used() == 0 ? [] : current?.layers ?? []
  }

  /// The innermost layer over `base`, if any.
  static func innermostLayer(over base: InitializerRegistry) -> OverrideLayer? {
    layers.last { $0.base == ObjectIdentifier(base) }
  }

  /// The current layers plus a new one over `base`, filled by `configure`.
  static func stack(
    adding configure: (InitializerRegistry) throws -> Void, over base: InitializerRegistry
  ) rethrows -> OverrideStack {
    _lazyinject_set_overrides_used()
    let depth = layers.count { $0.base == ObjectIdentifier(base) } + 1
    let layer = OverrideLayer(
      base: ObjectIdentifier(base),
      registry: InitializerRegistry(overriding: base, depth: depth, isInForce: false),
      inForce: InitializerRegistry(overriding: base, depth: depth, isInForce: true))
    try $configuring.withValue(layer.registry) { try configure(layer.registry) }
    return OverrideStack(layers + [layer])
  }

  /// The innermost test running inside override layers on this task, if any.
  static var testName: String? { layers.reversed().lazy.compactMap(\.registry.testName).first }
}
