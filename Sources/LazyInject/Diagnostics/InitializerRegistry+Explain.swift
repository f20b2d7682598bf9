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
  /// force, then the registry. In each, rules for one property (registered with a key path) come
  /// first, each for its property only, then the type's rules:
  ///
  /// ```text
  /// How LazyInject resolves MyApp.Logger for MyApp.UsersViewController:
  /// Registry:
  ///   MyApp.UsersViewController.auditLog: registered for this property, unique scope (Loggers.swift:4) <- used for it
  ///   MyApp.UsersViewController: no registration
  ///   MyApp.ViewController: no registration
  ///   root default: registered, unique scope (Loggers.swift:7) <- used
  /// Result for MyApp.UsersViewController.auditLog: its property rule, unique scope (Loggers.swift:4).
  /// Result for every other property: the root default, unique scope (Loggers.swift:7).
  /// ```
  public func explain<Property, Container: AnyObject>(
    _ propertyType: Property.Type, in containerType: Container.Type
  ) -> String {
    var lines = [
      "How LazyInject resolves \(typeName(propertyType)) for \(typeName(containerType)):"
    ]
    var result: AnyRegistration?
    var propertyResults: [(property: String, rule: Rule)] = []
    for layer in searchedRegistries {
      lines.append("\(layer.layerTitle):")
      let (visited, found, propertyRules) = layer.withState {
        let (visited, found) = layer.table.search(propertyType, in: containerType)
        return (visited, found, layer.table.propertyRules(for: propertyType, in: containerType))
      }
      // A rule of this layer is used, or shadowed by the rule of a layer above it.
      let use =
        result.map { ", shadowed by \($0.source.layer.name)" } ?? " <- used"
      for ancestor in RuleTable.ancestry(of: containerType) {
        for propertyRule in propertyRules where propertyRule.containerType == ancestor {
          let rule = propertyRule.rule
          let property = rule.property(of: typeName(ancestor))
          let shadowing =
            result?.source.layer.name
            ?? propertyResults.first { $0.property == property }?.rule.layerName
          lines.append(
            "  \(property): \(Self.registered(propertyRule, forOneProperty: true))"
              + (shadowing.map { ", shadowed by \($0)" } ?? " <- used for it"))
          if shadowing == nil {
            propertyResults.append((property, rule))
          }
        }
        guard visited.contains(where: { $0 == ancestor }) else { continue }
        let matched = found?.containerType.map { $0 == ancestor } ?? false
        lines.append(
          "  \(typeName(ancestor)): "
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
    let outcome = self.outcome(propertyType, containerType)
    guard !propertyResults.isEmpty else {
      lines.append("Result: \(outcome)")
      return lines.joined(separator: "\n")
    }
    for (property, rule) in propertyResults {
      let layer = rule.overrideDepth == 0 ? "" : " in \(rule.layerName)"
      lines.append(
        "Result for \(property): its property rule\(layer), \(rule.what)\(rule.details).")
    }
    lines.append("Result for every other property: \(outcome)")
    return lines.joined(separator: "\n")
  }

  private static func registered(_ registration: AnyRegistration, forOneProperty: Bool = false)
    -> String
  {
    let rule = registration.rule
    let layer = rule.overrideDepth > 0 ? " in \(registration.source.layer.name)" : ""
    let property = forOneProperty ? " for this property" : ""
    return "registered\(layer)\(property), \(rule.what)\(rule.details)"
  }

  /// The result line: how a value of `property` resolves for an object of `container` with no
  /// property, as `validate` tells it (`PropertyCheck`).
  private func outcome(_ property: Any.Type, _ container: AnyClass) -> String {
    switch outcome(of: property, at: nil, in: container, container: nil) {
    case .rule(let found, _):
      return Self.used(found, for: property, in: container)
    case .defaultInitializer where property is any DefaultInitializable.Type:
      return "no registration; \(typeName(property)) is DefaultInitializable, so it is built with"
        + " init()."
    case .defaultInitializer:
      let wrapped = wrappedType(of: property)
      return "no registration for \(typeName(property)); \(typeName(wrapped)) is"
        + " DefaultInitializable, so it is built with init()."
    case .none, .nearMiss:
      let wrapped = wrappedType(of: property)
      return "no rule for \(typeName(property)) or \(typeName(wrapped)): the value is nil."
        + Self.nearMissText(nearMisses(for: wrapped), for: wrapped)
    case .brokenForward(let forwards, let nearMisses, let isCycle):
      let used = forwards.first.map { Self.used($0, for: property, in: container) + " " } ?? ""
      return "\(used)A read fails: "
        + PropertyCheck.brokenForward(
          forwards, nearMisses: nearMisses, isCycle: isCycle, in: container) + "."
    case .missing, .undecided, .invalidKeyPath:
      // Only rules for one property make the last two, and none serves a value with no property.
      return "failure: no registration, and \(typeName(property)) is not DefaultInitializable."
        + Self.nearMissText(nearMisses(for: property), for: property)
    }
  }

  /// The result when `found`, a rule of `property` or of the type it wraps, is used.
  private static func used(_ found: AnyRegistration, for property: Any.Type, in container: AnyClass)
    -> String
  {
    let rule = found.rule
    guard found.propertyType == property else {
      return "no registration for \(typeName(property)); the rules of"
        + " \(typeName(found.propertyType)) apply (explain it to see them): \(rule)."
    }
    guard let owner = rule.containerTypeName else {
      return "the root default, \(rule.what)\(rule.details)."
    }
    let inherited = owner == typeName(container) ? "" : ", inherited by \(typeName(container))"
    return "the registration for \(owner)\(inherited), \(rule.what)\(rule.details)."
  }

  /// `T` for `T?`; `property` itself if it is not optional.
  private func wrappedType(of property: Any.Type) -> Any.Type {
    (property as? any _OptionalDependency.Type)?.wrappedType ?? property
  }

  /// `" Near miss: ..."`: the registrations of related types that a property of `property` does
  /// not use, and the fix; empty if there are none.
  private static func nearMissText(_ nearMisses: [Rule], for property: Any.Type) -> String {
    guard !nearMisses.isEmpty else { return "" }
    return " Near miss: these registrations of related types do not apply, since a property uses"
      + " only the rules of its own type: " + nearMisses.map(\.description).joined(separator: "; ")
      + ". \(nearMissFix(for: property))."
  }
}
