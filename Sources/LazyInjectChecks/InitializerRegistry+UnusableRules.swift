import LazyInject

// The rules of a module's classes that can never serve: `register(Client.self, in:
// OfflineDetailScreen.self)` where no property of `OfflineDetailScreen` or its subclasses can be
// served by it. Told by the registry's one decision, as for the properties themselves.

extension InitializerRegistry {
  /// The failure for each rule registered for one of `judged` (classes of the module `module`) that
  /// no property of its class or of its subclasses among `classes` can use: by its type (`T`, or
  /// `T?`), through a forward, or as a rule for one property.
  ///
  /// Nil when there is none.
  ///
  /// A property that rules for one property may serve, while which one each names is not known
  /// yet, counts as using them all.
  func unusableRules(
    judging judged: [AnyClass], among classes: [AnyClass], module: String,
    registries: [InitializerRegistry]
  ) -> String? {
    let judgedClasses = Set(judged.map(ObjectIdentifier.init))
    let rules = registries.flatMap(\.registrations).filter { rule in
      rule.containerType.map { judgedClasses.contains(ObjectIdentifier($0)) } ?? false
    }
    guard !rules.isEmpty else { return nil }
    var used = Set<ObjectIdentifier>()
    // For each type a property can be served as (its own, the types it wraps, forward targets),
    // the classes that have such a property.
    var reachers: [ObjectIdentifier: [ObjectIdentifier: AnyClass]] = [:]
    for containerClass in classes {
      for field in (try? LazyField.fields(of: containerClass)) ?? [] {
        var types = [field.valueType]
        while let wrapped = types.last.flatMap(wrappedType(of:)) { types.append(wrapped) }
        var next: Decision? = decide(
          field.valueType, in: containerClass, for: .field(offset: field.offset),
          searching: registries, followingForwards: true)
        while let decision = next {
          used.formUnion(decision.undecided.map(ObjectIdentifier.init))
          if let rule = decision.registration { used.insert(ObjectIdentifier(rule)) }
          guard case .target(let target) = decision.forwarded else { break }
          (types, next) = (types + [target.builtType], target)
        }
        for type in types {
          reachers[ObjectIdentifier(type), default: [:]][ObjectIdentifier(containerClass)] =
            containerClass
        }
      }
    }
    let unusable = rules.compactMap { rule in
      used.contains(ObjectIdentifier(rule)) ? nil : rule.containerType.map { (rule, $0) }
    }.sorted { $0.0.rule.description < $1.0.rule.description }
    guard !unusable.isEmpty else { return nil }
    let count = unusable.count == 1 ? "1 rule" : "\(unusable.count) rules"
    let lines = unusable.map { rule, owner in
      let reaching = reachers[ObjectIdentifier(rule.propertyType)].map { Array($0.values) } ?? []
      return "  - \(rule.rule): " + Self.whyUnused(rule, of: owner, reachers: reaching)
    }
    let fix =
      "Fix: register each for the class whose property it is meant for (or a superclass of it),"
      + " or remove it. A rule that only resolve(_:for:) uses is not judged when its class is"
      + " excluded (excluding:)."
    return
      (["LazyInject found \(count) registered for classes of \(module) that no property can use:"]
      + lines + [fix]).joined(separator: "\n")
  }

  /// Why `rule`, registered for `owner`, serves none of its properties or its subclasses',
  /// given `reachers`, the classes with a property it could serve by type.
  private static func whyUnused(_ rule: AnyRegistration, of owner: AnyClass, reachers: [AnyClass])
    -> String
  {
    let own = reachers.filter { candidate in
      ancestry(of: candidate).contains { $0 == owner }
    }
    let type = typeName(rule.propertyType)
    guard own.isEmpty else {
      return "every \(type) property of " + own.map(typeName).sorted().joined(separator: ", ")
        + " is served by another rule (see explain(_:in:))"
    }
    guard !reachers.isEmpty else {
      return "no class of the module has a property that can be served a \(type)"
    }
    return "\(typeName(owner)) and its subclasses have no property that can be served a \(type);"
      + " classes that do: " + reachers.map(typeName).sorted().joined(separator: ", ")
  }
}
