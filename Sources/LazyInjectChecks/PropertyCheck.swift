import LazyInject
import _LazyInjectScan
import _LazyInjectShims

/// How a `@Lazy` or `@WeakLazy` property of a class resolves, told from the rules alone.
///
/// What `validate` and `dependencyGraph` report: a rendering of a `Decision`. Builds nothing.
package struct PropertyCheck {
  /// The class whose objects' property this is.
  package let containerClass: AnyClass
  package let field: LazyField
  package let outcome: Outcome

  package enum Outcome {
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
    /// The rule found is a forward whose target's values can never be of the property's type,
    /// as the types alone show: a read stops the program.
    case neverForwardable(AnyRegistration)
    /// The rule found is a forward whose target does not resolve for the same object: a read
    /// stops the program. `forwards`: the forwards followed, the property's first; the last one's
    /// target has no rule (`nearMisses`: registrations of types related to it), or if `isCycle`,
    /// is a type forwarded earlier in the chain.
    case brokenForward(
      forwards: [AnyRegistration], nearMisses: [InitializerRegistry.Rule], isCycle: Bool)

    /// Whether a read of the property would stop the program, or silently get nil where a rule
    /// was meant, or the check cannot tell.
    package var isProblem: Bool {
      switch self {
      case .rule, .defaultInitializer, .none: false
      case .nearMiss, .missing, .undecided, .invalidKeyPath, .brokenForward, .neverForwardable:
        true
      }
    }
  }

  /// `"MyApp.AdminViewController.audit: MyApp.Audit"`.
  package var path: String {
    "\(typeName(containerClass)).\(field.displayName): \(codeName(field.valueType))"
  }

  /// The line a report gives a property with a problem, after `"  - "`.
  package func problem(searchedLayers: Int) -> String {
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
      let near = nearMisses.map(\.description)
        .listed(after: "; registered for related types, which it does not use: ")
      let others = otherProperties.map(\.rule).map { $0.property(of: $0.containerTypeName ?? "?") }
        .listed(after: "; its type's property rules here serve only ", separator: ", ")
      return "\(path)\(declared); searched\(layers) \(searchOrder(containerClass))\(others)\(near)"
    case .nearMiss(let nearMisses):
      let wrapped = wrappedType(of: field.valueType) ?? field.valueType
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
      return "\(path)\(declared); \(error.description.split(separator: "\n").first ?? "")"
    case .brokenForward(let forwards, let nearMisses, let isCycle):
      return "\(path)\(declared); "
        + Self.brokenForward(forwards, nearMisses: nearMisses, isCycle: isCycle, in: containerClass)
    case .neverForwardable(let forward):
      return "\(path)\(declared); \(Self.neverForwardable(forward))"
    }
  }

  /// Why a forward fails for objects of `containerClass`, and the fix: `"forwarded to
  /// MyApp.Analytics (MyApp/Analytics.swift:9), which has no rule: searched MyApp.Screen, then
  /// the root default. Fix: register MyApp.Analytics (or make it DefaultInitializable), or
  /// forward to a type that has a rule"`.
  package static func brokenForward(
    _ forwards: [AnyRegistration], nearMisses: [InitializerRegistry.Rule], isCycle: Bool,
    in containerClass: AnyClass
  ) -> String {
    // "forwarded to A (site), which is forwarded to B (site)".
    let chain = forwards.map { forward in
      let target = forward.source.forwardTarget.map(codeName) ?? "?"
      return "forwarded to \(target) (\(forward.source.fileID):\(forward.source.line))"
    }.joined(separator: ", which is ")
    guard let target = forwards.last?.source.forwardTarget else { return chain }
    if isCycle {
      return "\(chain): a cycle of forwards, which fails the read. Fix: forward one of them to a"
        + " type that has a registration"
    }
    let near = nearMisses.map(\.description).listed(after: "; registered for related types: ")
    return "\(chain), which has no rule: searched \(searchOrder(containerClass))\(near). Fix:"
      + " register \(codeName(target)) (or make it DefaultInitializable), or forward to a type that"
      + " has a rule"
  }
}

extension PropertyCheck {
  /// Why a forward can never succeed, and the fix: `"forward((any MyApp.Tracking).self, to:
  /// MyApp.Feed.self) at MyApp/Modules.swift:9 can never succeed: a MyApp.Feed is never a
  /// MyApp.Tracking. Fix: make it conform, or forward to a type that does"`.
  package static func neverForwardable(_ forward: AnyRegistration) -> String {
    let (forwarded, target) = (forward.propertyType, forward.source.forwardTarget ?? Any.self)
    let why =
      forwarded == target
      ? "it resolves \(typeName(target)) through itself, a cycle. Fix: register"
        + " \(typeName(target)) instead"
      : "a \(typeName(target)) is never a \(typeName(forwarded)). Fix: make it conform, or forward"
        + " to a type that does"
    return "forward((\(codeName(forwarded))).self, to: \(codeName(target)).self) at"
      + " \(forward.source.fileID):\(forward.source.line) can never succeed: \(why)"
  }
}

