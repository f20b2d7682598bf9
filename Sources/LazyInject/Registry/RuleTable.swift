/// The registrations of one layer (the registry, or an override layer), with the ancestry walk and
/// its cache.
///
/// A value type: its owner guards it with a lock.
internal struct RuleTable {
  /// Registrations by property type, then by container class (nil: the root default).
  private(set) var registrations: [ObjectIdentifier: [ObjectIdentifier?: AnyRegistration]] = [:]

  /// Property rules by property type, then by key path (whose equality includes its root).
  private var propertyRules: [ObjectIdentifier: [AnyKeyPath: AnyRegistration]] = [:]

  /// The most specific registration, or nil for none, by (property type, container class).
  ///
  /// Emptied on every change, so no resolution sees a stale rule.
  private var cache = ResolutionCache()

  /// The pins by (property type, container class): never emptied.
  private var pins: [PairKey: RulePin] = [:]

  private struct PairKey: Hashable {
    let property: ObjectIdentifier
    let container: ObjectIdentifier
  }

  /// Adds `registration`; returns the one it replaces for the same property and container.
  mutating func insert(_ registration: AnyRegistration, property: Any.Type, container: AnyClass?)
    -> AnyRegistration?
  {
    invalidate()
    let containerKey = container.map { ObjectIdentifier($0) }
    return registrations[ObjectIdentifier(property), default: [:]].updateValue(
      registration, forKey: containerKey)
  }

  // Removing returns what was removed, for the caller to release once it has unlocked: a
  // singleton's deinit may resolve from the registry.

  /// Removes the registration for `property` and `container` (nil: the root default).
  mutating func remove(property: Any.Type, container: AnyClass?) -> AnyRegistration? {
    invalidate()
    let propertyKey = ObjectIdentifier(property)
    let removed = registrations[propertyKey]?.removeValue(
      forKey: container.map { ObjectIdentifier($0) })
    if registrations[propertyKey]?.isEmpty == true {
      registrations.removeValue(forKey: propertyKey)
    }
    return removed
  }

  /// Adds the property rule `registration`; returns the one it replaces for the same key path.
  mutating func insert(_ registration: AnyRegistration, property: Any.Type, keyPath: AnyKeyPath)
    -> AnyRegistration?
  {
    invalidate()
    return propertyRules[ObjectIdentifier(property), default: [:]].updateValue(
      registration, forKey: keyPath)
  }

  /// Removes the property rule for `keyPath`.
  mutating func remove(property: Any.Type, keyPath: AnyKeyPath) -> AnyRegistration? {
    invalidate()
    let propertyKey = ObjectIdentifier(property)
    let removed = propertyRules[propertyKey]?.removeValue(forKey: keyPath)
    if propertyRules[propertyKey]?.isEmpty == true {
      propertyRules.removeValue(forKey: propertyKey)
    }
    return removed
  }

  mutating func removeAll() -> [AnyRegistration] {
    invalidate()
    defer {
      registrations.removeAll()
      propertyRules.removeAll()
    }
    return allRegistrations
  }

  /// Empties the cache. (The registry empties the express table, made from it, in
  /// `withStateChange`.)
  private mutating func invalidate() {
    cache.removeAll()
  }

  /// What a resolution needs to know about a (property type, container class) pair.
  struct Match {
    /// The most specific registration, or nil.
    var registration: AnyRegistration?
    /// Whether the container class conforms to `InjectionObserving`.
    var isObserved: Bool
    /// The property type, if it is `DefaultInitializable`.
    var defaultInitializable: (any DefaultInitializable.Type)?
    /// Whether the rule this match yields (the registration, else `init()`) is the pair's pin.
    var isPinned: Bool
    /// Whether a property rule applies to some property of the pair: a first read must then
    /// tell which property it reads (`propertyRules(for:in:)`), and takes the general path.
    var hasPropertyRules: Bool
  }

  /// The most specific registration for `property` in a container of class `containerClass`:
  /// the class itself, then each superclass, then the root default.
  mutating func rule(for property: Any.Type, in containerClass: AnyClass) -> Match {
    let propertyKey = ObjectIdentifier(property)
    let containerKey = ObjectIdentifier(containerClass)
    if let cached = cache.lookUp(property: propertyKey, container: containerKey) {
      return cached
    }
    let found = search(property, in: containerClass).found
    let defaultInitializable = property as? any DefaultInitializable.Type
    var isPinned = false
    if let candidate = RulePin(found, isDefaultInitializable: defaultInitializable != nil) {
      let key = PairKey(property: propertyKey, container: containerKey)
      if let pin = pins[key] {
        isPinned = pin.isSame(as: candidate)
      } else {
        pins[key] = candidate
        isPinned = true
      }
    }
    let match = Match(
      registration: found, isObserved: containerClass is any InjectionObserving.Type,
      defaultInitializable: defaultInitializable, isPinned: isPinned,
      hasPropertyRules: !propertyRules(for: property, in: containerClass).isEmpty)
    cache.insert(match, property: propertyKey, container: containerKey)
    return match
  }

