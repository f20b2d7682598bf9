/// The rules of one registry (the registry itself, or one part of an override layer), what each
/// (property type, container class) pair resolves to from them (cached), and the pins.
///
/// A value type, part of its registry's `State`: only `decide` reads it to choose a rule.
internal struct RuleTable {
  /// The rules by property type, then by what each is for: its container class (nil: the root
  /// default), or for a rule for one property, its key path (whose equality includes its root).
  private var rules: [ObjectIdentifier: [Key: AnyRegistration]] = [:]

  /// Each pair's entry, emptied on every change so that no resolution sees a stale rule.
  private var cache = ResolutionCache()

  /// The pins by property type, then container class: never emptied.
  private var pins: [ObjectIdentifier: [ObjectIdentifier: RulePin]] = [:]

  /// What this table holds for a (property type, container class) pair, and what the pair's
  /// types are: all a decision asks of one registry.
  struct Entry {
    /// The most specific type rule: the class's, the nearest superclass's, else the root default.
    var typeRule: AnyRegistration?
    /// The rules for one property of the type whose root is the class or a superclass, nearest
    /// root first; of one root, by registration site, so that the order is the same in every run.
    var propertyRules: [AnyRegistration] = []
    /// Whether the container class conforms to `InjectionObserving`.
    var isObserved = false
    /// The property type, if it is `DefaultInitializable`.
    var defaultInitializable: (any DefaultInitializable.Type)?
    /// `T`, if the property type is `T?`.
    var wrappedType: Any.Type?
    /// Whether what serves the pair with no layer and no property (`typeRule`, else `init()`)
    /// is the pair's pin: a `@Lazy` property then stores its object values unboxed.
    var isPinned = false
  }

  /// What a rule is for: a container class (nil: the root default), or one property.
  enum Key: Hashable {
    case container(ObjectIdentifier?)
    case property(AnyKeyPath)

    init(_ container: AnyClass?) { self = .container(container.map(ObjectIdentifier.init)) }
  }

  /// Adds `registration`; returns the one it replaces (for the same container class or key path).
  mutating func insert(_ registration: AnyRegistration) -> AnyRegistration? {
    cache.removeAll()
    let key = registration.source.property.map { Key.property($0.keyPath) }
    return rules[ObjectIdentifier(registration.propertyType), default: [:]].updateValue(
      registration, forKey: key ?? Key(registration.containerType))
  }

  /// Removes the rule for `property` with `key` (see `insert`); returns it, for the caller to
  /// release once it has unlocked: a singleton's deinit may resolve from the registry.
  mutating func remove(property: Any.Type, key: Key) -> [AnyRegistration] {
    cache.removeAll()
    let type = ObjectIdentifier(property)
    defer { if rules[type]?.isEmpty == true { rules[type] = nil } }
    return rules[type]?.removeValue(forKey: key).map { [$0] } ?? []
  }

  /// Removes every rule, property rules included.
  mutating func removeAll() -> [AnyRegistration] {
    cache.removeAll()
    defer { rules = [:] }
    return allRegistrations
  }

  /// The entry of `property` in `containerClass`, from the cache or made and cached.
  mutating func entry(for property: Any.Type, in containerClass: AnyClass) -> Entry {
    let key = (ObjectIdentifier(property), ObjectIdentifier(containerClass))
    if let cached = cache.entry(property: key.0, container: key.1) { return cached }
    let (classes, own) = (ancestry(of: containerClass), rules[key.0] ?? [:])
    let propertyRules = own.values.compactMap { rule in
      rule.source.property.flatMap { target in
        classes.firstIndex { $0 == target.rootClass }.map { (rule, $0) }
      }
    }
    var entry = Entry(
      typeRule: classes.lazy.compactMap { own[Key($0)] }.first ?? own[Key(nil)],
      propertyRules: propertyRules.sorted { first, second in
        let (a, b) = (first.0.source, second.0.source)
        return (first.1, "\(a.fileID)", a.line) < (second.1, "\(b.fileID)", b.line)
      }.map(\.0),
      isObserved: containerClass is any InjectionObserving.Type,
      defaultInitializable: property as? any DefaultInitializable.Type,
      wrappedType: (property as? any _OptionalDependency.Type)?.wrappedType)
    // The first rule to serve the pair with no property is its pin, for good.
    let pin =
      entry.typeRule.map { RulePin.registration($0.source) }
      ?? (entry.defaultInitializable == nil ? nil : .defaultInitializer)
    if let pin {
      let known = pins[key.0]?[key.1]
      entry.isPinned = known.map { $0.isSame(as: pin) } ?? true
      pins[key.0, default: [:]][key.1] = known ?? pin
    }
    cache.insert(entry, property: key.0, container: key.1)
    return entry
  }

  /// What the express plan needs of the entry of `property` in `containerClass`.
  mutating func express(for property: Any.Type, in containerClass: AnyClass)
    -> ResolutionCache.Express
  {
    let key = (ObjectIdentifier(property), ObjectIdentifier(containerClass))
    if let cached = cache.express(property: key.0, container: key.1) { return cached }
    return ResolutionCache.Express(entry(for: property, in: containerClass))
  }

  /// The pin of `property` in `containerClass`, if a resolution set one.
  func pin(of property: Any.Type, in containerClass: AnyClass) -> RulePin? {
    pins[ObjectIdentifier(property)]?[ObjectIdentifier(containerClass)]
  }

  /// The registrations for `property`, property rules included, in no particular order.
  func registrations(for property: Any.Type) -> [AnyRegistration] {
    rules[ObjectIdentifier(property)].map { Array($0.values) } ?? []
  }

  /// The property types with a registration (a property rule included), in no particular order.
  var propertyTypes: [Any.Type] { rules.values.compactMap { $0.values.first?.propertyType } }

  /// Every registration, property rules included, in no particular order.
  var allRegistrations: [AnyRegistration] { rules.values.flatMap(\.values) }
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

  /// Whether the pin is `other`: the same registration, or both `init()` (no registration).
  func isSame(as other: RulePin) -> Bool { source === other.source }

  /// The registration's description; nil for `init()`.
  private var source: RuleSource? { if case .registration(let found) = self { found } else { nil } }

  func rule(of property: Any.Type) -> InitializerRegistry.Rule {
    source?.rule ?? .defaultInitializer(of: property)
  }
}
