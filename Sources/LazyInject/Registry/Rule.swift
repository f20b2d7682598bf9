// A rule: what a registration says (`Rule`, `RuleSource`) and how it builds (`Registration`).

extension InitializerRegistry {
  /// Where a value came from: a registration, or a type's `init()`.
  ///
  /// `explain(_:in:)` and `$property.rule` describe resolutions with it:
  ///
  /// ```swift
  /// let screen = UsersViewController()
  /// _ = screen.resourceLoader
  /// print(screen.$resourceLoader.rule!)
  /// // ResourceLoader in UsersViewController, unique scope (LoaderInitializers.swift:12)
  /// ```
  public struct Rule: Sendable, Hashable, CustomStringConvertible {
    /// The property type the rule builds, as in `MyApp.ResourceLoader`.
    public let propertyTypeName: String

    /// The container class the rule is registered for; nil for a root default and for `init()`.
    ///
    /// For a rule of one property, the root class of its key path.
    public let containerTypeName: String?

    /// Whether the rule is for one property, registered with the key path to its projected value
    /// (`\UsersViewController.$auditLog`), rather than for every property of its type.
    public let isPropertyRule: Bool

    /// For a rule of one property, the property's name as declared, as in `"auditLog"`; nil for
    /// a rule of a type.
    ///
    /// Known once the rule has served a first read or ``InitializerRegistry/validate(_:)`` of
    /// an object of its class, or from the start when the class has one `@Lazy` property of the
    /// type: until then, a class with several has nil here.
    public let propertyName: String?

    /// The root class's `@Lazy` properties of the type, which a property rule whose property is
    /// not yet known may name.
    internal let propertyCandidates: [String]

    /// For a forward (``InitializerRegistry/forward(_:to:fileID:line:)``), the type it resolves
    /// instead, as in `"MyApp.SharedAnalytics"`; nil for any other rule.
    public let forwardTargetTypeName: String?

    /// What the rule is: a registration, with the site that registered it, or `init()`.
    public let source: Source

    /// How many instances the rule builds: the registration's scope; ``Scope/unique`` for
    /// `init()`.
    public let scope: Scope

    /// What a rule is.
    public enum Source: Sendable, Hashable {
      /// A registration, made at this site: the file as `#fileID` gave it, and the line.
      case registration(fileID: String, line: Int)
      /// `init()` of a ``DefaultInitializable`` type, which builds the value when no rule does.
      case defaultInitializer
    }

    /// The file of the registration, as `#fileID` gave it; nil for `init()`.
    @available(*, deprecated, message: "read the site from `source`: .registration(fileID:line:)")
    public var fileID: String? { if case .registration(let file, _) = source { file } else { nil } }

    /// The line of the registration; nil for `init()`.
    @available(*, deprecated, message: "read the site from `source`: .registration(fileID:line:)")
    public var line: Int? { if case .registration(_, let line) = source { line } else { nil } }

    /// `"LoaderInitializers.swift:12"`, or `"init()"`.
    package var site: String {
      if case .registration(let file, let line) = source { "\(file):\(line)" } else { "init()" }
    }

    /// How many override layers above the registry the rule lives; 0 for the registry itself.
    public let overrideDepth: Int

    /// Whether the rule was registered on the registry while its override layer was in force
    /// (in a test's body), rather than by the layer's `configure`: such rules rank below every
    /// layer's own.
    internal let isRegisteredInForce: Bool

    /// Whether the initializer runs on the main actor
    /// (``InitializerRegistry/registerOnMainActor(_:in:scope:fileID:line:_:)``).
    public let isMainActor: Bool

    /// Whether the initializer is `async`: `load()` and `prepare()` build its value; a
    /// synchronous read gets the instance its scope keeps.
    public let isAsync: Bool

    /// The module that registered the rule, with its condition if it has one
    /// (`"MyApp.MockNetworkInitializers when launch argument -ui-testing"`); nil for a
    /// registration made outside a module.
    public let moduleName: String?

