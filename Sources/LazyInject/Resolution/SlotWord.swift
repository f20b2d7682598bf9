import _LazyInjectShims

// The slot of `@Lazy` is one word: 0 (unresolved), the in-flight marker (a thread is building
// the value), a capture (unresolved, made while override layers were in force), or the value. It
// is read and written only with the object's slot lock held, a lock from a small striped table
// keyed by the object's address. The lock is never held while user code runs: values are built,
// and replaced values released, after it is unlocked.
//
// The value is stored one of three ways:
//
// - A class-typed value resolved by its pair's pinned rule (see `RulePin`) is stored itself: a
//   first read allocates nothing but the value, as a hand-written `lazy var`. Its rule is the
//   pin, found again when `$property.rule` asks.
// - Any other class-typed value (assigned, or built by another rule, such as a test's override,
//   or under override layers) is stored in a `_LazyObjectBox` that records its rule.
// - A value of any other type (a struct, an existential) is stored in a `_LazyBox<Value>`.
//
// A capture is a `_LazyObjectBox` whose object is the marker, and whose `capture` keeps the
// layers (`Capture`): its first read resolves with them. A box also keeps the override layers
// whose rules built its value (`LayerTaint`), which decide who may keep a shared instance built
// from it.
//
// What the slot holds is retained once, by the slot, and ARC releases it with the object. The
// marker is immortal and stored unretained; it never outlives the resolution that stored it,
// which holds the object alive. `SlotWord.content(of:marker:storesObject:)` is the one decoder
// of the word: the hot read (inlined), the first read, the projection, `validate(_:)` and the
// scan of the values an object keeps (`LayerTaint.of`) all read it through it.
//
// It lives with resolution, which records in a box what built a value; the wrappers and the
// first read, above, read and write slots through it. A `@WeakLazy` slot holds a
// `_WeakLazyReference` (at the end of this file), or the marker.

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
    get { address.load(as: UInt.self) }
    nonmutating set { address.storeBytes(of: newValue, as: UInt.self) }
  }
}

/// What a slot word holds: the one decoder, used by the hot read (inlined) and by everything
/// else that reads a slot.
@usableFromInline internal enum SlotWord {
  case empty
  /// A thread is building the value.
  case inFlight
  /// Unresolved, with the override layers to resolve with.
  case capture
  /// A value that is an object, stored itself.
  case object
  /// A value in a box: `_LazyObjectBox` for objects, `_LazyBox<Value>` for other values.
  case boxed

  /// What `word` holds, for a property whose values are objects stored unboxed if
  /// `storesObject`; `marker` is the published marker's address (0 before the first
  /// resolution, when no slot can hold a marker or a capture).
  ///
  /// A box is told from a value by its class, read with `type(of:)` and compared with the class
  /// of `_LazyObjectBox`, published when the first one is made: until then (a process that never
  /// assigns a class value, never replaces a rule that served one, never makes an override
  /// layer), no word is a box and the hot read of an object makes no call. On Darwin
  /// `type(of:)` is a call (`swift_getObjectType`, which reads an Objective-C object's class
  /// without running any of its code), so it cannot reenter a stripe.
  @inlinable @inline(__always)
  internal static func content(of word: UInt, marker: UInt, storesObject: Bool) -> SlotWord {
    if word == 0 { return .empty }
    if word == marker { return .inFlight }
    let boxClass = _lazyinject_object_box_class()
    guard boxClass != 0, _LazyObjectBox.classWord(of: word) == boxClass else {
      return storesObject ? .object : .boxed  // A value that is no object is in a `_LazyBox`.
    }
    // A box of a non-object value is generic: an object box there is always a capture.
    return !storesObject || _LazyObjectBox.objectWord(at: word) == marker ? .capture : .boxed
  }

  /// Whether the word holds a value.
  @inlinable internal var isValue: Bool { self == .object || self == .boxed }
}

/// A resolved value that is no object, its rule (nil when it was assigned), and the layers whose
/// rules built it.
@usableFromInline internal final class _LazyBox<Value>: _TaintedBox {
  @usableFromInline internal let value: Value
  internal let origin: ValueOrigin?
  internal let taint: LayerTaint

  @usableFromInline internal init(_ value: Value, outcome: InitializerRegistry.Outcome) {
    (self.value, self.origin, self.taint) = (value, outcome.origin, outcome.taint)
  }

  /// The value of the box whose address is `word`, read without retaining the box, which the slot
  /// keeps alive.
  ///
  /// Call with the slot lock held.
  @inlinable internal static func value(at word: UInt) -> Value {
    Unmanaged<_LazyBox<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.value }
  }
}

/// A class-typed value that is not its pair's pinned rule's, its rule (nil when it was assigned)
/// and the layers whose rules built it; or a capture, whose object is the marker and whose
/// `capture` keeps the layers its first read resolves with.
///
/// Not generic, so that one class tells a box from a value whatever the property's type.
@usableFromInline internal final class _LazyObjectBox: _TaintedBox {
  @usableFromInline internal let object: AnyObject
  internal let origin: ValueOrigin?
  internal let taint: LayerTaint
  internal let capture: Capture?

