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

  /// What serves a property of a container class under the registries searched: the one answer
  /// that a first read, ``resolve(_:for:)``, `explain`, every `validate`, the dependency graph and
  /// every error message take.
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
      /// A property rule's key path leads to another object.
      case invalidKeyPath(ResolutionError)
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
    /// Whether the source is the pair's pin in its registry (see `RuleTable.Entry.isPinned`).
    var isPinned = false
    /// Whether the container class conforms to `InjectionObserving`.
    var isObserved = false
    /// The tracer of the registry asked (the last searched).
    var tracer: (@Sendable (ResolutionEvent) -> Void)?
    /// For a forward followed: what its target decides.
    package var forwarded: Forwarded?

    /// The registration, if a registration serves.
    package var registration: AnyRegistration? {
      if case .registration(let registration) = source { registration } else { nil }
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
    var entries = RuleTable.Entries(first: (property, RuleTable.Entry()))
    for registry in registries {
      (entries, decision.tracer) = registry.withState { state in
        (state.rules.entries(for: property, in: containerClass), state.tracer)
      }
      decision.isObserved = entries.first.entry.isObserved
      guard Self.select(entries, for: identity, into: &decision) else { continue }
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
    // The entries of the registry searched last (the one asked): whether a type is
    // `DefaultInitializable` does not depend on the registry, nor, there, its pin.
    if let initializable = entries.first.entry.defaultInitializable
      ?? entries.wrapped.lazy.compactMap(\.entry.defaultInitializable).first
    {
      decision.source = .defaultInitializer(initializable)
      (decision.builtType, decision.isPinned) = (initializable, entries.first.entry.isPinned)
    } else if !decision.undecided.isEmpty {
      decision.source = .undecided
    } else if entries.first.entry.wrappedType != nil {
      decision.source = .absentOptional
    }
    return decision
  }

  /// The rule of one registry, from its `entries` (the property type's, then each wrapped
  /// type's), written into `decision`; false if it has none for the property.
  ///
  /// The order within a registry, for `decide` and for the express plan (which asks with no
  /// property, of a pair that has no property rule).
  static func select(
    _ entries: RuleTable.Entries, for identity: PropertyIdentity, into decision: inout Decision
  ) -> Bool {
    var found: AnyRegistration?
    for rule in entries.first.entry.propertyRules {
      guard let target = rule.source.property else { continue }
      let (slot, offset): (Int, Int?)
      switch identity {
      case .none: continue
      case .field(let own): (slot, offset) = (own, target.offsetWithoutObject)
      case .object(let container, let own):
        // Every rule is applied, even after a match, so that an invalid key path fails every
        // read, whichever property is read first.
        do { (slot, offset) = (own, try target.offset(in: container, rule: rule.source)) } catch {
          decision.source = .invalidKeyPath(error)
          return true
        }
      }
      if found != nil { continue }
      switch offset {
      case slot: found = rule
      case nil: decision.undecided.append(rule)
      default: decision.otherProperties.append(rule)
      }
    }
    if let rule = found ?? entries.first.entry.typeRule {
      decision.source = .registration(rule)
      decision.isPinned = found == nil && entries.first.entry.isPinned
      return true
    }
    guard let (type, entry) = entries.wrapped.first(where: { $0.entry.typeRule != nil }) else {
      return false
    }
    (decision.source, decision.builtType) = (.registration(entry.typeRule!), type)
    return true
  }
}

extension RuleTable {
  /// The entries a decision reads in one registry: the property type's, and for `T?`, when that
  /// has no type rule, `T`'s (and so on for `T??`).
  struct Entries {
    var first: (type: Any.Type, entry: Entry)
    var wrapped: [(type: Any.Type, entry: Entry)] = []
  }

  /// The entries of `property` in `containerClass` (see `Entries`).
  mutating func entries(for property: Any.Type, in containerClass: AnyClass) -> Entries {
    var entries = Entries(first: (property, entry(for: property, in: containerClass)))
    var next = entries.first.entry.typeRule == nil ? entries.first.entry.wrappedType : nil
    while let wrapped = next {
      entries.wrapped.append((wrapped, entry(for: wrapped, in: containerClass)))
      next = entries.wrapped.last?.entry.wrappedType
    }
    return entries
  }
}