    /// Whether the value is built with `init()` of a ``DefaultInitializable`` type.
    public var isDefaultInitializer: Bool { source == .defaultInitializer }

    /// Whether the rule is a root default, serving every container.
    public var isRootDefault: Bool { !isDefaultInitializer && containerTypeName == nil }

    /// `"ResourceLoader in UsersViewController, unique scope (Initializers.swift:12)"`,
    /// `"Logger for UsersViewController.auditLog, singleton scope (Loggers.swift:4)"` or
    /// `"any Tracking root default, forwarded to SharedAnalytics (Analytics.swift:9)"`.
    public var description: String {
      let layer = overrideDepth == 0 ? "" : ", \(layerName)"
      return isDefaultInitializer
        ? "\(propertyTypeName).init() (DefaultInitializable)"
        : "\(propertyTypeName) \(subject), \(what)\(layer)\(details)"
    }

    /// What the rule serves: `"in UsersViewController"`, `"root default"`, or
    /// `"for UsersViewController.auditLog"`.
    package var subject: String {
      guard isPropertyRule, let containerTypeName else {
        return containerTypeName.map { "in \($0)" } ?? "root default"
      }
      return "for \(property(of: containerTypeName))"
    }

    /// `"UsersViewController.auditLog"`, or while the property is not yet known, `"one property
    /// of UsersViewController (auditLog or debugLog: told apart at its first read)"`.
    package func property(of owner: String) -> String {
      // One candidate: its property is known (`propertyName`, or its name is missing; see
      // `PropertyTarget.names`).
      if propertyCandidates.count == 1 { return "\(owner).\(propertyCandidates[0])" }
      let candidates =
        propertyCandidates.isEmpty
        ? "" : " (\(propertyCandidates.joined(separator: " or ")): told apart at its first read)"
      return "one property of \(owner)\(candidates)"
    }

    /// `"unique scope"`, `"singleton scope, async"`, or for a forward, `"forwarded to
    /// SharedAnalytics"`.
    package var what: String {
      (forwardTargetTypeName.map { "forwarded to \($0)" } ?? "\(scope) scope")
        + (isAsync ? ", async" : "")
    }

    /// `"the registry"`, `"override layer 2"` or `"override layer 2 (in force)"`.
    package var layerName: String {
      guard overrideDepth > 0 else { return "the registry" }
      return "override layer \(overrideDepth)" + (isRegisteredInForce ? " (in force)" : "")
    }

    /// `", main actor, module MyApp.LoaderInitializers (LoaderInitializers.swift:12)"`: what
    /// follows the scope in diagnostics.
    package var details: String {
      let actor = isMainActor ? ", main actor" : ""
      let module = moduleName.map { ", module \($0)" } ?? ""
      return "\(actor)\(module) (\(site))"
    }

    internal static func defaultInitializer(of property: Any.Type) -> Rule {
      Rule(
        propertyTypeName: typeName(property), containerTypeName: nil, isPropertyRule: false,
        propertyName: nil, propertyCandidates: [], forwardTargetTypeName: nil,
        source: .defaultInitializer, scope: .unique, overrideDepth: 0, isRegisteredInForce: false,
        isMainActor: false, isAsync: false, moduleName: nil)
    }
  }
}

