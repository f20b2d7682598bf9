/// The rules of one registry (the registry itself, or one part of an override layer), what each
/// (property type, container class) pair resolves to from them (cached), and the pins.
///
/// A value type, part of its registry's `State`: only `decide` reads it to choose a rule.
internal struct RuleTable {
  /// Type rules by property type, then by container class (nil: the root default).
  private var typeRules: [ObjectIdentifier: [ObjectIdentifier?: AnyRegistration]] = [:]

  /// Property rules by property type, then by key path (whose equality includes its root).
  private var propertyRules: [ObjectIdentifier: [AnyKeyPath: AnyRegistration]] = [:]

  /// Each pair's entry, emptied on every change so that no resolution sees a stale rule.
  private var cache = ResolutionCache()

  /// The pins by (property type, container class): never emptied.
  private var pins: [PairKey: RulePin] = [:]

  private struct PairKey: Hashable {
    let property: ObjectIdentifier
    let container: ObjectIdentifier
  }

  /// What this table holds for a (property type, container class) pair, and what the pair's
  /// types are: all a decision asks of one registry.
  struct Entry {
    /// The most specific type rule: the class's, the nearest superclass's, else the root default.
    var typeRule: AnyRegistration?
    /// The rules for one property of the type whose root is the class or a superclass, nearest
    /// root first; of one root, by registration site, so that the order is the same in every run.
    var propertyRules: [AnyRegistration]
    /// Whether the container class conforms to `InjectionObserving`.
    var isObserved: Bool
    /// The property type, if it is `DefaultInitializable`.
    var defaultInitializable: (any DefaultInitializable.Type)?
    /// `T`, if the property type is `T?`.
    var wrappedType: Any.Type?
  }

  /// Adds `registration` (a property rule if it has a property); returns the one it replaces.
  mutating func insert(_ registration: AnyRegistration) -> AnyRegistration? {
    cache.removeAll()
    let key = ObjectIdentifier(registration.propertyType)
    if let property = registration.source.property {
      return propertyRules[key, default: [:]].updateValue(registration, forKey: property.keyPath)
    }
    return typeRules[key, default: [:]].updateValue(
      registration, forKey: registration.containerType.map(ObjectIdentifier.init))
  }

  // Removing returns what was removed, for the caller to release once it has unlocked: a
  // singleton's deinit may resolve from the registry.

  /// Removes the type rule for `property` and `container` (nil: the root default).
  mutating func remove(property: Any.Type, container: AnyClass?) -> AnyRegistration? {
    cache.removeAll()
    let key = ObjectIdentifier(property)
    defer { if typeRules[key]?.isEmpty == true { typeRules[key] = nil } }
    return typeRules[key]?.removeValue(forKey: container.map(ObjectIdentifier.init))
  }

  /// Removes the property rule for `keyPath`.
  mutating func remove(property: Any.Type, keyPath: AnyKeyPath) -> AnyRegistration? {
    cache.removeAll()
    let key = ObjectIdentifier(property)
    defer { if propertyRules[key]?.isEmpty == true { propertyRules[key] = nil } }
    return propertyRules[key]?.removeValue(forKey: keyPath)
  }

  /// Removes every rule, property rules included.
  mutating func removeAll() -> [AnyRegistration] {
    cache.removeAll()
    defer { (typeRules, propertyRules) = ([:], [:]) }
    return allRegistrations
  }

