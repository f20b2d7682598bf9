/// The registrations of one layer (the registry, or an override layer), with the ancestry walk
/// and its cache. A value type: its owner guards it with a lock.
internal struct RuleTable {
  /// Registrations by property type, then by container class (nil: the root default).
  private(set) var registrations: [ObjectIdentifier: [ObjectIdentifier?: AnyRegistration]] = [:]

  /// The most specific registration, or nil for none, by (property type, container class).
  /// Emptied on every change, so no resolution sees a stale rule.
  private var cache = ResolutionCache()

  var isEmpty: Bool { registrations.isEmpty }

  /// Adds `registration`; returns the one it replaces for the same property and container.
  mutating func insert(_ registration: AnyRegistration, property: Any.Type, container: AnyClass?)
    -> AnyRegistration?
  {
    invalidate()
    let containerKey = container.map { ObjectIdentifier($0) }
    return registrations[ObjectIdentifier(property), default: [:]].updateValue(
      registration, forKey: containerKey)
  }

  /// Removes the registration for `property` and `container` (nil: the root default).
  mutating func remove(property: Any.Type, container: AnyClass?) {
    invalidate()
    let propertyKey = ObjectIdentifier(property)
    registrations[propertyKey]?.removeValue(forKey: container.map { ObjectIdentifier($0) })
    if registrations[propertyKey]?.isEmpty == true {
      registrations.removeValue(forKey: propertyKey)
    }
  }

  mutating func removeAll() {
    invalidate()
    registrations.removeAll()
  }

  private mutating func invalidate() {
    if !cache.isEmpty { cache.removeAll() }
  }

  /// The most specific registration for `property` in a container of class `containerClass`:
  /// the class itself, then each superclass, then the root default.
  mutating func rule(for property: Any.Type, in containerClass: AnyClass) -> AnyRegistration? {
    let propertyKey = ObjectIdentifier(property)
    let containerKey = ObjectIdentifier(containerClass)
    if let cached = cache.lookUp(property: propertyKey, container: containerKey) {
      return cached
    }
    let found = search(property, in: containerClass).found
    cache.insert(found, property: propertyKey, container: containerKey)
    return found
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

  /// The registrations for `property`, most recent layer order aside, sorted by container name.
  func registrations(for property: Any.Type) -> [AnyRegistration] {
    (registrations[ObjectIdentifier(property)] ?? [:]).values.sorted {
      ($0.rule.containerTypeName ?? "") < ($1.rule.containerTypeName ?? "")
    }
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
