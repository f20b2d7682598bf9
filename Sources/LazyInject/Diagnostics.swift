extension InitializerRegistry: CustomStringConvertible {
  /// Every registration, grouped by property type; types, then containers, in name order.
  ///
  /// ```text
  /// InitializerRegistry, 3 registrations
  /// MyApp.RequestManager
  ///   root default: singleton scope (NetworkInitializers.swift:4)
  /// MyApp.ResourceLoader
  ///   in MyApp.ProjectsViewController: unique scope (LoaderInitializers.swift:14)
  ///   in MyApp.UsersViewController: unique scope (LoaderInitializers.swift:12)
  /// ```
  public var description: String {
    let rules = lock.withLock { table.allRegistrations.map(\.rule) }
    var lines = ["InitializerRegistry, \(rules.count) registration\(rules.count == 1 ? "" : "s")"]
    let byProperty = Dictionary(grouping: rules, by: \.propertyTypeName)
    for property in byProperty.keys.sorted() {
      lines.append(property)
      let sorted = byProperty[property]!.sorted {
        ($0.containerTypeName ?? "") < ($1.containerTypeName ?? "")
      }
      for rule in sorted {
        let container = rule.containerTypeName.map { "in \($0)" } ?? "root default"
        lines.append("  \(container): \(rule.scope!) scope (\(rule.fileID!):\(rule.line!))")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// A readable account of how a `propertyType` property of a `containerType` object resolves now:
  /// each layer and class searched, the rule that matches, or why `init()` or a failure is the
  /// result.
  ///
  /// Builds nothing.
  ///
  /// ```swift
  /// print(registry.explain(ResourceLoader.self, in: AdminUsersViewController.self))
  /// // How LazyInject resolves MyApp.ResourceLoader for MyApp.AdminUsersViewController:
  /// // Registry:
  /// //   MyApp.AdminUsersViewController: no registration
  /// //   MyApp.UsersViewController: registered, unique scope (LoaderInitializers.swift:12) <- used
  /// // Result: the registration for MyApp.UsersViewController, inherited.
  /// ```
  ///
  /// Override layers active on the calling task are included, innermost first.
  public func explain<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type
  ) -> String {
    var lines = [
      "How LazyInject resolves \(typeName(propertyType)) for \(typeName(containerType)):"
    ]
    var layers: [(title: String, registry: InitializerRegistry)] =
      OverrideScope.layers(over: self).reversed().map {
        ("Override layer \($0.overrideDepth)", $0)
      }
    layers.append(("Registry", self))
    var result: AnyRegistration?
    for layer in layers {
      lines.append("\(layer.title):")
      let (visited, found) = layer.registry.lock.withLock {
        layer.registry.table.search(propertyType, in: containerType)
      }
      for visitedClass in visited {
        let matched = found?.containerType.map { $0 == visitedClass } ?? false
        lines.append(
          "  \(typeName(visitedClass)): "
            + (matched && result == nil ? "\(Self.registered(found!)) <- used" : "no registration"))
      }
      if let found, found.containerType == nil {
        lines.append(
          "  root default: \(Self.registered(found))" + (result == nil ? " <- used" : ""))
      } else if found == nil {
        lines.append("  root default: none")
      }
      if result == nil, let found {
        result = found
      }
    }
    lines.append("Result: " + Self.outcome(result, propertyType, containerType))
    return lines.joined(separator: "\n")
  }

  private static func registered(_ registration: AnyRegistration) -> String {
    let rule = registration.rule
    let layer = rule.overrideDepth > 0 ? " in override layer \(rule.overrideDepth)" : ""
    return "registered\(layer), \(registration.scope) scope (\(rule.fileID!):\(rule.line!))"
  }

  private static func outcome(
    _ registration: AnyRegistration?, _ property: Any.Type, _ container: AnyClass
  ) -> String {
    if let rule = registration?.rule {
      guard let owner = rule.containerTypeName else {
        return "the root default, \(rule.scope!) scope (\(rule.fileID!):\(rule.line!))."
      }
      let inherited = owner == typeName(container) ? "" : ", inherited by \(typeName(container))"
      return "the registration for \(owner)\(inherited), \(rule.scope!) scope"
        + " (\(rule.fileID!):\(rule.line!))."
    }
    if property is any DefaultInitializable.Type {
      return "no registration; \(typeName(property)) is DefaultInitializable, so it is built with"
        + " init()."
    }
    return "failure: no registration, and \(typeName(property)) is not DefaultInitializable."
  }

  /// Checks, without building anything, that every unresolved `@Lazy` property of `container`
  /// can be resolved now.
  ///
  /// A one-line test per screen catches a missing registration before users do:
  ///
  /// ```swift
  /// @Test func usersScreenCanResolveEverything() throws {
  ///   try InitializerRegistry.shared.validate(UsersViewController())
  /// }
  /// ```
  ///
  /// Properties that already hold a value are skipped. Override layers active on the calling task
  /// count. Only the properties themselves are checked, not the values their initializers need.
  /// Do not call it while other threads read the object's properties for the first time.
  ///
  /// - Throws: One ``ResolutionError`` of kind ``ResolutionError/Kind/unresolvableProperties``
  ///   listing every property that cannot be resolved, with the search for each.
  public func validate(_ container: AnyObject) throws {
    let containerClass: AnyClass = type(of: container)
    var problems: [String] = []
    var mirror: Mirror? = Mirror(reflecting: container)
    while let current = mirror {
      for child in current.children {
        guard let property = child.value as? any _LazyStorage, !property.isResolved else {
          continue
        }
        guard !canResolve(property.valueType, in: containerClass) else { continue }
        let name = child.label.map { String($0.dropFirst()) } ?? "?"
        problems.append(
          "  - \(name): \(typeName(property.valueType)); searched "
            + RuleTable.ancestry(of: containerClass).map(typeName).joined(separator: ", ")
            + ", then the root default")
      }
      mirror = current.superclassMirror
    }
    guard !problems.isEmpty else { return }
    let count = problems.count == 1 ? "1 property" : "\(problems.count) properties"
    let lines =
      ["LazyInject cannot resolve \(count) of \(typeName(containerClass)):"] + problems + [
        "Fix: register an initializer for each, or make the type DefaultInitializable."
      ]
    throw ResolutionError(.unresolvableProperties, lines.joined(separator: "\n"))
  }

  /// Whether some layer has a rule for `property` in `containerClass`, or it has `init()`.
  private func canResolve(_ property: Any.Type, in containerClass: AnyClass) -> Bool {
    let registries = OverrideScope.layers(over: self) + [self]
    for registry in registries {
      let found = registry.lock.withLock {
        registry.table.search(property, in: containerClass).found
      }
      if found != nil { return true }
    }
    return property is any DefaultInitializable.Type
  }
}

/// What `validate` reads of a `@Lazy` property it finds by reflection.
internal protocol _LazyStorage {
  var valueType: Any.Type { get }
  var isResolved: Bool { get }
  var slot: AnyObject? { get }
  var boxedValue: Any? { get }
}

extension Lazy: _LazyStorage {
  var valueType: Any.Type { Value.self }
  var isResolved: Bool { _slot is _LazyBox<Value> }
  var slot: AnyObject? { _slot }
  var boxedValue: Any? { (_slot as? _LazyBox<Value>)?.value }
}