  /// The entry of `property` in `containerClass`, from the cache or made and cached.
  mutating func entry(for property: Any.Type, in containerClass: AnyClass) -> Entry {
    let key = (ObjectIdentifier(property), ObjectIdentifier(containerClass))
    if let cached = cache.entry(property: key.0, container: key.1) { return cached }
    let ancestry = Self.ancestry(of: containerClass).map(ObjectIdentifier.init)
    let byContainer = typeRules[key.0]
    let typeRule = byContainer.flatMap { rules in
      ancestry.lazy.compactMap { rules[$0] }.first ?? rules[nil]
    }
    let ownPropertyRules = (propertyRules[key.0]?.values).map { rules in
      rules.compactMap { rule in
        rule.containerType.flatMap { root in
          ancestry.firstIndex(of: ObjectIdentifier(root)).map { (rule, $0) }
        }
      }
      .sorted { first, second in
        guard first.1 == second.1 else { return first.1 < second.1 }
        let (a, b) = (first.0.source, second.0.source)
        return ("\(a.fileID)", a.line) < ("\(b.fileID)", b.line)
      }
      .map(\.0)
    }
    let entry = Entry(
      typeRule: typeRule, propertyRules: ownPropertyRules ?? [],
      isObserved: containerClass is any InjectionObserving.Type,
      defaultInitializable: property as? any DefaultInitializable.Type,
      wrappedType: (property as? any _OptionalDependency.Type)?.wrappedType)
    cache.insert(entry, property: key.0, container: key.1)
    return entry
  }

  /// Whether `pin` (a rule of this table's registry, or `init()`) is the pin of `property` in
  /// `containerClass`: it is if it is the first pinned there.
  mutating func isPin(_ pin: RulePin, of property: Any.Type, in containerClass: AnyClass) -> Bool {
    let key = PairKey(
      property: ObjectIdentifier(property), container: ObjectIdentifier(containerClass))
    guard let existing = pins[key] else {
      pins[key] = pin
      return true
    }
    return existing.isSame(as: pin)
  }

  /// The pin of `property` in `containerClass`, if a resolution set one.
  func pin(of property: Any.Type, in containerClass: AnyClass) -> RulePin? {
    pins[PairKey(property: ObjectIdentifier(property), container: ObjectIdentifier(containerClass))]
  }

  /// The type rule registered for exactly `containerClass` (nil: the root default), if any.
  func typeRule(for property: Any.Type, registeredIn containerClass: AnyClass?) -> AnyRegistration?
  {
    typeRules[ObjectIdentifier(property)]?[containerClass.map(ObjectIdentifier.init)] ?? nil
  }

  /// The registrations for `property`, property rules included, in no particular order.
  func registrations(for property: Any.Type) -> [AnyRegistration] {
    let key = ObjectIdentifier(property)
    return (typeRules[key].map { Array($0.values) } ?? [])
      + (propertyRules[key].map { Array($0.values) } ?? [])
  }

  /// The property types with a registration (a property rule included), in no particular order.
  var propertyTypes: [Any.Type] {
    Dictionary(allRegistrations.map { (ObjectIdentifier($0.propertyType), $0.propertyType) }) {
      first, _ in first
    }.map(\.value)
  }

  /// Every registration, property rules included, in no particular order.
  var allRegistrations: [AnyRegistration] {
    typeRules.values.flatMap(\.values) + propertyRules.values.flatMap(\.values)
  }

  /// `containerClass` and its superclasses, nearest first.
  static func ancestry(of containerClass: AnyClass) -> [AnyClass] {
    Array(sequence(first: containerClass, next: _getSuperclass))
  }
}

/// The rule that the first resolution of a (property type, container class) pair from the
/// registry's own rules used: values it builds are stored without a box, and `$property.rule`
/// finds their rule here.
///
/// Never changes, whatever is registered or removed afterwards: values built by another rule are
/// boxed with it. It keeps the rule's description, not the registration, so a removed
/// registration's initializer and instance still go away.
internal enum RulePin {
  case registration(RuleSource)
  case defaultInitializer

  /// Whether the pin is `other`: the same registration, or both `init()`.
  func isSame(as other: RulePin) -> Bool {
    switch (self, other) {
    case (.registration(let own), .registration(let other)): own === other
    case (.defaultInitializer, .defaultInitializer): true
    default: false
    }
  }

  func rule(of property: Any.Type) -> InitializerRegistry.Rule {
    switch self {
    case .registration(let source): source.rule
    case .defaultInitializer: .defaultInitializer(of: property)
    }
  }
}
