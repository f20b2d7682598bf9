import _LazyInjectShims

// The one decision: which rule serves a property. A registry's rules (`RuleTable`) give each
// (property type, container class) pair a plan, cached while its rules do not change; `decide`
// walks the registries searched and reads their plans. The first read (its fast path too),
// `resolve(_:for:)`, `load()` and every diagnostic take their answer from here.

/// The rules of one registry (the registry itself, or one part of an override layer), and the
/// plan each (property type, container class) pair gets from them.
///
/// A value type, part of its registry's `State`.
package struct RuleTable {
  /// The rules by property type (a `Pair` with no container class), one for each thing a rule
  /// is for (`Key`).
  ///
  /// An array for each type, searched in order: a type has a few rules, and an array needs
  /// neither hashing nor a dictionary of its own for each type registered.
  private var rules: [Pair: [AnyRegistration]] = [:]

  /// What the table knows of each pair read: its plan and its first rule.
  ///
  /// One entry for both, so that a new pair costs one lookup of its key.
  private var pairs: [Pair: PairEntry] = [:]

  private struct PairEntry {
    /// The pair's plan, forgotten on every change so that no resolution sees a stale rule.
    var plan: Plan?
    /// The rule that first served the pair with no property rule.
    ///
    /// Values it builds are stored without a box, and `$property.rule` finds their rule here.
    /// Never forgotten: such a value outlives the plan that built it. The rule's description is
    /// kept, not the registration, so a removed registration's initializer and instance still
    /// go.
    var firstRule: ValueOrigin?
  }

  /// What a rule is for: a container class (nil: the root default), or one property, by its key
  /// path (whose equality includes its root).
  enum Key: Equatable {
    case container(ObjectIdentifier?)
    case property(AnyKeyPath)

    init(_ container: AnyClass?) { self = .container(container.map(ObjectIdentifier.init)) }

    init(of registration: AnyRegistration) {
      if let property = registration.source.property {
        self = .property(property.keyPath)
      } else {
        self.init(registration.containerType)
      }
    }
  }

  /// A (property type, container class) pair, the key of `pairs`; or a property type alone, the
  /// key of `rules`.
  ///
  /// One type for both keys: a dictionary's first instantiation for a key type searches every
  /// conformance record of the process for its `Hashable` conformance (70 to 100 µs at 20,000
  /// records, measured).
  struct Pair: Hashable {
    /// The property type.
    let type: ObjectIdentifier
    let container: ObjectIdentifier?

    init(_ property: Any.Type, in containerClass: AnyClass? = nil) {
      type = ObjectIdentifier(property)
      container = containerClass.map(ObjectIdentifier.init)
    }

    /// The fast path table's hash of the two addresses, with the dictionary's seed.
    ///
    /// The standard hasher's SipHash cost a new pair about 700 more of its 8,100 instructions
    /// (measured), its table's growth included. Type metadata addresses are no input an attacker
    /// chooses: no hash flooding to fear.
    func _rawHashValue(seed: Int) -> Int {
      let seeded = UInt64(UInt(bitPattern: type)) ^ UInt64(UInt(bitPattern: seed))
      let other = container.map { UInt64(UInt(bitPattern: $0)) } ?? 0
      return Int(truncatingIfNeeded: _lazyinject_hash_words(seeded, other))
    }
  }

  /// Adds `registration`; returns the one it replaces (for the same container class or key path).
  mutating func insert(_ registration: AnyRegistration) -> AnyRegistration? {
    forgetPlans()
    let ofType = Pair(registration.propertyType)
    guard let index = Self.index(of: Key(of: registration), in: rules[ofType] ?? []) else {
      rules[ofType, default: []].append(registration)
      return nil
    }
    let replaced = rules[ofType]![index]
    rules[ofType]![index] = registration
    return replaced
  }

  /// Removes the rule for `property` with `key` (see `insert`); returns it, for the caller to
  /// release once it has unlocked: a singleton's deinit may resolve from the registry.
  mutating func remove(property: Any.Type, key: Key) -> [AnyRegistration] {
    forgetPlans()
    let ofType = Pair(property)
    guard let index = Self.index(of: key, in: rules[ofType] ?? []) else { return [] }
    return [rules[ofType]!.remove(at: index)]
  }

  /// Where the rule for `key` is among `own`, a type's rules.
  private static func index(of key: Key, in own: [AnyRegistration]) -> Int? {
    own.firstIndex { Key(of: $0) == key }
  }

  /// The rule for `key` among `own`, a type's rules.
  private static func rule(for key: Key, in own: [AnyRegistration]) -> AnyRegistration? {
    index(of: key, in: own).map { own[$0] }
  }

  /// Removes every rule, property rules included.
  mutating func removeAll() -> [AnyRegistration] {
    let removed = allRegistrations
    rules = [:]
    forgetPlans()
    return removed
  }

  /// Forgets every pair's plan, which may name a rule that changed; keeps the first rules.
  private mutating func forgetPlans() {
    for index in pairs.indices {
      pairs.values[index].plan = nil
    }
  }

  /// The plan of `property` in `containerClass`, cached until the rules change.
  package mutating func plan(for property: Any.Type, in containerClass: AnyClass) -> Plan {
    let pair = Pair(property, in: containerClass)
    // One lookup: a pair read before has its entry, a new pair gets one.
    return Self.plan(
      of: property, in: containerClass, rules: rules, entry: &pairs[pair, default: PairEntry()])
  }

  /// The plan in `entry`, the pair's, made from `rules` if it has none.
  private static func plan(
    of property: Any.Type, in containerClass: AnyClass,
    rules: [Pair: [AnyRegistration]], entry: inout PairEntry
  ) -> Plan {
    if var cached = entry.plan {
      cached.wasMadeBefore = true
      return cached
    }
    let classes = ancestrySequence(of: containerClass)
    let own = rules[Pair(property)] ?? []
    let classRule = classes.lazy.compactMap { rule(for: Key($0), in: own) }.first
    let typeRule = classRule ?? rule(for: Key(nil), in: own)
    let isObserved = conforms(containerClass, to: (any InjectionObserving).self) {
      containerClass is any InjectionObserving.Type
    }
    // A type rule serves every property of the pair: `init()` is then never asked for.
    var defaultInitializable: (any DefaultInitializable.Type)?
    if typeRule == nil {
      defaultInitializable = property as? any DefaultInitializable.Type
    }
    var plan = Plan(
      typeRule: typeRule, propertyRules: propertyRules(in: own, for: classes),
      isObserved: isObserved, defaultInitializable: defaultInitializable,
      wrappedType: wrappedType(of: property))
    // The first rule to serve the pair with no property stays its first rule, for good.
    var serving: ValueOrigin?
    if let typeRule = plan.typeRule {
      serving = .registration(typeRule.source)
    } else if plan.defaultInitializable != nil {
      serving = .defaultInitializer(property)
    }
    // Not `entry.firstRule ?? serving`, which copied the rule whichever it was.
    if let first = entry.firstRule {
      if let serving {
        plan.isFirstRule = first.source === serving.source
      }
    } else if let serving {
      entry.firstRule = serving
      plan.isFirstRule = true
    }
    entry.plan = plan
    return plan
  }

  /// The rules for one property among `own` whose key path's root is one of `classes` (the
  /// container class, then its superclasses): the nearest root first, and those of one root by
  /// registration site, so that the order is the same in every run.
  private static func propertyRules(
    in own: [AnyRegistration], for classes: UnfoldFirstSequence<AnyClass>
  ) -> [AnyRegistration] {
    struct Ranked {
      let rule: AnyRegistration
      /// How many classes up from the container class its key path's root is.
      let distance: Int
      let fileID: String
      let line: UInt
    }
    var ranked: [Ranked] = []
    for rule in own {
      guard let target = rule.source.property,
        let distance = classes.enumerated().first(where: { $0.element == target.rootClass })?.offset
      else { continue }
      ranked.append(
        Ranked(
          rule: rule, distance: distance, fileID: "\(rule.source.fileID)", line: rule.source.line))
    }
    // Most types have no property rule: sorting would copy the empty array into a buffer of its
    // own, an allocation for each new pair.
    guard ranked.count > 1 else {
      return ranked.map(\.rule)
    }
    ranked.sort { first, second in
      if first.distance != second.distance {
        return first.distance < second.distance
      }
      if first.fileID != second.fileID {
        return first.fileID < second.fileID
      }
      return first.line < second.line
    }
    return ranked.map(\.rule)
  }

  /// The first rule of `property` in `containerClass`, if one served it (see `PairEntry`).
  func firstRule(of property: Any.Type, in containerClass: AnyClass) -> ValueOrigin? {
    pairs[Pair(property, in: containerClass)]?.firstRule
  }

  /// Every registration, property rules included, in no particular order.
  var allRegistrations: [AnyRegistration] { rules.values.flatMap { $0 } }
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
  /// The property type, if it is `DefaultInitializable` and no type rule serves the pair (it is
  /// asked only then).
  var defaultInitializable: (any DefaultInitializable.Type)?
  /// `T`, if the property type is `T?`.
  var wrappedType: Any.Type?
  /// Whether what serves the pair with no property rule (`typeRule`, else `init()`) is its first
  /// rule: a `@Lazy` property then stores its object values unboxed.
  var isFirstRule = false
  /// Whether an earlier call made this plan (the pair was read or checked before); never cached
  /// as true.
  var wasMadeBefore = false

  /// The synchronous rule that serves every property of the pair, whichever property reads it,
  /// stored unboxed: what the fast path of a first read may take without the registry's lock.
  var fastRule: AnyRegistration? {
    guard isFirstRule, propertyRules.isEmpty, let typeRule else { return nil }
    let isAsync = typeRule.source.isAsync
    let isForward = typeRule.source.forwardTarget != nil
    return isAsync || isForward ? nil : typeRule
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
    /// Whether the source is the pair's first rule in the registry (see `RuleTable.PairEntry`).
    var isFirstRule = false
    /// Whether the container class conforms to `InjectionObserving`.
    var isObserved = false
    /// The tracer of the registry that served, or of the last searched (the one asked).
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    /// The fast path table's version, when the decision is for a slot, and is the shared
    /// registry's plan alone and its `fastRule` (no layer ever made, nothing recording, no tracer,
    /// the automatic modules installed): the first read may then record it for the pair
    /// (`FastPath`).
    var fastPathVersion: UInt64?
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
    decide(
      property, in: containerClass, for: identity, searching: registries,
      followingForwards: followingForwards, forwardChain: forwardChain, into: &decision)
    return decision
  }

  /// Decides as `decide(_:in:for:searching:followingForwards:forwardChain:)` into `decision`, a
  /// new one for `property`: a resolution's own variable, which a returned decision was copied
  /// into (a copy and a destruction of every field).
  func decide(
    _ property: Any.Type, in containerClass: AnyClass, for identity: PropertyIdentity,
    searching registries: [InitializerRegistry], followingForwards: Bool = false,
    forwardChain: [Any.Type] = [], into decision: inout Decision
  ) {
    // Only a slot's first read (the table serves slots; a forward's target is decided with no
    // property, and its handle is the forwarded type's), from the shared registry alone, where
    // no layer was ever made and nothing records, may record its decision for the fast path.
    let readsASlot = if case .object = identity { true } else { false }
    let mayRecordFastPath =
      readsASlot && registries.count == 1 && registries[0] === Self.shared
      && _lazyinject_overrides_used() == 0
    // When no registry searched has a type rule for the pair, the last one's plans (the asked
    // registry's) say whether `init()` serves, whether that is the pair's first rule, and
    // whether the type is optional.
    var initializable: (any DefaultInitializable.Type)?
    var isFirstRule = false
    var isOptional = false
    for registry in registries {
      var fastPathVersion: UInt64?
      let plans = registry.withState { state in
        decision.tracer = state.tracer
        if mayRecordFastPath, case .installed = state.modules, state.tracer == nil {
          fastPathVersion = _lazyinject_fast_version()
        }
        return Self.typePlans(of: property, in: containerClass, rules: &state.rules)
      }
      decision.isObserved = plans.own.isObserved
      guard Self.select(plans, for: identity, into: &decision) else {
        initializable = plans.defaultInitializable
        isFirstRule = plans.own.isFirstRule
        isOptional = plans.own.wrappedType != nil
        continue
      }
      decision.owner = registry
      // A `.unique` rule's pair is recorded when it is decided again: most pairs of a launch are
      // read once, and an entry is an allocation.
      if let fastRule = plans.own.fastRule, fastRule === decision.registration,
        fastRule.isShared || plans.own.wasMadeBefore
      {
        decision.fastPathVersion = fastPathVersion
      }
      guard followingForwards, let target = decision.registration?.source.forwardTarget else {
        return
      }
      let chain = forwardChain + [property]
      if chain.contains(where: { $0 == target }) {
        decision.forwarded = .cycle
      } else {
        let targetDecision = decide(
          target, in: containerClass, for: .none, searching: registries, followingForwards: true,
          forwardChain: chain)
        decision.forwarded = .target(targetDecision)
      }
      return
    }
    if let initializable {
      decision.source = .defaultInitializer(initializable)
      decision.builtType = initializable
      decision.isFirstRule = isFirstRule
    } else if !decision.undecided.isEmpty {
      decision.source = .undecided
    } else if isOptional {
      decision.source = .absentOptional
    }
  }

  /// A wrapped type's plan in one registry: for a `T?` property, `T`'s.
  private struct TypePlan {
    let type: Any.Type
    let plan: Plan
  }

  /// One registry's plans for a property type: its own, and for `T?` with no type rule, `T`'s,
  /// and so on for `T??`.
  private struct TypePlans {
    /// The property type's plan.
    var own = Plan()
    /// The wrapped types' plans, outermost first, ending with the first that has a type rule:
    /// empty unless the property type is an optional that no type rule serves, so that a read of
    /// any other type allocates no array.
    var wrapped: [TypePlan] = []

    /// The first of the types whose `init()` may serve (see `Plan.defaultInitializable`).
    var defaultInitializable: (any DefaultInitializable.Type)? {
      own.defaultInitializable ?? wrapped.lazy.compactMap(\.plan.defaultInitializable).first
    }
  }

  /// The property type's plans in `rules` (see `TypePlans`).
  private static func typePlans(
    of property: Any.Type, in containerClass: AnyClass, rules: inout RuleTable
  ) -> TypePlans {
    var plans = TypePlans(own: rules.plan(for: property, in: containerClass))
    // The next type to plan, read from the last plan without a copy of it.
    var next = plans.own.typeRule == nil ? plans.own.wrappedType : nil
    while let wrapped = next {
      let plan = rules.plan(for: wrapped, in: containerClass)
      next = plan.typeRule == nil ? plan.wrappedType : nil
      plans.wrapped.append(TypePlan(type: wrapped, plan: plan))
    }
    return plans
  }

  /// The rule of one registry, from the property type's plan and each wrapped type's, written
  /// into `decision`; false if it has none for the property.
  private static func select(
    _ plans: TypePlans, for identity: PropertyIdentity, into decision: inout Decision
  ) -> Bool {
    let plan = plans.own
    var found: AnyRegistration?
    for rule in plan.propertyRules {
      guard let target = rule.source.property else { continue }
      // The slot's offset of the property being resolved, and the offset the rule names.
      let slot: Int
      let named: Int?
      switch identity {
      case .none:
        continue
      case .field(let offset):
        slot = offset
        named = target.offsetWithoutObject
      case .object(let container, let offset):
        // Every rule is applied, even after a match, so that an invalid key path fails every
        // read, whichever property is read first.
        guard let offsetInContainer = target.offset(in: container) else {
          decision.source = .invalidKeyPath(rule, ownerClass: target.ownerClass(in: container))
          return true
        }
        slot = offset
        named = offsetInContainer
      }
      if found != nil { continue }
      switch named {
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
    guard let wrapped = plans.wrapped.last, let rule = wrapped.plan.typeRule else {
      return false
    }
    decision.source = .registration(rule)
    decision.builtType = wrapped.type
    return true
  }
}
