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
    /// The rule found is a forward whose target does not resolve for the same object: a read
    /// stops the program. `forwards`: the forwards followed, the property's first; the last one's
    /// target has no rule (`nearMisses`: registrations of types related to it), or if `isCycle`,
    /// is a type forwarded earlier in the chain.
    case brokenForward(
      forwards: [AnyRegistration], nearMisses: [InitializerRegistry.Rule], isCycle: Bool)

    /// Whether a read of the property would stop the program, or silently get nil where a rule
    /// was meant, or the check cannot tell.
    var isProblem: Bool {
      switch self {
      case .rule, .defaultInitializer, .none: false
      case .nearMiss, .missing, .undecided, .invalidKeyPath, .brokenForward: true
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
      let wrapped =
        (field.valueType as? any _OptionalDependency.Type)?.wrappedType ?? field.valueType
      return "\(path)\(declared) is always nil: no rule serves \(codeName(wrapped)), and these"
        + " registrations of related types do not apply: "
        + nearMisses.map(\.description).joined(separator: "; ")
        + ". \(InitializerRegistry.nearMissFix(for: wrapped))"
    case .undecided(let rules):
      return "\(path)\(declared); only rules for one property could serve it, and which property"
        + " each names cannot be told without an object: "
        + rules.map(\.rule.description).joined(separator: "; ")
        + ". Validate an object with validate(_:), or register a rule for the type too"
    case .invalidKeyPath(let error):
      return "\(path)\(declared); "
        + (error.description.split(separator: "\n").first.map(String.init) ?? "")
    case .brokenForward(let forwards, let nearMisses, let isCycle):
      return "\(path)\(declared); "
        + Self.brokenForward(forwards, nearMisses: nearMisses, isCycle: isCycle, in: containerClass)
    }
  }

  /// Why a forward fails for objects of `containerClass`, and the fix: `"forwarded to
  /// MyApp.Analytics (MyApp/Analytics.swift:9), which has no rule: searched MyApp.Screen, then
  /// the root default. Fix: register MyApp.Analytics (or make it DefaultInitializable), or
  /// forward to a type that has a rule"`.
  static func brokenForward(
    _ forwards: [AnyRegistration], nearMisses: [InitializerRegistry.Rule], isCycle: Bool,
    in containerClass: AnyClass
  ) -> String {
    let chain = forwards.enumerated().map { index, forward in
      let which = index == 0 ? "forwarded" : "which is forwarded"
      let target = forward.source.forwardTarget.map(codeName) ?? "?"
      return "\(which) to \(target) (\(forward.source.fileID):\(forward.source.line))"
    }.joined(separator: ", ")
    guard let target = forwards.last?.source.forwardTarget else { return chain }
    if isCycle {
      return "\(chain): a cycle of forwards, which fails the read. Fix: forward one of them to a"
        + " type that has a registration"
    }
    let near =
      nearMisses.isEmpty
      ? ""
      : "; registered for related types: " + nearMisses.map(\.description).joined(separator: "; ")
    return "\(chain), which has no rule: searched "
      + RuleTable.ancestry(of: containerClass).map(typeName).joined(separator: ", ")
      + ", then the root default\(near). Fix: register \(codeName(target)) (or make it"
      + " DefaultInitializable), or forward to a type that has a rule"
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
    outcome(of: field.valueType, at: field.offset, in: containerClass, container: container)
  }

  /// How a value of `type` resolves for an object of `containerClass`.
  ///
  /// For the property at `offset` in it, or with `offset` nil, for no property
  /// (``resolve(_:for:)``, an optional's wrapped type, a forward's target), which no rule for one
  /// property serves. `forwards`: the forwards followed to get to `type`.
  internal func outcome(
    of type: Any.Type, at offset: Int?, in containerClass: AnyClass, container: AnyObject?,
    forwards: [AnyRegistration] = []
  ) -> PropertyCheck.Outcome {
    var undecided: [AnyRegistration] = []
    var otherProperties: [AnyRegistration] = []
    for registry in searchedRegistries {
      let (typeRule, propertyRules) = registry.withState {
        (
          registry.table.search(type, in: containerClass).found,
          offset == nil ? [] : registry.table.propertyRules(for: type, in: containerClass)
        )
      }
      for rule in propertyRules {
        guard let target = rule.source.property else { continue }
        let ruleOffset: Int?
        if let container {
          do {
            ruleOffset = try target.offset(in: container, rule: rule.source)
          } catch let error as ResolutionError {
            return .invalidKeyPath(error)
          } catch {
            ruleOffset = nil
          }
        } else {
          ruleOffset = target.offsetWithoutObject
        }
        if ruleOffset == offset {
          return .rule(rule, undecided: undecided)
        }
        if ruleOffset == nil {
          undecided.append(rule)
        } else {
          otherProperties.append(rule)
        }
      }
      if let typeRule {
        return following(typeRule, undecided: undecided, in: containerClass, forwards: forwards)
      }
    }
    if type is any DefaultInitializable.Type {
      return .defaultInitializer(undecided: undecided)
    }
    guard undecided.isEmpty else { return .undecided(undecided) }
    guard let optional = type as? any _OptionalDependency.Type else {
      return .missing(nearMisses: nearMisses(for: type), otherProperties: otherProperties)
    }
    // A `T?` property with no rule of its own uses the rules of `T` (not its property rules,
    // which name properties of type `T`), else it is nil.
    switch outcome(
      of: optional.wrappedType, at: nil, in: containerClass, container: nil, forwards: forwards)
    {
    case .rule(let rule, _): return .rule(rule, undecided: [])
    case .defaultInitializer: return .defaultInitializer(undecided: [])
    case .nearMiss(let rules): return .nearMiss(rules)
    // A forward of `T` that fails fails the read: only a missing rule makes nil.
    case .brokenForward(let forwards, let nearMisses, let isCycle):
      return .brokenForward(forwards: forwards, nearMisses: nearMisses, isCycle: isCycle)
    case .none, .missing, .undecided, .invalidKeyPath:
      let near = nearMisses(for: optional.wrappedType)
      return near.isEmpty ? .none : .nearMiss(near)
    }
  }

  /// The outcome of `rule`, found for a value: itself, or for a forward, what its target gives
  /// (a forward resolves its target for the same object, with no property), followed through
  /// further forwards.
  private func following(
    _ rule: AnyRegistration, undecided: [AnyRegistration], in containerClass: AnyClass,
    forwards: [AnyRegistration]
  ) -> PropertyCheck.Outcome {
    guard let target = rule.source.forwardTarget else {
      return .rule(rule, undecided: undecided)
    }
    let chain = forwards + [rule]
    if chain.contains(where: { $0.propertyType == target }) {
      return .brokenForward(forwards: chain, nearMisses: [], isCycle: true)
    }
    let targetOutcome = outcome(
      of: target, at: nil, in: containerClass, container: nil, forwards: chain)
    switch targetOutcome {
    case .rule, .defaultInitializer:
      return .rule(rule, undecided: undecided)
    case .brokenForward:
      return targetOutcome
    // An optional target that no rule serves gives nil, and so does the forward of an optional
    // type; for any other type, the cast of nil fails.
    case .none where rule.propertyType is any _OptionalDependency.Type:
      return targetOutcome
    case .nearMiss where rule.propertyType is any _OptionalDependency.Type:
      return targetOutcome
    default:
      // No rule for the target. (Only rules for one property make `undecided` or
      // `invalidKeyPath`, and none serves a target.)
      return .brokenForward(forwards: chain, nearMisses: nearMisses(for: target), isCycle: false)
    }
  }
}
