import _LazyInjectShims

/// The entry of each (property type, container class) pair seen (see `RuleTable.Entry`), so that
/// a resolution costs the same however deep the class or large the registry.
///
/// Open addressing with a multiplicative hash of the two type addresses: a lookup is a few
/// instructions, where `Dictionary`'s seeded hashing cost more than the rest of the lookup.
internal struct ResolutionCache {
  private struct Slot {
    let property: ObjectIdentifier
    let container: ObjectIdentifier
    let entry: RuleTable.Entry
  }

  private var slots: [Slot?] = []
  private var count = 0

  /// The cached entry; nil when the pair was not seen since the last change.
  func entry(property: ObjectIdentifier, container: ObjectIdentifier) -> RuleTable.Entry? {
    guard !slots.isEmpty else { return nil }
    var index = Self.index(property, container, slots.count)
    while let slot = slots[index] {
      if slot.property == property && slot.container == container { return slot.entry }
      index = (index + 1) & (slots.count - 1)
    }
    return nil
  }

  mutating func insert(
    _ entry: RuleTable.Entry, property: ObjectIdentifier, container: ObjectIdentifier
  ) {
    if (count + 1) * 2 > slots.count {
      let old = slots
      slots = Array(repeating: nil, count: max(16, old.count * 2))
      count = 0
      for case let slot? in old {
        insert(slot.entry, property: slot.property, container: slot.container)
      }
    }
    var index = Self.index(property, container, slots.count)
    while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
    slots[index] = Slot(property: property, container: container, entry: entry)
    count += 1
  }

  mutating func removeAll() {
    slots = []
    count = 0
  }

  private static func index(
    _ property: ObjectIdentifier, _ container: ObjectIdentifier, _ size: Int
  )
    -> Int
  {
    let hash = _lazyinject_pair_hash(address(of: property), address(of: container))
    return Int(truncatingIfNeeded: hash) & (size - 1)
  }

  private static func address(of identifier: ObjectIdentifier) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: identifier))).unsafelyUnwrapped
  }
}
