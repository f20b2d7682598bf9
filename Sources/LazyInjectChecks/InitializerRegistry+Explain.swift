import LazyInject

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
    let registries = searchedRegistries
    // What serves a value with no property, and each property of the type the class has.
    let decision = decide(
      propertyType, in: containerType, for: .none, searching: registries, followingForwards: true)
    let properties = ((try? LazyField.fields(of: containerType)) ?? []).filter {
      $0.valueType == propertyType && !$0.isWeak
    }.map { field in
      let identity = PropertyIdentity.field(offset: field.offset)
      return (field, decide(propertyType, in: containerType, for: identity, searching: registries))
    }
    let container = typeName(containerType)
    var lines = ["How LazyInject resolves \(typeName(propertyType)) for \(container):"]
    for registry in registries {
      lines.append("\(registry.layerTitle):")
      let entry = registry.withState { $0.rules.plan(for: propertyType, in: containerType) }
      // A rule is used, or shadowed by the rule that serves in its place.
      let line = { (subject: String, rule: AnyRegistration, served: Decision) in
        let property = rule.source.property == nil ? "" : " for this property"
        let layer = rule.source.overrideDepth > 0 ? " in \(rule.rule.layerName)" : ""
        let use =
          served.registration === rule
          ? " <- used" + (property.isEmpty ? "" : " for it")
          : served.registration.map { ", shadowed by \($0.rule.layerName)" } ?? ""
        let what = "\(rule.rule.what)\(rule.rule.details)\(use)"
        lines.append("  \(subject): registered\(layer)\(property), \(what)")
      }
      var matched = false  // Classes past the one whose rule matched are not searched.
      for ancestor in ancestry(of: containerType) {
        for rule in entry.propertyRules where rule.containerType == ancestor {
          let served = properties.first { rule.source.property?.offsetWithoutObject == $0.0.offset }
          line(rule.rule.property(of: typeName(ancestor)), rule, served?.1 ?? decision)
        }
        if matched { continue }
        matched = entry.typeRule?.containerType == ancestor
        if let found = entry.typeRule, matched {
          line(typeName(ancestor), found, decision)
        } else {
          lines.append("  \(typeName(ancestor)): no registration")
        }
      }
      if let found = entry.typeRule, found.containerType == nil {
        line("root default", found, decision)
      } else if entry.typeRule == nil {
        lines.append("  root default: none")
      }
    }
    let result = describe(decision, for: propertyType, in: containerType, registries: registries)
    let results = properties.compactMap { field, served in
      served.registration.flatMap { $0.source.property == nil ? nil : $0.rule }.map { rule in
        let layer = rule.overrideDepth == 0 ? "" : " in \(rule.layerName)"
        return
          "Result for \(container).\(field.displayName): its property rule\(layer), \(rule.what)\(rule.details)."
      }
    }
    lines +=
      results + [(results.isEmpty ? "Result: " : "Result for every other property: ") + result]
    if let rule = decision.registration, rule.source.isAsync, let owner = decision.owner {
      let isReady = owner.withState { $0.instances.instance(of: rule) != nil }
      lines.append(
        "Its initializer is async: "
          + (isReady
            ? "its instance is ready, and reads return it."
            : "a read stops until prepare() or $property.load() builds its instance."))
    }
    return lines.joined(separator: "\n")
  }

  private func describe(
    _ decision: Decision, for property: Any.Type, in container: AnyClass,
    registries: [InitializerRegistry]
  ) -> String {
    let wrapped = LazyInject.wrappedType(of: property) ?? property
    switch PropertyCheck.Outcome.classify(decision, in: container, registries: registries) {
    case .rule(let found, _):
      return Self.used(found, for: property, in: container)
    case .defaultInitializer:
      // `init()` of the property's type, or for an optional, of the type it wraps.
      let own = property is any DefaultInitializable.Type
      return "no registration\(own ? "" : " for \(typeName(property))");"
        + " \(typeName(own ? property : wrapped)) is DefaultInitializable, so it is built with init()."
    case .none, .nearMiss:
      return "no rule for \(typeName(property)) or \(typeName(wrapped)): the value is nil."
        + Self.nearMissText(Self.nearMisses(for: wrapped, in: registries), for: wrapped)
    case .brokenForward(let forwards, let nearMisses, let isCycle):
      let used = forwards.first.map { Self.used($0, for: property, in: container) + " " } ?? ""
      return "\(used)A read fails: "
        + PropertyCheck.brokenForward(
          forwards, nearMisses: nearMisses, isCycle: isCycle, in: container) + "."
    case .neverForwardable(let forward):
      return "\(Self.used(forward, for: property, in: container)) A read fails: "
        + PropertyCheck.neverForwardable(forward) + "."
    case .missing, .undecided, .invalidKeyPath:
      // Only rules for one property make the last two, and none serves a value with no property.
      return "failure: no registration, and \(typeName(property)) is not DefaultInitializable."
        + Self.nearMissText(Self.nearMisses(for: property, in: registries), for: property)
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

  /// `" Near miss: ..."`: the registrations of related types that a property of `property` does
  /// not use, and the fix; empty if there are none.
  private static func nearMissText(_ nearMisses: [Rule], for property: Any.Type) -> String {
    guard !nearMisses.isEmpty else { return "" }
    return " Near miss: these registrations of related types do not apply, since a property uses"
      + " only the rules of its own type: " + nearMisses.map(\.description).joined(separator: "; ")
      + ". \(nearMissFix(for: property))."
  }
}
