// The one decision: which rule serves a property. A registry's rules (`RuleTable`) give each
// (property type, container class) pair a plan, cached while its rules do not change; `decide`
// walks the registries searched and reads their plans. The first read (its fast path too),
// `resolve(_:for:)`, `load()` and every diagnostic take their answer from here.

/// The rules of one registry (the registry itself, or one part of an override layer), and the
/// plan each (property type, container class) pair gets from them.
///
/// A value type, part of its registry's `State`.
package struct RuleTable {
  /// The rules by property type, then by what each is for: its container class (nil: the root
  /// default), or for a rule for one property, its key path (whose equality includes its root).
  private var rules: [ObjectIdentifier: [Key: AnyRegistration]] = [:]

  /// Each pair's plan, emptied on every change so that no resolution sees a stale rule.
  private var plans: [Pair: Plan] = [:]

  /// The rule that first served each pair with no property rule.
  ///
  /// Values it builds are stored without a box, and `$property.rule` finds their rule here.
  /// Never emptied: such a value outlives the plan that built it. The rule's description is
  /// kept, not the registration, so a removed registration's initializer and instance still go.
  private var firstRules: [Pair: ValueOrigin] = [:]

  /// What a rule is for: a container class (nil: the root default), or one property.
  enum Key: Hashable {
    case container(ObjectIdentifier?)
    case property(AnyKeyPath)

    init(_ container: AnyClass?) { self = .container(container.map(ObjectIdentifier.init)) }
  }

  /// A (property type, container class) pair.
  struct Pair: Hashable {
    /// The property type.
    let type: ObjectIdentifier
    let container: ObjectIdentifier
  }

  /// Adds `registration`; returns the one it replaces (for the same container class or key path).
  mutating func insert(_ registration: AnyRegistration) -> AnyRegistration? {
    plans = [:]
    let key = registration.source.property.map { Key.property($0.keyPath) }
    return rules[ObjectIdentifier(registration.propertyType), default: [:]].updateValue(
      registration, forKey: key ?? Key(registration.containerType))
  }

  /// Removes the rule for `property` with `key` (see `insert`); returns it, for the caller to
  /// release once it has unlocked: a singleton's deinit may resolve from the registry.
  mutating func remove(property: Any.Type, key: Key) -> [AnyRegistration] {
    plans = [:]
    return rules[ObjectIdentifier(property)]?.removeValue(forKey: key).map { [$0] } ?? []
  }

  /// Removes every rule, property rules included.
  mutating func removeAll() -> [AnyRegistration] {
    defer { (rules, plans) = ([:], [:]) }
    return allRegistrations
  }

  /// The plan of `property` in `containerClass`, cached until the rules change.
  package mutating func plan(for property: Any.Type, in containerClass: AnyClass) -> Plan {
    let pair = Pair(type: ObjectIdentifier(property), container: ObjectIdentifier(containerClass))
    if let cached = plans[pair] { return cached }
    let (classes, own) = (ancestry(of: containerClass), rules[pair.type] ?? [:])
    let propertyRules = own.values.compactMap { rule in
      rule.source.property.flatMap { target in
        classes.firstIndex { $0 == target.rootClass }.map { (rule, $0) }
      }
    }
    var plan = Plan(
      typeRule: classes.lazy.compactMap { own[Key($0)] }.first ?? own[Key(nil)],
      propertyRules: propertyRules.sorted { first, second in
        let (a, b) = (first.0.source, second.0.source)
        return (first.1, "\(a.fileID)", a.line) < (second.1, "\(b.fileID)", b.line)
      }.map(\.0),
      isObserved: containerClass is any InjectionObserving.Type,
      defaultInitializable: property as? any DefaultInitializable.Type,
      wrappedType: wrappedType(of: property))
    // The first rule to serve the pair with no property stays its first rule, for good.
    let rule = plan.typeRule.map { ValueOrigin.registration($0.source) }
    if let rule = rule ?? (plan.defaultInitializable == nil ? nil : .defaultInitializer(property)) {
      let first = firstRules[pair, default: rule]
      (firstRules[pair], plan.isFirstRule) = (first, first.source === rule.source)
    }
    plans[pair] = plan
    return plan
  }

  /// The first rule of `property` in `containerClass`, if one served it (see `firstRules`).
  func firstRule(of property: Any.Type, in containerClass: AnyClass) -> ValueOrigin? {
    firstRules[Pair(type: ObjectIdentifier(property), container: ObjectIdentifier(containerClass))]
  }

  /// Every registration, property rules included, in no particular order.
  var allRegistrations: [AnyRegistration] { rules.values.flatMap(\.values) }
}

