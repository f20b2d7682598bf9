extension InitializerRegistry {
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
  /// Override layers active on the calling task are included, in the order a resolution searches
  /// them: each layer's own rules, innermost first, then the rules registered while they are in
  /// force, then the registry.
  public func explain<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type
  ) -> String {
    var lines = [
      "How LazyInject resolves \(typeName(propertyType)) for \(typeName(containerType)):"
    ]
    var result: AnyRegistration?
    for layer in searchedRegistries {
      lines.append("\(layer.layerTitle):")
      let (visited, found) = layer.withState {
        layer.table.search(propertyType, in: containerType)
      }
      // A rule of this layer is used, or shadowed by the rule of a layer above it.
      let use =
        result.map { ", shadowed by \($0.source.layer.name)" } ?? " <- used"
      for visitedClass in visited {
        let matched = found?.containerType.map { $0 == visitedClass } ?? false
        lines.append(
          "  \(typeName(visitedClass)): "
            + (matched ? "\(Self.registered(found!))\(use)" : "no registration"))
      }
      if let found, found.containerType == nil {
        lines.append("  root default: \(Self.registered(found))\(use)")
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
    let layer = rule.overrideDepth > 0 ? " in \(registration.source.layer.name)" : ""
    return "registered\(layer), \(registration.scope) scope\(rule.details)"
  }

  private static func outcome(
    _ registration: AnyRegistration?, _ property: Any.Type, _ container: AnyClass
  ) -> String {
    if let rule = registration?.rule {
      guard let owner = rule.containerTypeName else {
        return "the root default, \(rule.scope!) scope\(rule.details)."
      }
      let inherited = owner == typeName(container) ? "" : ", inherited by \(typeName(container))"
      return "the registration for \(owner)\(inherited), \(rule.scope!) scope\(rule.details)."
    }
    if let optional = property as? any _OptionalDependency.Type {
      return "no registration for \(typeName(property)); the rules of"
        + " \(typeName(optional.wrappedType)) apply (explain it to see them), else the value is"
        + " nil."
    }
    if property is any DefaultInitializable.Type {
      return "no registration; \(typeName(property)) is DefaultInitializable, so it is built with"
        + " init()."
    }
    return "failure: no registration, and \(typeName(property)) is not DefaultInitializable."
  }
}
