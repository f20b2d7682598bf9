/// How a `@Lazy` or `@WeakLazy` property of a class resolves, told from the rules alone.
///
/// What `validate` and `dependencyGraph` report. Builds nothing.
internal struct PropertyCheck {
  /// The class whose objects' property this is.
  let containerClass: AnyClass
  let field: LazyField
  let outcome: Outcome

  enum Outcome {
    /// A registration applies. `undecided`: property rules searched before it that may name the
    /// property, which only an object can tell.
    case rule(AnyRegistration, undecided: [AnyRegistration])
    /// `init()` of a `DefaultInitializable` type applies.
    case defaultInitializer(undecided: [AnyRegistration])
    /// An optional (or `@WeakLazy`) property that no rule serves: it is nil, as documented.
    case none
    /// An optional property that no rule serves, while registrations of related types exist (a
    /// concrete type that conforms): nil, which is likely a mistake.
    case nearMiss([InitializerRegistry.Rule])
    /// Nothing applies: a read stops the program. `otherProperties`: rules for one property of
    /// the type that name other properties.
    case missing(nearMisses: [InitializerRegistry.Rule], otherProperties: [AnyRegistration])
    /// Only property rules that may name the property could serve it, and which they name needs
    /// an object.
    case undecided([AnyRegistration])
    /// A property rule's key path leads to another object.
    case invalidKeyPath(ResolutionError)

    /// Whether a read of the property would stop the program, or silently get nil where a rule
    /// was meant, or the check cannot tell.
    var isProblem: Bool {
      switch self {
      case .rule, .defaultInitializer, .none: false
      case .nearMiss, .missing, .undecided, .invalidKeyPath: true
      }
    }
  }

  /// `"MyApp.AdminViewController.audit: MyApp.Audit"`.
  var path: String {
    "\(typeName(containerClass)).\(field.name): \(codeName(field.valueType))"
  }

  /// The line a report gives a property with a problem, after `"  - "`.
  func problem(searchedLayers: Int) -> String {
    let declared =
      field.declaringClass == containerClass
      ? "" : " (declared in \(typeName(field.declaringClass)))"
    switch outcome {
    case .rule, .defaultInitializer, .none:
      return "\(path)\(declared): resolves"
    case .missing(let nearMisses, let otherProperties):
      let layers =
        searchedLayers == 0
        ? "" : " in each of \(searchedLayers) override layer(s) and the registry"
      let near =
        nearMisses.isEmpty
        ? ""
        : "; registered for related types, which it does not use: "
          + nearMisses.map(\.description).joined(separator: "; ")
      let others =
        otherProperties.isEmpty
        ? ""
        : "; its type's property rules here serve only "
          + otherProperties.map(\.rule).map { $0.property(of: $0.containerTypeName ?? "?") }
          .joined(separator: ", ")
      return "\(path)\(declared); searched\(layers) "
        + RuleTable.ancestry(of: containerClass).map(typeName).joined(separator: ", ")
        + ", then the root default\(others)\(near)"
    case .nearMiss(let nearMisses):
      let wrapped = (field.valueType as? any _OptionalDependency.Type)?.wrappedType
      let wrappedName = wrapped.map(codeName) ?? "its wrapped type"
      return "\(path)\(declared) is always nil: no rule serves \(wrappedName), and these"
        + " registrations of related types do not apply: "
        + nearMisses.map(\.description).joined(separator: "; ")
        + ". Register \(wrappedName), or forward it: forward((\(wrappedName)).self, to: ...)"
    case .undecided(let rules):
      return "\(path)\(declared); only rules for one property could serve it, and which property"
        + " each names cannot be told without an object: "
        + rules.map(\.rule.description).joined(separator: "; ")
        + ". Validate an object with validate(_:), or register a rule for the type too"
    case .invalidKeyPath(let error):
      return "\(path)\(declared); "
        + (error.description.split(separator: "\n").first.map(String.init) ?? "")
    }
  }
}

extension InitializerRegistry {
  /// How the `field` of `containerClass` resolves now, with the override layers in force.
  ///
  /// The order of a first read: the rules of each registry searched (property rules that name
  /// it, then its type's), `init()`, an optional's wrapped type. `container`, an object of the
  /// class, tells exactly which property each property rule names; without one, a rule whose
  /// property is not known yet is undecided.
  internal func check(_ field: LazyField, in containerClass: AnyClass, container: AnyObject?)
    -> PropertyCheck
  {
    PropertyCheck(
      containerClass: containerClass, field: field,
      outcome: outcome(of: field, in: containerClass, container: container))
  }

  private func outcome(of field: LazyField, in containerClass: AnyClass, container: AnyObject?)
    -> PropertyCheck.Outcome
  {
    var undecided: [AnyRegistration] = []
    var otherProperties: [AnyRegistration] = []
    for registry in searchedRegistries {
      let (typeRule, propertyRules) = registry.withState {
        (
          registry.table.search(field.valueType, in: containerClass).found,
          registry.table.propertyRules(for: field.valueType, in: containerClass)
        )
      }
      for rule in propertyRules {
        guard let target = rule.source.property else { continue }
        let offset: Int?
        if let container {
          do {
            offset = try target.offset(in: container, rule: rule.source)
          } catch let error as ResolutionError {
            return .invalidKeyPath(error)
          } catch {
            offset = nil
          }
        } else {
          offset = target.offsetWithoutObject
        }
        if offset == field.offset {
          return .rule(rule, undecided: undecided)
        }
        if offset == nil {
          undecided.append(rule)
        } else {
          otherProperties.append(rule)
        }
      }
      if let typeRule {
        return .rule(typeRule, undecided: undecided)
      }
    }
    if field.valueType is any DefaultInitializable.Type {
      return .defaultInitializer(undecided: undecided)
    }
    guard undecided.isEmpty else { return .undecided(undecided) }
    guard let optional = field.valueType as? any _OptionalDependency.Type else {
      return .missing(
        nearMisses: nearMisses(for: field.valueType), otherProperties: otherProperties)
    }
    // A `T?` property with no rule of its own uses the rules of `T` (not its property rules,
    // which name properties of type `T`), else it is nil.
    let wrapped = LazyField(
      name: field.name, offset: -1, storageType: field.storageType,
      valueType: optional.wrappedType, isWeak: field.isWeak,
      declaringClass: field.declaringClass)
    switch outcome(of: wrapped, in: containerClass, container: nil) {
    case .rule(let rule, _): return .rule(rule, undecided: [])
    case .defaultInitializer: return .defaultInitializer(undecided: [])
    case .nearMiss(let rules): return .nearMiss(rules)
    case .none, .missing, .undecided, .invalidKeyPath:
      let near = nearMisses(for: optional.wrappedType)
      return near.isEmpty ? .none : .nearMiss(near)
    }
  }
}