/// What one registry's rules say for a (property type, container class) pair: the decision's
/// input from that registry, cached per pair until its rules change.
package struct Plan {
  /// The most specific type rule: the class's, the nearest superclass's, else the root default.
  package var typeRule: AnyRegistration?
  /// The rules for one property of the type whose root is the class or a superclass, nearest
  /// root first; of one root, by registration site, so that the order is the same in every run.
  package var propertyRules: [AnyRegistration] = []
  /// Whether the container class conforms to `InjectionObserving`.
  var isObserved = false
  /// The property type, if it is `DefaultInitializable`.
  var defaultInitializable: (any DefaultInitializable.Type)?
  /// `T`, if the property type is `T?`.
  var wrappedType: Any.Type?
  /// Whether what serves the pair with no property rule (`typeRule`, else `init()`) is its first
  /// rule: a `@Lazy` property then stores its object values unboxed.
  var isFirstRule = false

  /// The synchronous rule that serves every property of the pair, whichever property reads it,
  /// stored unboxed: what the fast path of a first read may take without the registry's lock.
  var fastRule: AnyRegistration? {
    let isFast = isFirstRule && propertyRules.isEmpty && typeRule?.source.isAsync == false
    return isFast && typeRule?.source.forwardTarget == nil ? typeRule : nil
  }
}

extension InitializerRegistry {
  /// The property a decision is for: rules for one property apply to a property, never to a
  /// bare type.
  package enum PropertyIdentity {
    /// No property: ``resolve(_:for:)``, a forward's target, an optional's wrapped type.
    case none
    /// The property whose slot is `offset` bytes into `container`: each property rule's key path
    /// is applied to the object to tell which property it names.
    case object(AnyObject, offset: Int)
    /// The property at `offset` in objects of the class, without an object: a property rule
    /// counts where its property is known (see `PropertyTarget.offsetWithoutObject`).
    case field(offset: Int)
  }

  /// What serves a property of a container class under the registries searched.
  package struct Decision {
    package enum Source {
      /// A registration: a type rule, a rule for this property, or a forward.
      case registration(AnyRegistration)
      /// `init()` of a `DefaultInitializable` type: the property's, or for `T?`, `T`'s.
      case defaultInitializer(any DefaultInitializable.Type)
      /// An optional property that no rule serves: nil.
      case absentOptional
      /// Nothing: a read fails.
      case missing
      /// Only rules for one property could serve it, and which they name needs an object.
      case undecided
      /// A property rule's key path leads to a property of an object of another class.
      case invalidKeyPath(AnyRegistration, ownerClass: AnyClass)
    }

    /// What a forward's target decides, when asked to follow forwards.
    package indirect enum Forwarded {
      case target(Decision)
      /// The target is a type forwarded earlier in the chain.
      case cycle
    }

    package var source: Source = .missing
    /// The registry or override layer whose rule it is.
    package var owner: InitializerRegistry?
    /// The type the source builds: the property's, or for `T?`, `T` when `T`'s rule or `init()`
    /// serves it.
    package var builtType: Any.Type
    /// Rules for one property searched before the source that may name this property, which
    /// only an object tells (without an object).
    package var undecided: [AnyRegistration] = []
    /// Rules for one property of the type that name other properties of the class.
    package var otherProperties: [AnyRegistration] = []
    /// Whether the source is the pair's first rule in the registry (see `RuleTable.firstRules`).
    var isFirstRule = false
    /// Whether the container class conforms to `InjectionObserving`.
    var isObserved = false
    /// The tracer of the registry that served, or of the last searched (the one asked).
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    /// For a forward followed: what its target decides.
    package var forwarded: Forwarded?

    /// The registration, if a registration serves.
    package var registration: AnyRegistration? {
      if case .registration(let registration) = source { registration } else { nil }
    }

    /// The rule the value is finally built with: the registration's, or at the end of the
    /// forwards followed, their target's.
    package var target: Decision {
      if case .target(let target)? = forwarded { target.target } else { self }
    }
  }

