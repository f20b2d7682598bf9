import _LazyInjectShims

/// The entry of each (property type, container class) pair seen (see `RuleTable.Entry`), so that
/// a resolution costs the same however deep the class or large the registry.
///
/// Open addressing with a multiplicative hash of the two type addresses: a lookup is a few
/// instructions, where `Dictionary`'s seeded hashing cost more than the rest of the lookup. Keys
/// and the express part of each entry are trivial, in arrays of their own: a probe retains
/// nothing.
internal struct ResolutionCache {
  private var keys: [(property: ObjectIdentifier, container: ObjectIdentifier)?] = []
  private var entries: [RuleTable.Entry?] = []
  private var expressParts: [Express?] = []
  private var count = 0

  /// What the express plan needs of a pair's entry: its type rule, unretained (the table keeps
  /// it, and empties the cache before it lets a registration go), if that rule serves every
  /// property of the pair (no rule for one property applies) and is the pair's pin.
  struct Express {
    let registration: Unmanaged<AnyRegistration>?
    let isObserved: Bool

    init(_ entry: RuleTable.Entry) {
      let serves = entry.isPinned && entry.propertyRules.isEmpty
      registration = entry.typeRule.flatMap { serves ? .passUnretained($0) : nil }
      isObserved = entry.isObserved
    }
  }

  /// The cached entry; nil when the pair was not seen since the last change.
  func entry(property: ObjectIdentifier, container: ObjectIdentifier) -> RuleTable.Entry? {
    index(property, container).flatMap { entries[$0] }
  }

  /// The express part of the cached entry; nil when the pair was not seen since the last change.
  func express(property: ObjectIdentifier, container: ObjectIdentifier) -> Express? {
    index(property, container).flatMap { expressParts[$0] }
  }

  private func index(_ property: ObjectIdentifier, _ container: ObjectIdentifier) -> Int? {
    guard !keys.isEmpty else { return nil }
    var index = Self.index(property, container, keys.count)
    while let key = keys[index] {
      if key.property == property && key.container == container { return index }
      index = (index + 1) & (keys.count - 1)
    }
    return nil
  }

  mutating func insert(
    _ entry: RuleTable.Entry, property: ObjectIdentifier, container: ObjectIdentifier
  ) {
    if (count + 1) * 2 > keys.count {
      let old = zip(keys, entries).compactMap { key, entry in key.map { ($0, entry!) } }
      let size = max(16, keys.count * 2)
      (keys, entries, expressParts, count) = (
        .init(repeating: nil, count: size), .init(repeating: nil, count: size),
        .init(repeating: nil, count: size), 0
      )
      for (key, entry) in old { insert(entry, property: key.property, container: key.container) }
    }
    var index = Self.index(property, container, keys.count)
    while keys[index] != nil { index = (index + 1) & (keys.count - 1) }
    (keys[index], entries[index], expressParts[index]) = (
      (property, container), entry, Express(entry)
    )
    count += 1
  }

  mutating func removeAll() { (keys, entries, expressParts, count) = ([], [], [], 0) }

  private static func index(
    _ property: ObjectIdentifier, _ container: ObjectIdentifier, _ size: Int
  ) -> Int {
    let hash = _lazyinject_pair_hash(address(of: property), address(of: container))
    return Int(truncatingIfNeeded: hash) & (size - 1)
  }

  private static func address(of identifier: ObjectIdentifier) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: identifier))).unsafelyUnwrapped
  }
}
