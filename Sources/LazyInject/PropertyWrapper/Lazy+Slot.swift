import _LazyInjectShims

// The slot of `@Lazy` holds nil (unresolved), the in-flight marker (a thread is building the
// value) or a `_LazyBox`. It is read and written only with the object's slot lock held, a lock
// from a small striped table keyed by the object's address. The lock is never held while user
// code runs: values are built, and replaced boxes released, after it is unlocked.
//
// Writes go through the slot's address as raw words. A box in the slot is retained once, by the
// slot, and ARC releases it with the object. The marker is immortal and stored unretained; it
// never outlives the resolution that stored it, which holds the object alive.

extension Lazy {
  /// The address of the slot's content, without retaining it.
  ///
  /// Call with the slot lock held.
  @inlinable
  internal var _raw: UInt {
    unsafeBitCast(_slot, to: UInt.self)
  }

  /// Puts the word `raw`, a retained box or 0 to empty the slot, in the slot.
  ///
  /// What it replaces is released after unlocking. Assigning and resetting both come here.
  @inlinable
  internal static func _store<Container: AnyObject>(
    _ raw: UInt, in container: Container,
    _ storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) {
    let object = Unmanaged.passUnretained(container).toOpaque()
    _lazyinject_lock(object)
    let replaced = withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]._slot) {
      _LazyBox<Value>.exchange(in: $0, with: raw)
    }
    _lazyinject_unlock(object)
    _LazyResolution.didReplace(replaced)
  }

  /// The box in the slot, if the property is resolved.
  internal static func _box<Container: AnyObject>(
    in container: Container, _ storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) -> _LazyBox<Value>? {
    let object = Unmanaged.passUnretained(container).toOpaque()
    _lazyinject_lock(object)
    defer { _lazyinject_unlock(object) }
    return container[keyPath: storageKeyPath]._slot as? _LazyBox<Value>
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

  /// Puts the word `new` in `slot` and returns the word it held, with no retain or release: the
  /// caller owns what it takes out.
  ///
  /// Call with the slot lock held.
  @inlinable
  internal static func exchange(in slot: UnsafeMutablePointer<AnyObject?>, with new: UInt) -> UInt {
    let word = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: UInt.self)
    defer { word.pointee = new }
    return word.pointee
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