  /// Decides what serves a `property` of an object of `containerClass` under `registries`, the
  /// search order (see ``searchedRegistries``): the only code that walks the rule order.
  ///
  /// In each registry, in order: its rules for this property (by key path, the nearest root class
  /// first), then its rule for the type (the class, each superclass, the root default), then, for
  /// `T?`, its rule for `T` (and so on for `T??`). Then `init()` of the type, or of `T` for `T?`;
  /// then nil for an optional; else nothing. With `followingForwards`, a forward's target is
  /// decided too (for the same object, with no property), and its target's, reporting a cycle.
  ///
  /// Key paths are applied without any lock held (a key path through computed properties runs
  /// their getters).
  package func decide(
    _ property: Any.Type, in containerClass: AnyClass, for identity: PropertyIdentity,
    searching registries: [InitializerRegistry], followingForwards: Bool = false,
    forwardChain: [Any.Type] = []
  ) -> Decision {
    var decision = Decision(builtType: property)
    var plans: [(type: Any.Type, plan: Plan)] = []
    for registry in registries {
      (plans, decision.tracer) = registry.withState { state in
        // The property type's plan; for `T?` with no type rule, `T`'s, and so on for `T??`.
        var plans = [(type: property, plan: state.rules.plan(for: property, in: containerClass))]
        while let last = plans.last?.plan, last.typeRule == nil, let type = last.wrappedType {
          plans.append((type, state.rules.plan(for: type, in: containerClass)))
        }
        return (plans, state.tracer)
      }
      decision.isObserved = plans[0].plan.isObserved
      guard Self.select(plans, for: identity, into: &decision) else { continue }
      decision.owner = registry
      guard followingForwards, let target = decision.registration?.source.forwardTarget else {
        return decision
      }
      let chain = forwardChain + [property]
      decision.forwarded =
        chain.contains { $0 == target }
        ? .cycle
        : .target(
          decide(
            target, in: containerClass, for: .none, searching: registries, followingForwards: true,
            forwardChain: chain))
      return decision
    }
    // The plans of the registry searched last (the one asked): whether a type is
    // `DefaultInitializable` does not depend on the registry, nor, there, its first rule.
    let own = plans.first?.plan ?? Plan()
    if let initializable = plans.lazy.compactMap(\.plan.defaultInitializable).first {
      decision.source = .defaultInitializer(initializable)
      (decision.builtType, decision.isFirstRule) = (initializable, own.isFirstRule)
    } else if !decision.undecided.isEmpty {
      decision.source = .undecided
    } else if own.wrappedType != nil {
      decision.source = .absentOptional
    }
    return decision
  }

  /// The rule of one registry, from the property type's plan (first of `plans`) and each wrapped
  /// type's, written into `decision`; false if it has none for the property.
  private static func select(
    _ plans: [(type: Any.Type, plan: Plan)], for identity: PropertyIdentity,
    into decision: inout Decision
  ) -> Bool {
    let plan = plans[0].plan
    var found: AnyRegistration?
    for rule in plan.propertyRules {
      guard let target = rule.source.property else { continue }
      let (slot, offset): (Int, Int?)
      switch identity {
      case .none: continue
      case .field(let own): (slot, offset) = (own, target.offsetWithoutObject)
      case .object(let container, let own):
        // Every rule is applied, even after a match, so that an invalid key path fails every
        // read, whichever property is read first.
        guard let found = target.offset(in: container) else {
          decision.source = .invalidKeyPath(rule, ownerClass: target.ownerClass(in: container))
          return true
        }
        (slot, offset) = (own, found)
      }
      if found != nil { continue }
      switch offset {
      case slot: found = rule
      case nil: decision.undecided.append(rule)
      default: decision.otherProperties.append(rule)
      }
    }
    if let rule = found ?? plan.typeRule {
      decision.source = .registration(rule)
      decision.isFirstRule = found == nil && plan.isFirstRule
      return true
    }
    // The plans of wrapped types end with the first that has a type rule, if one does.
    guard let (type, wrapped) = plans.dropFirst().last, let rule = wrapped.typeRule else {
      return false
    }
    (decision.source, decision.builtType) = (.registration(rule), type)
    return true
  }
}
