/// One registered rule: what it says (`source`) and how it builds.
///
/// Immutable: the instance its scope keeps lives in its registry's state (`InstanceStore`).
///
/// `@unchecked Sendable`: every stored property is a `let` of a `Sendable` type; the class is not
/// final only so that `Registration<Property>` can add its typed initializer.
@usableFromInline package class AnyRegistration: @unchecked Sendable {
  /// What the rule says; also kept by a pin (see `RuleTable`) and by values' boxes, which outlive
  /// the registration without keeping its initializer or instance.
  package let source: RuleSource

  /// What the scope keeps, read without copying the scope (a custom scope's name).
  let policy: ScopePolicy

  init(source: RuleSource) { (self.source, policy) = (source, ScopePolicy(source.scope)) }

  package var propertyType: Any.Type { source.propertyType }
  package var containerType: AnyClass? { source.containerType }
  var scope: InitializerRegistry.Scope { source.scope }

  /// The rule, for diagnostics.
  package var rule: InitializerRegistry.Rule { source.rule }

  /// Builds the value for a sender, as `Any`; called with no lock of LazyInject held.
  func makeAny(_ sender: AnyObject) throws -> Any { fatalError("only a Registration builds") }

  /// Awaits the value for a sender (nil for an initializer that takes none), as `Any`.
  func makeAsync(_ sender: AnyObject?) async throws -> Any {
    fatalError("only an AsyncRegistration awaits")
  }

  /// Whether `prepare()` builds it: an async rule with no sender, whose scope keeps its instance.
  var isPreparable: Bool { false }
}

/// A registration whose initializer awaits: only `load()` and `prepare()` build it; a
/// synchronous read gets what its scope keeps, or stops with the fix.
final class AsyncRegistration<Property>: AnyRegistration, @unchecked Sendable {
  /// Builds the value, for a sender if `takesSender`; called with no lock of LazyInject held.
  let make: @Sendable (AnyObject?) async throws -> Property
  /// Whether the initializer takes the sender: one that takes none can be prepared.
  let takesSender: Bool

  init(
    source: RuleSource, takesSender: Bool,
    make: @escaping @Sendable (AnyObject?) async throws -> Property
  ) {
    (self.make, self.takesSender) = (make, takesSender)
    super.init(source: source)
  }

  override func makeAsync(_ sender: AnyObject?) async throws -> Any { try await make(sender) }

  override var isPreparable: Bool { !takesSender && policy != .none }
}

/// A registration for properties of type `Property`.
///
/// Its only field has the same size whatever `Property` is, so code that is generic over
/// `Property` reads it without looking up the class's generic metadata.
@usableFromInline final class Registration<Property>: AnyRegistration, @unchecked Sendable {
  /// Builds the value for a sender; called with no lock of LazyInject held.
  @usableFromInline let make: @Sendable (AnyObject) throws -> Property

  init(source: RuleSource, make: @escaping @Sendable (AnyObject) throws -> Property) {
    self.make = make
    super.init(source: source)
  }

  override func makeAny(_ sender: AnyObject) throws -> Any { try make(sender) }
}

/// The description of a registration: what diagnostics and `$property.rule` print.
package final class RuleSource: Sendable {
  package let propertyType: Any.Type
  package let containerType: AnyClass?
  let scope: InitializerRegistry.Scope
  package let fileID: StaticString
  package let line: UInt
  /// Where the registration lives: the registry, or an override layer.
  package let layer: Layer
  /// Whether the initializer runs on the main actor.
  let isMainActor: Bool
  /// Whether the initializer awaits (an `AsyncRegistration`).
  package let isAsync: Bool
  /// The module that made the registration, with its condition, if any.
  let moduleName: String?
  /// For a property rule, its property; nil for a rule of every property of the type.
  let property: PropertyTarget?
  /// For a forward, the type it resolves instead.
  package let forwardTarget: Any.Type?

  /// The registry, or an override layer, with the part of it the registration belongs to.
  package struct Layer: Sendable {
    /// 0 for the registry itself; n for the n-th override layer.
    let depth: Int
    /// Whether it was registered while the layer was in force rather than by its `configure`.
    let isInForce: Bool

    /// `"override layer 2"`, or `"override layer 2 (in force)"` for a rule registered while the
    /// layer was in force.
    package var name: String { "override layer \(depth)" + (isInForce ? " (in force)" : "") }
  }

  init(
    propertyType: Any.Type, containerType: AnyClass?, scope: InitializerRegistry.Scope,
    fileID: StaticString, line: UInt, isMainActor: Bool, isAsync: Bool, moduleName: String?,
    property: PropertyTarget?, forwardTarget: Any.Type?, layer: Layer
  ) {
    (self.property, self.forwardTarget, self.propertyType) = (property, forwardTarget, propertyType)
    (self.containerType, self.scope, self.fileID, self.line) = (containerType, scope, fileID, line)
    (self.layer, self.isMainActor, self.isAsync) = (layer, isMainActor, isAsync)
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
      isMainActor: isMainActor, isAsync: isAsync, moduleName: moduleName)
  }
}

/// Where a resolved value came from; turned into a ``InitializerRegistry/Rule`` only on demand.
///
/// A registration's description, never the registration: a value outliving its registration
/// does not keep the initializer or the registration's instance alive.
internal enum ValueOrigin {
  case registration(RuleSource)
  case defaultInitializer(Any.Type)

  var rule: InitializerRegistry.Rule {
    switch self {
    case .registration(let source): source.rule
    case .defaultInitializer(let type): .defaultInitializer(of: type)
    }
  }
}
