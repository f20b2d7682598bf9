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

    /// The scope of the registration; nil for `init()`.
    public let scope: Scope?

    /// The file of the registration, as `#fileID` gave it; nil for `init()`.
    public let fileID: String?

    /// The line of the registration; nil for `init()`.
    public let line: Int?

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
    public var isDefaultInitializer: Bool { scope == nil }

    /// Whether the rule is a root default, serving every container.
    public var isRootDefault: Bool { scope != nil && containerTypeName == nil }

    /// `"ResourceLoader in UsersViewController, unique scope (Initializers.swift:12)"`,
    /// `"Logger for UsersViewController.auditLog, singleton scope (Loggers.swift:4)"` or
    /// `"any Tracking root default, forwarded to SharedAnalytics (Analytics.swift:9)"`.
    public var description: String {
      guard scope != nil else { return "\(propertyTypeName).init() (DefaultInitializable)" }
      let layer = overrideDepth == 0 ? "" : ", \(layerName)"
      return "\(propertyTypeName) \(subject), \(what)\(layer)\(details)"
    }

    /// What the rule serves: `"in UsersViewController"`, `"root default"`, or
    /// `"for UsersViewController.auditLog"`.
    internal var subject: String {
      guard isPropertyRule, let containerTypeName else {
        return containerTypeName.map { "in \($0)" } ?? "root default"
      }
      return "for \(property(of: containerTypeName))"
    }

    /// `"UsersViewController.auditLog"`, or while the property is not yet known, `"one property
    /// of UsersViewController (auditLog or debugLog: told apart at its first read)"`.
    internal func property(of owner: String) -> String {
      if let propertyName { return "\(owner).\(propertyName)" }
      // One candidate: its property is known, and its name missing (see `PropertyTarget`).
      if propertyCandidates.count == 1 { return "\(owner).\(propertyCandidates[0])" }
      let candidates =
        propertyCandidates.isEmpty
        ? "" : " (\(propertyCandidates.joined(separator: " or ")): told apart at its first read)"
      return "one property of \(owner)\(candidates)"
    }

    /// `"unique scope"`, `"singleton scope, async"`, or for a forward, `"forwarded to
    /// SharedAnalytics"`.
    package var what: String {
      let scope = "\(self.scope.map { "\($0)" } ?? "no") scope"
      return (forwardTargetTypeName.map { "forwarded to \($0)" } ?? scope)
        + (isAsync ? ", async" : "")
    }

    /// `"the registry"`, `"override layer 2"` or `"override layer 2 (in force)"`.
    internal var layerName: String {
      guard overrideDepth > 0 else { return "the registry" }
      return "override layer \(overrideDepth)" + (isRegisteredInForce ? " (in force)" : "")
    }

    /// `", main actor, module MyApp.LoaderInitializers (LoaderInitializers.swift:12)"`: what
    /// follows the scope in diagnostics.
    internal var details: String {
      let actor = isMainActor ? ", main actor" : ""
      let module = moduleName.map { ", module \($0)" } ?? ""
      return "\(actor)\(module) (\(fileID ?? "?"):\(line ?? 0))"
    }

    internal static func defaultInitializer(of property: Any.Type) -> Rule {
      Rule(
        propertyTypeName: typeName(property), containerTypeName: nil, isPropertyRule: false,
        propertyName: nil, propertyCandidates: [], forwardTargetTypeName: nil, scope: nil,
        fileID: nil, line: nil, overrideDepth: 0, isRegisteredInForce: false, isMainActor: false,
        isAsync: false, moduleName: nil)
    }
  }
}
