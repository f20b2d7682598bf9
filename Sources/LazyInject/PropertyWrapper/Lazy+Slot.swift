import _LazyInjectShims

// The slot of `@Lazy` holds nil (unresolved), the in-flight marker (a thread is building the
// value) or the value. It is read and written only with the object's slot lock held, a lock
// from a small striped table keyed by the object's address. The lock is never held while user
// code runs: values are built, and replaced values released, after it is unlocked.
//
// The value is stored one of three ways:
//
// - A class-typed value resolved by its pair's pinned rule (see `RuleTable.pin`) is stored
//   itself: a first read allocates nothing but the value, as a hand-written `lazy var`. Its
//   rule is the pin, found again when `$property.rule` asks.
// - Any other class-typed value (assigned, or built by another rule, such as a test's override)
//   is stored in a `_LazyObjectBox` that records its rule.
// - A value of any other type (a struct, an existential) is stored in a `_LazyBox<Value>`.
//
// A property made while override layers are in force starts with a capture instead of 0: a
// `_LazyObjectBox` that holds the marker and the layers (`OverrideStack`), which its first read
// resolves with. The first read consumes it.
//
// Writes go through the slot's address as raw words (`_LazySlot`). What the slot holds is
// retained once, by the slot, and ARC releases it with the object. The marker is immortal and
// stored unretained; it never outlives the resolution that stored it, which holds the object
// alive. A box is told from a value by its class, read through `type(of:)` (the compiler's own
// load of the class pointer, authenticated where pointers are signed), never by reading the
// object's first word.

/// The address of a `@Lazy` property's slot, read and written as a raw word: no retain, no
/// release, no access of memory through a type it is not bound to.
///
/// Read and write it only with the object's slot lock held.
@usableFromInline
internal struct _LazySlot {
  @usableFromInline
  internal let address: UnsafeMutableRawPointer

  @inlinable
  internal init(_ slot: UnsafeMutablePointer<AnyObject?>) {
    // An optional class reference is one word, nil being 0: Swift's ABI, checked in debug builds.
    assert(MemoryLayout<AnyObject?>.size == MemoryLayout<UInt>.size)
    address = UnsafeMutableRawPointer(slot)
  }

  /// The word the slot holds: 0, the in-flight marker's address, or a retained object's.
  @inlinable
  internal var word: UInt {
    get { address.load(as: UInt.self) }
    nonmutating set { address.storeBytes(of: newValue, as: UInt.self) }
  }

  /// Puts `new` in the slot and returns the word it held, with no retain or release: the caller
  /// owns what it takes out.
  @inlinable
  internal func exchange(with new: UInt) -> UInt {
    defer { word = new }
    return word
  }
}

extension Lazy {
  /// The address of the slot's content, without retaining it.
  ///
  /// Call with the slot lock held.
  @inlinable
  internal var _raw: UInt {
    unsafeBitCast(_slot, to: UInt.self)
  }

  /// Puts the word `raw`, a retained box or 0 to empty the slot, in the slot of `container`.
  ///
  /// What it replaces is released after unlocking. Assigning and resetting both come here.
  @inlinable
  internal static func _store(_ raw: UInt, in container: AnyObject, slot: _LazySlot) {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    SlotLock.lock(object)
    let replaced = slot.exchange(with: raw)
    SlotLock.unlock(object)
    _FirstRead.didReplace(replaced)
  }

  /// Whether the slot of `container` holds a value, and the rule that produced it (nil if
  /// assigned).
  internal static func _state(in container: AnyObject, slot: _LazySlot)
    -> (isResolved: Bool, rule: InitializerRegistry.Rule?)
  {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    SlotLock.lock(object)
    // Retained under the lock: another thread may replace and release it once unlocked.
    let content = slot.address.assumingMemoryBound(to: AnyObject?.self).pointee
    SlotLock.unlock(object)
    switch content {
    case nil:
      return (false, nil)
    case let marker? where marker === _LazyMarker.object:
      return (false, nil)
    case let box as _LazyBox<Value>:
      return (true, box.origin?.rule)
    case let box as _LazyObjectBox:
      return box.stack != nil ? (false, nil) : (true, box.origin?.rule)
    case .some:
      let pin = InitializerRegistry.shared.pin(for: Value.self, in: type(of: container))
      return (true, pin?.rule(of: Value.self))
    }
  }
}

extension Lazy {
  /// Whether `Value` is a class type, one reference with no witness table.
  ///
  /// Such values can be stored in the slot itself. Folds to a constant where `Value` is known.
  @inlinable
  internal static var _storesObject: Bool {
    Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
  }

  /// The value in the slot word `raw` (neither 0 nor the marker), read without retaining what the
  /// slot keeps alive.
  ///
  /// Call with the slot lock held.
  @inlinable
  internal static func _value(at raw: UInt) -> Value {
    guard _storesObject else {
      return _LazyBox<Value>.value(at: raw)
    }
    if _LazyObjectBox.isBox(raw) {
      return unsafeBitCast(_LazyObjectBox.object(at: raw), to: Value.self)
    }
    return withUnsafeBytes(of: raw) { $0.load(as: Value.self) }
  }