/// One registered rule: what it says (`source`) and how it builds.
///
/// Immutable: the instance its scope keeps lives in its registry's state (`InstanceStore`).
///
/// `@unchecked Sendable`: every stored property is a `let` of a `Sendable` type; the class is not
/// final only so that `Registration` can add its initializer.
@usableFromInline package class AnyRegistration: @unchecked Sendable {
  /// What the rule says; also kept as a pair's first rule (see `RuleTable.PairEntry`) and by
  /// values' boxes, which outlive the registration without keeping its initializer or instance.
  package let source: RuleSource

  /// Whether the scope keeps an instance (every scope but `.unique`), read without copying the
  /// scope (a custom scope's name).
  let isShared: Bool
  /// Whether the scope keeps it weakly (`.weak`).
  let isWeak: Bool

  /// For an async rule, its initializer: it awaits the value for a container (nil for one that takes
  /// none), called with no lock of LazyInject held.
  ///
  /// Only `load()` and `prepare()` build an async rule; a synchronous read gets what its scope
  /// keeps, or stops with the fix.
  let asyncInitializer: (@Sendable (AnyObject?) async throws -> Any)?

  /// Whether an async initializer takes the container: one that takes none can be prepared.
  let takesContainer: Bool

  init(
    source: RuleSource, takesContainer: Bool = true,
    asyncInitializer: (@Sendable (AnyObject?) async throws -> Any)? = nil
  ) {
    self.source = source
    isShared = source.scope != .unique
    isWeak = source.scope == .weak
    self.asyncInitializer = asyncInitializer
    self.takesContainer = takesContainer
  }

  package var propertyType: Any.Type { source.propertyType }
  package var containerType: AnyClass? { source.containerType }
  var scope: InitializerRegistry.Scope { source.scope }

  /// The rule, for diagnostics.
  package var rule: InitializerRegistry.Rule { source.rule }

  /// Awaits the value of an async rule for a container (nil for an initializer that takes none), as
  /// `Any`.
  func makeAsync(_ container: AnyObject?) async throws -> Any {
    try await asyncInitializer!(container)
  }

  /// Whether `prepare()` builds it: an async rule with no container, whose scope keeps its
  /// instance.
  var isPreparable: Bool { asyncInitializer != nil && !takesContainer && isShared }
}

/// A registration that builds its values with a synchronous initializer.
///
/// Not generic: an app registers hundreds of types at launch, and the first use of a generic
/// class for each type instantiates its metadata, which cost a fifth of a launch's time
/// (5,460 instructions per type, measured). The initializer writes its value into memory that
/// the caller, which knows the type, provides.
///
/// `@unchecked Sendable` as its base: its only stored property is a `let` `@Sendable` closure.
@usableFromInline final class Registration: AnyRegistration, @unchecked Sendable {
  /// Builds the value for a container into the uninitialized memory of a value of the property
  /// type; called with no lock of LazyInject held.
  @usableFromInline
  typealias Build = @Sendable (AnyObject, UnsafeMutableRawPointer) throws -> Void

  @usableFromInline let build: Build

  init(source: RuleSource, build: @escaping Build) {
    self.build = build
    super.init(source: source)
  }

  /// The `Build` of an initializer of `Property` values.
  ///
  /// Inlinable, so that the registering module specializes it for `Property`: a build then
  /// makes no copy of the value through its type's metadata.
  @inlinable
  static func build<Property>(
    with make: @escaping @Sendable (AnyObject) throws -> Property
  ) -> Build {
    { container, memory in memory.initializeMemory(as: Property.self, to: try make(container)) }
  }

  /// Builds the value for a container; `Property` is the registered type.
  ///
  /// For code that is not specialized (a resolution's general path): an object, the most common
  /// value, is written into a word on the stack, as a slot holds one, and its +1 taken over; any
  /// other value into an allocation of its own, which would cost an object's first read 160
  /// instructions (measured).
  ///
  /// Small: each level of a chain of first reads runs it, and a debug build's stack must hold 100
  /// levels on a 512 KiB thread (`DeepChainTests`).
  func make<Property>(_ container: AnyObject, as _: Property.Type) throws -> Property {
    guard isSingleReference(Property.self) else {
      return try makeInAllocation(container, as: Property.self)
    }
    var word: UInt = 0
    try build(container, &word)
    return RawMemory.value(takingRetained: word, as: Property.self)
  }

