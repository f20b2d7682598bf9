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
    public let containerTypeName: String?

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

    /// The module that registered the rule, with its condition if it has one
    /// (`"MyApp.MockNetworkInitializers when launch argument -ui-testing"`); nil for a
    /// registration made outside a module.
    public let moduleName: String?

    /// Whether the value is built with `init()` of a ``DefaultInitializable`` type.
    public var isDefaultInitializer: Bool { scope == nil }

    /// Whether the rule is a root default, serving every container.
    public var isRootDefault: Bool { scope != nil && containerTypeName == nil }

    /// `"ResourceLoader in UsersViewController, unique scope (Initializers.swift:12)"`.
    public var description: String {
      guard let scope else {
        return "\(propertyTypeName).init() (DefaultInitializable)"
      }
      let container = containerTypeName.map { "in \($0)" } ?? "root default"
      let inForce = isRegisteredInForce ? " (in force)" : ""
      let layer = overrideDepth == 0 ? "" : ", override layer \(overrideDepth)\(inForce)"
      return "\(propertyTypeName) \(container), \(scope) scope\(layer)\(details)"
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
        propertyTypeName: typeName(property), containerTypeName: nil, scope: nil, fileID: nil,
        line: nil, overrideDepth: 0, isRegisteredInForce: false, isMainActor: false,
        moduleName: nil)
    }
  }
}
