/// One registered initializer, its rule and the instance its scope keeps.
///
/// The mutable state is read and written only with the owning registry's lock held.
@usableFromInline
internal class AnyRegistration: @unchecked Sendable {
  /// What the rule says; also kept by a pin (see `RuleTable.pin`), which outlives the
  /// registration without keeping its initializer or instance.
  @usableFromInline
  let source: RuleSource

  var propertyType: Any.Type { source.propertyType }
  var containerType: AnyClass? { source.containerType }
  var scope: InitializerRegistry.Scope { source.scope }
  var overrideDepth: Int { source.layer.depth }

  /// The thread building the instance of a shared (not `.unique`) registration, if any.
  var builder: UnsafeRawPointer?

  /// The generation of the scope (see `InitializerRegistry.reset(_:)`) when `builder` started.
  var builtInGeneration = 0

  /// The instance of a `.singleton` or custom-scope registration.
  var singleton: Any?

  /// The same instance when the property type is a class.
  ///
  /// A resolution returns it with no cast (casting from `Any` took a sixth of a singleton's first
  /// read, measured). An express plan may name it (see `ScopePolicy.dropInstance(of:)`).
  var singletonObject: AnyObject?

  /// The instance of a `.weak` registration.
  weak var weakInstance: AnyObject?

  /// What the scope keeps, read without copying the scope (a custom scope's name).
  let policy: ScopePolicy

  init(source: RuleSource) {
    self.source = source
    policy = ScopePolicy(source.scope)
  }

  /// The rule, for diagnostics.
  var rule: InitializerRegistry.Rule { source.rule }
}

/// The description of a registration: what diagnostics and `$property.rule` print.
@usableFromInline
internal final class RuleSource: Sendable {
  let propertyType: Any.Type
  let containerType: AnyClass?
  let scope: InitializerRegistry.Scope
  let fileID: StaticString
  let line: UInt
  /// Where the registration lives: the registry, or an override layer.
  let layer: Layer
  /// Whether the initializer runs on the main actor.
  let isMainActor: Bool
  /// The module that made the registration, with its condition, if any.
  let moduleName: String?
  /// For a property rule, its property; nil for a rule of every property of the type.
  let property: PropertyTarget?
  /// For a forward, the type it resolves instead.
  let forwardTarget: Any.Type?

  /// The registry, or an override layer, with the part of it the registration belongs to.
  struct Layer: Sendable {
    /// 0 for the registry itself; n for the n-th override layer.
    let depth: Int
    /// Whether it was registered while the layer was in force rather than by its `configure`.
    let isInForce: Bool

    init(_ registry: InitializerRegistry) {
      depth = registry.overrideDepth
      isInForce = registry.isInForce
    }

    /// `"override layer 2"`, or `"override layer 2 (in force)"` for a rule registered while the
    /// layer was in force.
    var name: String {
      "override layer \(depth)" + (isInForce ? " (in force)" : "")
    }
  }

  init(
    propertyType: Any.Type, containerType: AnyClass?, scope: InitializerRegistry.Scope,
    fileID: StaticString, line: UInt, layer: Layer, isMainActor: Bool, moduleName: String?,
    property: PropertyTarget?, forwardTarget: Any.Type?
  ) {
    self.property = property
    self.forwardTarget = forwardTarget
    self.propertyType = propertyType
    self.containerType = containerType
    self.scope = scope
    self.fileID = fileID
    self.line = line
    self.layer = layer
    self.isMainActor = isMainActor
    self.moduleName = moduleName
  }

  /// Built on demand: type names cost more than the rest of a registration (30 µs for long
  /// generic names, measured), and only diagnostics read them.
  var rule: InitializerRegistry.Rule {
    InitializerRegistry.Rule(
      propertyTypeName: typeName(propertyType), containerTypeName: containerType.map(typeName),
      isPropertyRule: property != nil, propertyName: property?.propertyName,
      propertyCandidates: property?.candidateNames ?? [],
      forwardTargetTypeName: forwardTarget.map(typeName), scope: scope, fileID: "\(fileID)",
      line: Int(line), overrideDepth: layer.depth, isRegisteredInForce: layer.isInForce,
      isMainActor: isMainActor, moduleName: moduleName)
  }
}

/// A registration for properties of type `Property`.
///
/// Its only field has the same size whatever `Property` is, so code that is generic over
/// `Property` reads it without looking up the class's generic metadata.
@usableFromInline
internal final class Registration<Property>: AnyRegistration, @unchecked Sendable {
  @usableFromInline
  let make: @Sendable (AnyObject) throws -> Property

  init(source: RuleSource, make: @escaping @Sendable (AnyObject) throws -> Property) {
    self.make = make
    super.init(source: source)
  }

  /// Builds a value for `container` with the initializer, with no lock of LazyInject held; an
  /// error of the initializer other than a nested resolution's is wrapped with the rule and the
  /// chain.
  ///
  /// Every build, shared or not, comes here. Inlined into the pipeline's specialized express
  /// case.
  @inlinable
  internal func build(for container: AnyObject) throws -> Property {
    SlotLock.assertNoLockHeld()
    do {
      return try make(container)
    } catch {
      throw InitializerRegistry.failure(error, of: self)
    }
  }
}

/// Where a `@Lazy` value came from; turned into a ``InitializerRegistry/Rule`` only on demand.
///
/// A registration's description, never the registration: a value outliving its registration
/// does not keep the initializer or the registration's instance alive.
@usableFromInline
internal enum _LazyOrigin {
  case registration(RuleSource)
  case defaultInitializer(Any.Type)

  var rule: InitializerRegistry.Rule {
    switch self {
    case .registration(let source): source.rule
    case .defaultInitializer(let type): .defaultInitializer(of: type)
    }
  }
}