  /// Builds a value that is not an object in an allocation of its own: a temporary allocation
  /// here instantiates the metadata of `Result<Property, any Error>` for each type (3,100
  /// instructions, measured).
  private func makeInAllocation<Property>(_ container: AnyObject, as _: Property.Type) throws
    -> Property
  {
    let memory = UnsafeMutablePointer<Property>.allocate(capacity: 1)
    defer { memory.deallocate() }
    try build(container, memory)
    return memory.move()
  }

  /// The same on the stack, for the fast path of a first read, which the reading module
  /// specializes.
  ///
  /// The buffer is unprotected: a stack protector would cost the first read that inlines this
  /// 12 instructions on every path, reads of kept instances too (measured). It needs none: it
  /// holds one `Property`, which only `build`'s typed initialization writes.
  @inlinable @inline(__always)
  func makeOnStack<Property>(_ container: AnyObject, as _: Property.Type) throws -> Property {
    try _withUnprotectedUnsafeTemporaryAllocation(of: Property.self, capacity: 1) { memory in
      let value = memory.baseAddress!
      try build(container, value)
      return value.move()
    }
  }

  /// Builds the value for a container, as `Any`: for a property of another type than the
  /// registered one (`T?`, served by a rule of `T`).
  func makeAny(_ container: AnyObject) throws -> Any {
    func make<Property>(_: Property.Type) throws -> Any {
      try self.make(container, as: Property.self)
    }
    return try _openExistential(propertyType, do: make)
  }
}

/// The description of a registration: what diagnostics and `$property.rule` print.
package final class RuleSource: Sendable {
  package let propertyType: Any.Type
  package let containerType: AnyClass?
  let scope: InitializerRegistry.Scope
  package let fileID: StaticString
  package let line: UInt
  /// Where the registration lives: 0 for the registry itself; n for the n-th override layer.
  package let overrideDepth: Int
  /// Whether it was registered while its override layer was in force rather than by the layer's
  /// `configure`.
  let isInForce: Bool
  /// Whether the initializer runs on the main actor.
  let isMainActor: Bool
  /// Whether the initializer awaits (the registration's `asyncInitializer`).
  package let isAsync: Bool
  /// The module that made the registration, with its condition, if any.
  let moduleName: String?
  /// For a property rule, its property; nil for a rule of every property of the type.
  package let property: PropertyTarget?
  /// For a forward, the type it resolves instead.
  package let forwardTarget: Any.Type?

  init(
    propertyType: Any.Type, containerType: AnyClass?, scope: InitializerRegistry.Scope,
    fileID: StaticString, line: UInt, isMainActor: Bool, isAsync: Bool, moduleName: String?,
    property: PropertyTarget?, forwardTarget: Any.Type?, in registry: InitializerRegistry
  ) {
    self.propertyType = propertyType
    self.containerType = containerType
    self.scope = scope
    self.fileID = fileID
    self.line = line
    self.isMainActor = isMainActor
    self.isAsync = isAsync
    self.moduleName = moduleName
    self.property = property
    self.forwardTarget = forwardTarget
    overrideDepth = registry.overrideDepth
    isInForce = registry.isInForce
  }

  /// Built on demand: type names cost more than the rest of a registration (30 µs for long
  /// generic names, measured), and only diagnostics read them.
  var rule: InitializerRegistry.Rule {
    let names = property?.names
    return InitializerRegistry.Rule(
      propertyTypeName: typeName(propertyType), containerTypeName: containerType.map(typeName),
      isPropertyRule: property != nil, propertyName: names?.name,
      propertyCandidates: names?.candidates ?? [],
      forwardTargetTypeName: forwardTarget.map(typeName),
      source: .registration(fileID: "\(fileID)", line: Int(line)), scope: scope,
      overrideDepth: overrideDepth, isRegisteredInForce: isInForce,
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

  var source: RuleSource? { if case .registration(let source) = self { source } else { nil } }
}