/// Whether no value that the rules of `target` can build is a `forwarded`, as far as the types
/// alone tell.
///
/// A class's subclass, or an existential's dynamic type, may conform where the type does not,
/// and values bridge across kinds on Darwin, so only targets of the forwarded type's own kind are
/// judged; a conformance isolated to the main actor is seen only there, so a protocol is checked
/// only on the main actor. A type forwarded to itself never succeeds either.
private func neverConforms(_ target: Any.Type, to forwarded: Any.Type) -> Bool {
  guard target != forwarded else { return true }
  let targetCategory = _lazyinject_type_category(unsafeBitCast(target, to: UnsafeRawPointer.self))
  let forwardedMetadata = unsafeBitCast(forwarded, to: UnsafeRawPointer.self)
  switch _lazyinject_type_category(forwardedMetadata) {
  case LAZYINJECT_CATEGORY_EXISTENTIAL:
    guard targetCategory == LAZYINJECT_CATEGORY_VALUE, isOnMainActor(),
      let metatype = _lazyinject_existential_metatype(forwardedMetadata)
    else { return false }
    return !isValue(target, of: unsafeBitCast(metatype, to: Any.Type.self))
  case LAZYINJECT_CATEGORY_CLASS:
    // Neither is the other or a subclass of it.
    let isSubclass = { (subclass: Any.Type, base: Any.Type) in
      ancestry(of: unsafeBitCast(subclass, to: AnyClass.self)).contains { $0 == base }
    }
    return targetCategory == LAZYINJECT_CATEGORY_CLASS
      && !isSubclass(target, forwarded) && !isSubclass(forwarded, target)
  case LAZYINJECT_CATEGORY_VALUE:
    // A class may bridge to a struct (NSString to String), an optional unwrap to its value.
    return targetCategory == LAZYINJECT_CATEGORY_VALUE
  default: return false
  }
}

extension PropertyCheck.Outcome {
  /// What `decision`, made following forwards, means for a read; `forwards`: the forwards
  /// followed to it.
  ///
  /// The classification that `validate`, `explain` and the graph report. `registries` are those
  /// it searched (near misses are looked for there).
  static func classify(
    _ decision: InitializerRegistry.Decision, in containerClass: AnyClass,
    forwards: [AnyRegistration] = [], registries: [InitializerRegistry]
  ) -> Self {
    let nearMisses = { InitializerRegistry.nearMisses(for: $0, in: registries) }
    switch decision.source {
    case .registration(let rule):
      if let target = rule.source.forwardTarget, neverConforms(target, to: rule.propertyType) {
        return .neverForwardable(rule)
      }
      let chain = forwards + [rule]
      guard case .target(let target) = decision.forwarded else {  // No forward, or a cycle.
        return decision.forwarded == nil
          ? .rule(rule, undecided: decision.undecided)
          : .brokenForward(forwards: chain, nearMisses: [], isCycle: true)
      }
      // A forward resolves its target for the same object, with no property. An optional target
      // that no rule serves gives nil, and so does the forward of an optional type; for any
      // other type, the cast of nil fails.
      let isOptional = wrappedType(of: rule.propertyType) != nil
      let outcome = classify(target, in: containerClass, forwards: chain, registries: registries)
      switch outcome {
      case .rule, .defaultInitializer:
        return .rule(forwards.first ?? rule, undecided: decision.undecided)
      case .brokenForward: return outcome  // Broken further on.
      case .none where isOptional: return .none
      case .nearMiss(let near) where isOptional: return .nearMiss(near)
      default:
        return .brokenForward(
          forwards: chain, nearMisses: nearMisses(target.builtType), isCycle: false)
      }
    case .defaultInitializer: return .defaultInitializer(undecided: decision.undecided)
    case .undecided: return .undecided(decision.undecided)
    case .invalidKeyPath(let rule, let ownerClass):
      return .invalidKeyPath(
        ResolutionError.invalidPropertyKeyPath(
          rule: rule.rule, containerClass: containerClass, ownerClass: ownerClass))
    case .missing:
      return .missing(
        nearMisses: nearMisses(decision.builtType), otherProperties: decision.otherProperties)
    case .absentOptional:
      var wrapped = decision.builtType
      while let unwrapped = wrappedType(of: wrapped) { wrapped = unwrapped }
      let near = nearMisses(wrapped)
      return near.isEmpty ? .none : .nearMiss(near)
    }
  }
}

extension InitializerRegistry {
  /// How the `field` of `containerClass` resolves now, with `registries` (the layers in force):
  /// for `container`, an object of the class, exactly; without one, a rule for one property
  /// whose property is not known yet is undecided.
  package func check(
    _ field: LazyField, in containerClass: AnyClass, container: AnyObject?,
    registries: [InitializerRegistry]
  ) -> PropertyCheck {
    let identity: PropertyIdentity =
      container.map { .object($0, offset: field.offset) } ?? .field(offset: field.offset)
    let decision = decide(
      field.valueType, in: containerClass, for: identity, searching: registries,
      followingForwards: true)
    let outcome = PropertyCheck.Outcome.classify(
      decision, in: containerClass, registries: registries)
    return PropertyCheck(containerClass: containerClass, field: field, outcome: outcome)
  }
}

/// `"MyApp.Screen, MyApp.ViewController, then the root default"`: the classes a search for an
/// object of `containerClass` goes through, in order.
private func searchOrder(_ containerClass: AnyClass) -> String {
  ancestry(of: containerClass).map(typeName).joined(separator: ", ") + ", then the root default"
}

extension [String] {
  /// `prefix`, then the strings separated by `separator`; empty if there are none.
  fileprivate func listed(after prefix: String, separator: String = "; ") -> String {
    isEmpty ? "" : prefix + joined(separator: separator)
  }
}