  /// Publishes the class to the shims before the first box can reach a slot.
  private static let isPublished: Bool = {
    _lazyinject_set_object_box_class(unsafeBitCast(_LazyObjectBox.self, to: UInt.self))
    return true
  }()

  internal init(_ object: AnyObject, origin: ValueOrigin?, taint: LayerTaint, capture: Capture?) {
    _ = Self.isPublished
    (self.object, self.origin, self.taint, self.capture) = (object, origin, taint, capture)
  }

  /// The box of `object`, which a resolution with `outcome` built or an assignment set.
  @usableFromInline internal convenience init(
    _ object: AnyObject, outcome: InitializerRegistry.Outcome
  ) { self.init(object, origin: outcome.origin, taint: outcome.taint, capture: nil) }

  /// What a property starts with where override layers may be in force: a capture of the
  /// calling task's (see `Capture.current`), or nil.
  internal static func capture() -> AnyObject? {
    guard let capture = Capture.current else { return nil }
    _ = _LazyMarker.address  // Published before a capture can be in a slot.
    return _LazyObjectBox(_LazyMarker.object, origin: nil, taint: LayerTaint(), capture: capture)
  }

  /// The class of the object at `word`, as a word (`type(of:)`: the compiler's own load of the
  /// class, authenticated where pointers are signed).
  @inlinable internal static func classWord(of word: UInt) -> UInt {
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { unsafeBitCast(type(of: $0), to: UInt.self) }
  }

  /// The address of the object of the box at `word`, read without retaining the box.
  @inlinable internal static func objectWord(at word: UInt) -> UInt {
    Unmanaged<_LazyObjectBox>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { UInt(bitPattern: Unmanaged.passUnretained($0.object).toOpaque()) }
  }

  /// The object of the box at `word`, read without retaining the box.
  @inlinable internal static func object(at word: UInt) -> AnyObject {
    Unmanaged<_LazyObjectBox>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.object }
  }

  /// The box at `word`, retained: call with the slot lock held.
  internal static func box(at word: UInt) -> _LazyObjectBox {
    Unmanaged<_LazyObjectBox>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
      .takeUnretainedValue()
  }

  /// The box's address, retained once: the +1 that a slot holding it owns.
  internal var retainedWord: UInt { UInt(bitPattern: Unmanaged.passRetained(self).toOpaque()) }
}

/// The object that marks a slot as being resolved.
///
/// Never released.
internal final class _LazyMarker: Sendable {
  internal static let object = _LazyMarker()

  /// The marker's address, the word a slot holds while its value is being built.
  internal static let address: UInt = {
    let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    _lazyinject_set_in_flight_marker(address)
    return address
  }()

  private init() {}
}

/// What a `@WeakLazy` slot holds once resolved or assigned: the instance, weakly, and the
/// capture of the override layers in force when the property was made, for its resolutions.
///
/// Read and written only with its object's slot lock held, or before it is in a slot.
internal final class _WeakLazyReference {
  weak var object: AnyObject?
  let capture: Capture?

  init(capture: Capture?, object: AnyObject? = nil) {
    (self.capture, self.object) = (capture, object)
  }

  /// The reference at the slot word `word` (not the marker), unretained; nil for 0.
  private static func unmanaged(_ word: UInt) -> Unmanaged<_WeakLazyReference>? {
    UnsafeRawPointer(bitPattern: word).map(Unmanaged.fromOpaque)
  }

  /// The instance the reference at the slot word `word` (not the marker) holds, if any.
  static func object(at word: UInt) -> AnyObject? {
    unmanaged(word)?._withUnsafeGuaranteedRef { $0.object }
  }

  /// Makes the reference at the slot word `word` (neither 0 nor the marker) hold `object`.
  static func set(_ object: AnyObject?, at word: UInt) {
    unmanaged(word).unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.object = object }
  }

  /// The capture the reference at the slot word `word` keeps, if any; call with the slot lock
  /// held.
  static func capture(at word: UInt) -> Capture? {
    word == _LazyMarker.address ? nil : unmanaged(word)?.takeUnretainedValue().capture
  }

  /// The reference at the slot word `word` (not the marker), taking over the slot's +1.
  static func take(_ word: UInt) -> _WeakLazyReference? { unmanaged(word)?.takeRetainedValue() }

  /// The word a slot keeps for `reference`, retained once: the slot's +1.
  static func retainedWord(of reference: _WeakLazyReference?) -> UInt {
    reference.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
  }

  /// `object` as `Value`: the object itself for a class type, the existential for a protocol.
  static func value<Value>(of object: AnyObject, as _: Value.Type) -> Value {
    // The object itself for a class or an existential of no witness; else the cast cannot fail:
    // it was stored as a `Value`.
    MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
      ? unsafeBitCast(object, to: Value.self) : object as! Value
  }
}