  /// The cached registration and flags for `property` in `containerClass`, the registration
  /// unretained (the table keeps it while its lock is held); searched and cached on a miss.
  ///
  /// `isExpress`: whether the registration is the pair's pin and no property rule applies to
  /// the pair.
  mutating func probe(for property: Any.Type, in containerClass: AnyClass)
    -> (registration: Unmanaged<AnyRegistration>?, isObserved: Bool, isExpress: Bool)
  {
    let propertyKey = ObjectIdentifier(property)
    let containerKey = ObjectIdentifier(containerClass)
    if let cached = cache.probe(property: propertyKey, container: containerKey) {
      return cached
    }
    let match = rule(for: property, in: containerClass)
    return (
      match.registration.map { .passUnretained($0) }, match.isObserved,
      match.isPinned && !match.hasPropertyRules
    )
  }

  /// The property rules for `property` whose root is `containerClass` or one of its
  /// superclasses, nearest root first; rules of one root (key paths that differ, though they
  /// may lead to one slot) by registration site, so that the order is the same in every run.
  func propertyRules(for property: Any.Type, in containerClass: AnyClass) -> [AnyRegistration] {
    guard let byKeyPath = propertyRules[ObjectIdentifier(property)] else { return [] }
    let ancestry = Self.ancestry(of: containerClass).map(ObjectIdentifier.init)
    return byKeyPath.values.compactMap { registration in
      registration.containerType.flatMap { root in
        ancestry.firstIndex(of: ObjectIdentifier(root)).map { (registration, $0) }
      }
    }
    .sorted { first, second in
      guard first.1 == second.1 else { return first.1 < second.1 }
      let (a, b) = (first.0.source, second.0.source)
      return ("\(a.fileID)", a.line) < ("\(b.fileID)", b.line)
    }
    .map(\.0)
  }

  /// The pin of `property` in `containerClass`, if a resolution set one.
  func pin(for property: Any.Type, in containerClass: AnyClass) -> RulePin? {
    pins[PairKey(property: ObjectIdentifier(property), container: ObjectIdentifier(containerClass))]
  }

  /// The ancestry walk, uncached: every class visited in order, and what matched.
  func search(_ property: Any.Type, in containerClass: AnyClass)
    -> (visited: [AnyClass], found: AnyRegistration?)
  {
    var visited: [AnyClass] = []
    guard let byContainer = registrations[ObjectIdentifier(property)] else {
      return (Self.ancestry(of: containerClass), nil)
    }
    var next: AnyClass? = containerClass
    while let current = next {
      visited.append(current)
      if let registration = byContainer[ObjectIdentifier(current)] {
        return (visited, registration)
      }
      next = _getSuperclass(current)
    }
    return (visited, byContainer[nil])
  }

  /// The registrations for `property`, in no particular order.
  ///
  /// O(their number): callers sort and describe them after unlocking.
  ///
  /// Property rules included.
  func registrations(for property: Any.Type) -> [AnyRegistration] {
    let key = ObjectIdentifier(property)
    return (registrations[key].map { Array($0.values) } ?? [])
      + (propertyRules[key].map { Array($0.values) } ?? [])
  }

  /// The property types with a registration (a property rule included), in no particular order.
  var propertyTypes: [Any.Type] {
    var types: [ObjectIdentifier: Any.Type] = [:]
    for registration in allRegistrations {
      types[ObjectIdentifier(registration.propertyType)] = registration.propertyType
    }
    return Array(types.values)
  }

  /// Every registration, property rules included, in no particular order.
  var allRegistrations: [AnyRegistration] {
    registrations.values.flatMap(\.values) + propertyRules.values.flatMap(\.values)
  }

  /// `containerClass` and its superclasses, nearest first.
  static func ancestry(of containerClass: AnyClass) -> [AnyClass] {
    var classes: [AnyClass] = []
    var next: AnyClass? = containerClass
    while let current = next {
      classes.append(current)
      next = _getSuperclass(current)
    }
    return classes
  }
}
