import _LazyInjectShims

// The slot of `@Lazy` is one word: 0 (unresolved), the in-flight marker (a thread is building
// the value), or the value. It is read and written only with the object's slot lock held, a lock
// from a small striped table keyed by the object's address. The lock is never held while user
// code runs: values are built, and replaced values released, after it is unlocked.
//
// The value is stored one of three ways (the boxes are in Registry/ValueBoxes.swift):
//
// - A class-typed value that its pair's first rule built with no layer (see `RuleTable`) is
//   stored itself: a first read allocates nothing but the value, as a hand-written `lazy var`.
//   `$property.rule` finds its rule with the pair.
// - A shared instance (a `.singleton`, `.weak` or custom-scope rule's) is stored as the handle
//   that every slot holding it shares (`_LazyObjectBox`), which a reset of its scope empties;
//   any other class-typed value (assigned, built by another rule or with override layers) is
//   stored in a box of its own of the same class, which records its rule and the layers used.
// - A value of any other type (a struct, an existential) is stored in a `_LazyBox<Value>`, or
//   for a shared instance, in the handle, which holds such a box.
//
// An object box that holds nothing is unresolved: an emptied handle, or the override layers in
// force when the object was made (`CreationLayers`), which its first read resolves with.
//
// What the slot holds is retained once, by the slot, and ARC releases it with the object. The
// marker is immortal and stored unretained; it never outlives the resolution that stored it,
// which holds the object alive. `SlotWord.content(of:marker:storesObject:)` is the one decoder of
// the word: the hot read (inlined), the first read, the projection and `validate` read it.
//
// A `@WeakLazy` slot holds a `_WeakLazyReference` (at the end of this file), or the marker.

/// The address of a `@Lazy` or `@WeakLazy` property's slot, read and written as a raw word: no
/// retain, no release, no access of memory through a type it is not bound to.
///
/// Read and write it only with the object's slot lock held.
@usableFromInline internal struct _LazySlot {
  @usableFromInline internal let address: UnsafeMutableRawPointer

  @inlinable internal init(_ slot: UnsafeMutablePointer<AnyObject?>) {
    // An optional class reference is one word, nil being 0: Swift's ABI, checked in debug builds.
    assert(MemoryLayout<AnyObject?>.size == MemoryLayout<UInt>.size)
    address = UnsafeMutableRawPointer(slot)
  }

  /// The word the slot holds.
  @inlinable internal var word: UInt {
    get { RawMemory.word(at: address) }
    nonmutating set { RawMemory.store(newValue, at: address) }
  }
}

/// What a slot word holds: the one decoder, used by the hot read (inlined) and by everything
/// else that reads a slot.
@usableFromInline internal enum SlotWord {
  case empty
  /// A thread is building the value.
  case inFlight
  /// An object box that holds nothing: unresolved, made under override layers, or a handle that
  /// a reset emptied.
  case emptyBox
  /// A value that is an object, stored itself.
  case object
  /// A value in a `_LazyBox<Value>`.
  case boxed
  /// A value in an object box: the object itself, or for another type, a `_LazyBox` holding it.
  case inObjectBox

  /// What `word` holds, for a property whose values are objects stored unboxed if
  /// `storesObject`; `marker` is the marker's address as the shims hold it (0 before the first
  /// resolution, when no slot can hold a marker).
  ///
  /// An object box is told from a value by its class, read with `type(of:)` and compared with
  /// the class of `_LazyObjectBox`, set in the shims when the first one is made: until then (a process
  /// that never assigns a class value, never makes an override layer, never resolves a shared
  /// instance through a slot), no word is a box and the hot read of an object makes no call. On
  /// Darwin `type(of:)` is a call (`swift_getObjectType`, which reads an Objective-C object's
  /// class without running any of its code), so it cannot reenter a stripe.
  @inlinable @inline(__always)
  internal static func content(of word: UInt, marker: UInt, storesObject: Bool) -> SlotWord {
    if word == 0 { return .empty }
    if word == marker { return .inFlight }
    let boxClass = _lazyinject_object_box_class()
    guard boxClass != 0, _LazyObjectBox.classWord(of: word) == boxClass else {
      return storesObject ? .object : .boxed  // A value that is no object is in a `_LazyBox`.
    }
    return _LazyObjectBox.inner(at: word) == 0 ? .emptyBox : .inObjectBox
  }

