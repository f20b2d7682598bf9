import _LazyInjectShims

/// The result of the ancestry walk for each (property type, container class) seen, so that a
/// resolution costs the same however deep the class or large the registry.
///
/// Open addressing with a multiplicative hash of the two type addresses: a lookup is a few
/// instructions, where `Dictionary`'s seeded hashing cost more than the rest of the lookup.
internal struct ResolutionCache {
  /// The match, with its registration unretained: the table keeps it, and empties the cache
  /// before it lets a registration go (a retain and release per lookup, saved).
  private struct Entry {
    let property: ObjectIdentifier
    let container: ObjectIdentifier
    let registration: Unmanaged<AnyRegistration>?
    let isObserved: Bool
    let isPinned: Bool
    let hasPropertyRules: Bool
    let defaultInitializable: (any DefaultInitializable.Type)?

    init(property: ObjectIdentifier, container: ObjectIdentifier, match: RuleTable.Match) {
      self.property = property
      self.container = container
      registration = match.registration.map { Unmanaged.passUnretained($0) }
      isObserved = match.isObserved
      isPinned = match.isPinned
      hasPropertyRules = match.hasPropertyRules
      defaultInitializable = match.defaultInitializable
    }

    var match: RuleTable.Match {
      RuleTable.Match(
        registration: registration?.takeUnretainedValue(), isObserved: isObserved,
        defaultInitializable: defaultInitializable, isPinned: isPinned,
        hasPropertyRules: hasPropertyRules)
    }
  }

  private var entries: [Entry?] = []
  private var count = 0

  /// The cached walk result, and whether the container class observes injections; nil when the
  /// pair was not seen since the last change.
  func lookUp(property: ObjectIdentifier, container: ObjectIdentifier) -> RuleTable.Match? {
    entry(property: property, container: container)?.match
  }

  /// The cached registration and flags, without retaining the registration; `isExpress`: the
  /// registration is the pair's pin and no property rule applies to the pair.
  ///
  /// Nil when the pair was not seen since the last change. For the express path, which retains
  /// only what it uses.
  func probe(property: ObjectIdentifier, container: ObjectIdentifier)
    -> (registration: Unmanaged<AnyRegistration>?, isObserved: Bool, isExpress: Bool)?
  {
    entry(property: property, container: container).map {
      ($0.registration, $0.isObserved, $0.isPinned && !$0.hasPropertyRules)
    }
  }

  private func entry(property: ObjectIdentifier, container: ObjectIdentifier) -> Entry? {
    guard !entries.isEmpty else { return nil }
    var index = Self.slot(property, container, entries.count)
    while let entry = entries[index] {
      if entry.property == property && entry.container == container {
        return entry
      }
      index = (index + 1) & (entries.count - 1)
    }
    return nil
  }

  mutating func insert(
    _ match: RuleTable.Match, property: ObjectIdentifier, container: ObjectIdentifier
  ) {
    if (count + 1) * 2 > entries.count {
      grow()
    }
    var index = Self.slot(property, container, entries.count)
    while entries[index] != nil {
      index = (index + 1) & (entries.count - 1)
    }
    entries[index] = Entry(property: property, container: container, match: match)
    count += 1
  }

  mutating func removeAll() {
    entries = []
    count = 0
  }

  private mutating func grow() {
    let old = entries
    entries = Array(repeating: nil, count: max(16, old.count * 2))
    count = 0
    for case let entry? in old {
      insert(entry.match, property: entry.property, container: entry.container)
    }
  }

  private static func slot(_ property: ObjectIdentifier, _ container: ObjectIdentifier, _ size: Int)
    -> Int
  {
    let hash = _lazyinject_pair_hash(address(of: property), address(of: container))
    return Int(truncatingIfNeeded: hash) & (size - 1)
  }

  private static func address(of identifier: ObjectIdentifier) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: identifier))).unsafelyUnwrapped
  }
}