  /// The retained word a slot keeps for `value`: the value itself if `isPinned` (its rule is its
  /// pair's pin) and it is an object, else a box that records `origin`.
  @inlinable
  internal static func _word(for value: Value, origin: _LazyOrigin?, isPinned: Bool) -> UInt {
    guard _storesObject else {
      return _LazyBox(value, origin: origin).retainedAddress
    }
    let object = unsafeBitCast(value, to: AnyObject.self)
    if isPinned {
      return UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
    }
    return _LazyObjectBox(object, origin: origin).retainedAddress
  }
}

/// A resolved value, and the rule that produced it (nil when it was assigned).
@usableFromInline
internal final class _LazyBox<Value> {
  @usableFromInline
  internal let value: Value

  internal let origin: _LazyOrigin?

  @usableFromInline
  internal init(_ value: Value, origin: _LazyOrigin?) {
    self.value = value
    self.origin = origin
  }

  /// The box's address, retained once: the +1 that a slot holding it owns.
  @inlinable
  internal var retainedAddress: UInt {
    UInt(bitPattern: Unmanaged.passRetained(self).toOpaque())
  }

  /// The value of the box whose address is `raw`, read without retaining the box, which the slot
  /// keeps alive.
  ///
  /// Call with the slot lock held.
  @inlinable
  internal static func value(at raw: UInt) -> Value {
    Unmanaged<_LazyBox<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.value }
  }
}

/// A class-typed value that is not its pair's pinned rule's, and the rule that produced it (nil
/// when it was assigned); or a capture: the marker and the override layers in force when the
/// property was made.
///
/// Not generic, so that one class tells a box from a value whatever the property's type.
@usableFromInline
internal final class _LazyObjectBox {
  @usableFromInline
  internal let object: AnyObject

  internal let origin: _LazyOrigin?

  /// The layers a capture keeps; nil for a value's box.
  internal let stack: OverrideStack?

  /// Publishes the class to the shims before the first box can reach a slot.
  private static let isPublished: Bool = {
    _lazyinject_set_object_box_class(unsafeBitCast(_LazyObjectBox.self, to: UInt.self))
    return true
  }()

  @usableFromInline
  internal init(_ object: AnyObject, origin: _LazyOrigin?) {
    _ = Self.isPublished
    self.object = object
    self.origin = origin
    stack = nil
  }

  private init(capturing stack: OverrideStack) {
    _ = Self.isPublished
    _ = _LazyMarker.address  // Published before a capture can be in a slot (see `isCapture`).
    object = _LazyMarker.object
    origin = nil
    self.stack = stack
  }

  /// The slot a property starts with when override layers may be in force: a capture of them,
  /// or nil when none is.
  internal static func capture() -> AnyObject? {
    OverrideScope.current.map { _LazyObjectBox(capturing: $0) }
  }

  /// Whether the box at `raw` is a capture, whose object is the in-flight `marker` (published:
  /// a capture publishes it).
  ///
  /// Call with the slot lock held.
  @inlinable
  internal static func isCapture(_ raw: UInt, marker: UInt) -> Bool {
    Unmanaged<_LazyObjectBox>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { UInt(bitPattern: Unmanaged.passUnretained($0.object).toOpaque()) }
      == marker
  }

  /// The layers of the capture whose address is `raw`.
  internal static func stack(ofCapture raw: UInt) -> OverrideStack {
    Unmanaged<_LazyObjectBox>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
      .takeUnretainedValue().stack.unsafelyUnwrapped
  }

  /// Whether the object at `raw`, the word a slot of a class-typed `@Lazy` holds, is a box rather
  /// than the value itself.
  ///
  /// Its class is read with `type(of:)`: on Linux, a load compared with the published class,
  /// as fast as reading the first word was (measured); on Darwin, a call that also knows
  /// Objective-C tagged pointers; where pointers are signed (arm64e), an authenticated load.
  @inlinable
  internal static func isBox(_ raw: UInt) -> Bool {
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef {
        unsafeBitCast(type(of: $0), to: UInt.self) == _lazyinject_object_box_class()
      }
  }

  /// The box's address, retained once: the +1 that a slot holding it owns.
  @inlinable
  internal var retainedAddress: UInt {
    UInt(bitPattern: Unmanaged.passRetained(self).toOpaque())
  }

  /// The object of the box whose address is `raw`, read without retaining the box.
  ///
  /// Call with the slot lock held.
  @inlinable
  internal static func object(at raw: UInt) -> AnyObject {
    Unmanaged<_LazyObjectBox>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.object }
  }
}

/// The object that marks a slot as being resolved.
///
/// Never released.
@usableFromInline
internal final class _LazyMarker: Sendable {
  @usableFromInline
  internal static let object = _LazyMarker()

  /// The marker's address, the word a slot holds while its value is being built.
  @usableFromInline
  internal static let address: UInt = {
    let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    _lazyinject_set_in_flight_marker(address)
    return address
  }()

  private init() {}
}
