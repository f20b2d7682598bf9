import _LazyInjectShims

/// Raw memory, in one audited place: objects as addresses and words, and the references a word
/// stands for.
///
/// Everything else in LazyInject works with typed values, or with what this gives.
///
/// The model is swift-collections' `Deque._UnsafeHandle`: small, each operation documented with
/// what must hold, and debug builds checking what they can.
///
/// The words it reads and writes are those of `@Lazy` and `@WeakLazy` slots (see `Slot.swift`),
/// of the boxes a slot keeps (`ValueBoxes.swift`), of the fast path's table, and the word an
/// object is built into on the general path (`Registration.make`): an object's address as an
/// integer, 0 for none. A word is either retained (its holder owns a +1, which it gives up by
/// `release` or `takeRetained`) or unretained (someone else keeps the object alive). Reading the
/// Swift runtime's metadata is the other audited place (`Reflection.swift`).
@usableFromInline internal enum RawMemory {
  /// The address of `object`, unretained: what slot locks, frames and waits are keyed by.
  ///
  /// The caller keeps `object` alive while the address is used.
  @inlinable @inline(__always)
  static func address(of object: AnyObject) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
  }

  /// `object`'s address as a mutable pointer, unretained: what the fast path's table names.
  static func unretained(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
  }

  /// The object a nonzero `word` names, unretained: someone else keeps it alive.
  static func object(atWord word: UInt) -> AnyObject {
    Unmanaged<AnyObject>.fromOpaque(pointer(word)).takeUnretainedValue()
  }

  /// Runs `body` with the object of class `Object` that a nonzero `word` names, neither retained
  /// nor released: a slot lock or the caller's own reference keeps it alive while `body` runs.
  @inlinable @inline(__always)
  static func withObject<Object: AnyObject, Result>(
    atWord word: UInt, as type: Object.Type, _ body: (Object) -> Result
  ) -> Result {
    Unmanaged<Object>.fromOpaque(pointer(word))._withUnsafeGuaranteedRef(body)
  }

  /// The word of `object` with a +1 of its own, which the word's holder owns from then on.
  @inlinable @inline(__always)
  static func retainedWord(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
  }

  /// The object of a nonzero retained `word`, taking over its +1.
  @inlinable @inline(__always)
  static func takeRetained(_ word: UInt) -> AnyObject {
    Unmanaged<AnyObject>.fromOpaque(pointer(word)).takeRetainedValue()
  }

  /// Retains the object a nonzero `word` names, where no optimizer moves the retain: the word
  /// is then retained once more, for a holder that takes it over; a reader retains what a slot
  /// names before it unlocks the slot (see `_lazyinject_retain`).
  @inlinable @inline(__always)
  static func retain(_ word: UInt) {
    _lazyinject_retain(pointer(word))
  }

  /// Gives up the +1 of a retained `word` (nothing for 0).
  ///
  /// The object's deinit may run here: callers that may hold the last reference call it with no
  /// lock of LazyInject held.
  @usableFromInline static func release(_ word: UInt) {
    guard let object = UnsafeRawPointer(bitPattern: word) else { return }
    Unmanaged<AnyObject>.fromOpaque(object).release()
  }

  /// The word at `address`, a slot's: read as an integer, no retain.
  ///
  /// Call with its slot lock held.
  @inlinable @inline(__always)
  static func word(at address: UnsafeRawPointer) -> UInt {
    address.load(as: UInt.self)
  }

  /// Stores `word` at `address`, a slot's, as an integer: no retain, no release.
  ///
  /// Call with its slot lock held.
  @inlinable @inline(__always)
  static func store(_ word: UInt, at address: UnsafeMutableRawPointer) {
    address.storeBytes(of: word, as: UInt.self)
  }

  /// The word of `object`, unretained (someone else keeps it alive), or 0 for nil: what a
  /// slot's stored `AnyObject?` is.
  @inlinable @inline(__always)
  static func word(of object: AnyObject?) -> UInt {
    unsafeBitCast(object, to: UInt.self)
  }

  /// `object` as a value of `Value`, a class type with no witness table (`isSingleReference`):
  /// the same word, no retain or release of its own.
  @inlinable @inline(__always)
  static func value<Value>(_ object: AnyObject, as _: Value.Type) -> Value {
    assert(isSingleReference(Value.self), "a value that is no single reference")
    return unsafeBitCast(object, to: Value.self)
  }

  /// The value of `Value`, a class type with no witness table (`isSingleReference`), that a
  /// nonzero retained `word` names, taking over its +1.
  static func value<Value>(takingRetained word: UInt, as _: Value.Type) -> Value {
    value(takeRetained(word), as: Value.self)
  }

  /// `value`, of a class type with no witness table (`isSingleReference`), as an object.
  @inlinable @inline(__always)
  static func object<Value>(of value: Value) -> AnyObject {
    assert(isSingleReference(Value.self), "a value that is no single reference")
    return unsafeBitCast(value, to: AnyObject.self)
  }

  /// The value a slot at `slot` holds, a single reference stored itself (`SlotWord.object`), read
  /// as a field of its type.
  ///
  /// A read whose result goes unused then costs no retain (a third of a hot read, measured). Call
  /// with the slot lock held.
  @inlinable @inline(__always)
  static func load<Value>(_: Value.Type, fromSlot slot: UnsafeMutablePointer<AnyObject?>) -> Value {
    UnsafeMutableRawPointer(slot).load(as: Value.self)
  }

  /// The value of `Value`, a single reference, that `word` (nonzero) names, unretained: read as a
  /// field of its type, so that a read whose result goes unused costs no retain.
  @inlinable @inline(__always)
  static func value<Value>(atWord word: UInt, as _: Value.Type) -> Value {
    assert(isSingleReference(Value.self), "a value that is no single reference")
    return withUnsafeBytes(of: word) { $0.load(as: Value.self) }
  }

  /// The pointer of a nonzero word.
  @inlinable @inline(__always)
  static func pointer(_ word: UInt) -> UnsafeRawPointer {
    assert(word != 0, "a word that names no object")
    return UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped
  }

  /// The word that `pointer` is, or 0 for none.
  @inlinable @inline(__always)
  static func word(_ pointer: UnsafeRawPointer?) -> UInt {
    UInt(bitPattern: pointer)
  }
}