  /// Whether the word holds a value.
  @inlinable internal var isValue: Bool {
    self == .object || self == .boxed || self == .inObjectBox
  }
}

/// What a `@WeakLazy` slot holds once resolved or assigned: the instance, weakly; for a shared
/// instance, its handle, weakly, which tells when a reset of its scope released it; and the
/// override layers in force when the property was made, for its resolutions.
///
/// Read and written only with its object's slot lock held, or before it is in a slot.
internal final class _WeakLazyReference {
  weak var object: AnyObject?
  weak var handle: _LazyObjectBox?
  /// Whether the instance is a shared one, held through `handle`.
  var isShared = false
  /// The layers used to build the instance.
  var uses = LayersUsed()
  let creation: CreationLayers?

  init(creation: CreationLayers?, object: AnyObject? = nil) {
    self.creation = creation
    self.object = object
  }

  /// Runs `body` with the reference at the slot word `word` (not the marker), unretained: the
  /// slot keeps it alive; nil for 0.
  private static func withReference<Result>(
    at word: UInt, _ body: (_WeakLazyReference) -> Result
  ) -> Result? {
    guard word != 0 else { return nil }
    return RawMemory.withObject(atWord: word, as: _WeakLazyReference.self, body)
  }

  /// The instance the reference at the slot word `word` (not the marker) holds, as `Value` (the
  /// object itself for a class type, the existential for a protocol), if any: nil once released,
  /// or once a reset of its scope emptied its handle.
  static func value<Value>(at word: UInt, as _: Value.Type) -> Value? {
    let held = withReference(at: word) { reference -> AnyObject? in
      // A shared instance is held through its handle, until a reset empties it.
      if reference.isShared {
        guard let handle = reference.handle, handle.word != 0 else { return nil }
      }
      return reference.object
    }
    guard let object = held ?? nil else { return nil }
    // The object itself for a class; else (`AnyObject`, an existential) the cast cannot fail: it
    // was stored as a `Value`.
    guard isSingleReference(Value.self) else {
      return .some(object as! Value)
    }
    return RawMemory.value(object, as: Value.self)
  }

  /// Makes the reference at the slot word `word` (neither 0 nor the marker) hold `object`, which
  /// was assigned.
  static func set(_ object: AnyObject?, at word: UInt) {
    _ = withReference(at: word) { reference in
      reference.object = object
      reference.handle = nil
      reference.isShared = false
      reference.uses = LayersUsed()
    }
  }

  /// Notes that a read returned the instance of the reference at the slot word `word` (see
  /// `_FirstRead.noteRead(at:)`); call with the slot lock held.
  static func noteRead(at word: UInt) {
    _ = withReference(at: word) { reference in ResolutionFrame.noteRead(reference.uses) }
  }

  /// The layers the reference at the slot word `word` keeps, if any; call with the slot lock
  /// held.
  static func creation(at word: UInt) -> CreationLayers? {
    guard word != _LazyMarker.address else { return nil }
    return withReference(at: word) { reference in reference.creation } ?? nil
  }

  /// The reference at the slot word `word` (not the marker), taking over the slot's +1; nil for 0.
  static func take(_ word: UInt) -> _WeakLazyReference? {
    guard word != 0 else { return nil }
    return unsafeDowncast(RawMemory.takeRetained(word), to: _WeakLazyReference.self)
  }
}

extension InitializerRegistry {
  /// Whether the property `field` of `container` holds a value, and the registries its first
  /// read would search from this registry: what validating an object asks.
  ///
  /// A `@WeakLazy` property's value may go away at any time: it never counts as resolved. The
  /// registries are the layers the object was made under, then the caller's that they lack.
  package func state(of field: LazyField, in container: AnyObject)
    -> (isResolved: Bool, searched: [InitializerRegistry])
  {
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    let word = RawMemory.word(at: object + field.offset)
    // An object box is told by its class, whatever the value's type.
    let content = SlotWord.content(
      of: word, marker: _lazyinject_in_flight_marker(), storesObject: true)
    let creation =
      field.isWeak
      ? _WeakLazyReference.creation(at: word)
      : content == .emptyBox ? _LazyObjectBox.box(at: word).creation : nil
    SlotLock.unlock(object)
    let searched = _FirstRead.withLayers(of: creation) { searchedRegistries }
    return (!field.isWeak && content.isValue, searched)
  }
}
