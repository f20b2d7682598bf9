import _LazyInjectShims

// The boxes a `@Lazy` slot keeps a value in when the value alone does not say all a slot must
// know: its rule, the override layers used to build it, that a reset of its scope must reach
// it. The slot's format and its one decoder are the wrapper's (PropertyWrapper/Slot.swift).

/// A box that records the layers used to build its value: what a read notes (`noteRead`).
internal protocol _UsesRecord: AnyObject { var uses: LayersUsed { get } }

/// A `_LazyBox`, whatever its value's type.
internal protocol _ValueRecord: AnyObject { var anyValue: Any { get } }

/// A resolved value that is no object, its rule (nil when it was assigned), and the layers used
/// to build it.
@usableFromInline internal final class _LazyBox<Value>: _UsesRecord, _ValueRecord {
  @usableFromInline internal let value: Value
  internal let origin: ValueOrigin?
  internal let uses: LayersUsed

  internal init(_ value: Value, origin: ValueOrigin?, uses: LayersUsed) {
    self.value = value
    self.origin = origin
    self.uses = uses
  }

  internal var anyValue: Any { value }

  /// The value of the box whose address is `word`, read without retaining the box, which the slot
  /// keeps alive.
  ///
  /// Call with the slot lock held.
  @inlinable internal static func value(at word: UInt) -> Value {
    RawMemory.withObject(atWord: word, as: _LazyBox<Value>.self) { box in box.value }
  }
}

/// An object a `@Lazy` slot keeps, with its rule and the layers used: a class value that is not
/// its pair's first rule's (assigned, or built by another rule or with override layers); the
/// handle that every slot holding a kept (or handed-out) shared instance shares, which a reset
/// of its scope empties; or, empty, the layers an unresolved property was made under.
///
/// Not generic, so that one class tells a box from a value whatever the property's type.
@usableFromInline internal final class _LazyObjectBox: _UsesRecord {
  /// The object, +1: the value, or for a property of another type than a class, the `_LazyBox`
  /// holding it; 0 for an object's layers (`creation`), or once a reset emptied the handle.
  ///
  /// Read with a slot lock held; changed only with every slot lock held (`empty`): the locks
  /// make Swift's dynamic exclusivity checks redundant (they were a third of a first read).
  @exclusivity(unchecked) @usableFromInline internal var word: UInt
  internal let origin: ValueOrigin?
  internal let uses: LayersUsed
  /// The override layers in force when the object was made, for its first read; nil for a value.
  internal let creation: CreationLayers?

  /// A box of `object`, or for a value of a non-class `Value`, of a `_LazyBox` holding it.
  internal convenience init<Value>(_ value: Value, origin: ValueOrigin?, uses: LayersUsed) {
    let object: AnyObject
    if isSingleReference(Value.self) {
      object = RawMemory.object(of: value)
    } else {
      object = _LazyBox(value, origin: origin, uses: uses)
    }
    self.init(word: RawMemory.retainedWord(of: object), origin: origin, uses: uses, creation: nil)
  }

  /// What a property starts with where override layers may be in force: the calling task's
  /// layers (see `CreationLayers.current`), or nil.
  internal static func creation() -> AnyObject? {
    guard let creation = CreationLayers.current else { return nil }
    return _LazyObjectBox(word: 0, origin: nil, uses: LayersUsed(), creation: creation)
  }

  /// An emptied handle of a value of the rule `origin`: its slot is unresolved.
  internal static func emptied(origin: RuleSource) -> _LazyObjectBox {
    _LazyObjectBox(word: 0, origin: .registration(origin), uses: LayersUsed(), creation: nil)
  }

  private init(word: UInt, origin: ValueOrigin?, uses: LayersUsed, creation: CreationLayers?) {
    // The class is known to the shims before the first box can reach a slot: until then, the hot
    // read takes no word for a box (see `SlotWord.content`).
    if _lazyinject_object_box_class() == 0 {
      _lazyinject_set_object_box_class(UInt(bitPattern: metadataAddress(of: _LazyObjectBox.self)))
    }
    self.word = word
    self.origin = origin
    self.uses = uses
    self.creation = creation
  }

  deinit {
    RawMemory.release(word)
  }

  /// The value the handle holds, if any: its object, or the value of the `_LazyBox` it holds.
  ///
  /// Read under the state lock of the registry that keeps the handle, which alone empties it.
  internal var value: Any? {
    guard word != 0 else { return nil }
    let held = RawMemory.object(atWord: word)
    guard let box = held as? any _ValueRecord else { return held }
    return box.anyValue
  }

  /// The class of the object at `word`, as a word (`type(of:)`: the compiler's own load of the
  /// class, authenticated where pointers are signed).
  @inlinable internal static func classWord(of word: UInt) -> UInt {
    RawMemory.withObject(atWord: word, as: AnyObject.self) { object in
      UInt(bitPattern: metadataAddress(of: type(of: object)))
    }
  }

  /// The `word` of the box at `word`, read without retaining the box.
  @inlinable internal static func inner(at word: UInt) -> UInt {
    RawMemory.withObject(atWord: word, as: _LazyObjectBox.self) { box in box.word }
  }

  /// The box at `word`, not retained: call with the slot lock held.
  internal static func box(at word: UInt) -> _LazyObjectBox {
    unsafeDowncast(RawMemory.object(atWord: word), to: _LazyObjectBox.self)
  }

  /// Empties `handles` for a reset of their scope, and returns the values they held (their +1),
  /// for the caller to release with `release(_:)` once it holds no lock.
  ///
  /// Every slot lock is taken at once, so that a read either saw a value and retained it, or
  /// sees the handle empty. Called under the lock of the registry that kept the handles, so
  /// that a reset that begins later finds them empty.
  internal static func empty(_ handles: [_LazyObjectBox]) -> [UInt] {
    guard !handles.isEmpty else { return [] }
    var words = [UInt]()
    words.reserveCapacity(handles.count)  // No allocation under the slot locks.
    _lazyinject_lock_every_stripe()
    for handle in handles {
      words.append(handle.word)
      handle.word = 0
    }
    _lazyinject_unlock_every_stripe()
    return words
  }

  /// Releases the values `empty(_:)` took out of handles: their deinits run here.
  internal static func release(_ words: [UInt]) {
    SlotLock.assertNoLockHeld()
    for word in words {
      RawMemory.release(word)
    }
  }
}
