import _LazyInjectShims

// The slot of `@Lazy` holds nil (unresolved), the in-flight marker (a thread is building the
// value) or a `_LazyBox`. It is read and written only with the object's slot lock held, a lock
// from a small striped table keyed by the object's address. The lock is never held while user
// code runs: values are built, and replaced boxes released, after it is unlocked.

extension Lazy {
  /// The address of the slot's content, without retaining it. Call with the slot lock held.
  @inlinable
  internal var _raw: UInt {
    unsafeBitCast(_slot, to: UInt.self)
  }

  /// Stores `box`, or empties the slot when nil; the replaced box is released after unlocking.
  internal static func _replace<Container: AnyObject>(
    in container: Container, _ storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>,
    with box: _LazyBox<Value>?
  ) {
    let object = Unmanaged.passUnretained(container).toOpaque()
    _lazyinject_lock(object)
    let replaced = container[keyPath: storageKeyPath]._slot
    container[keyPath: storageKeyPath]._slot = box
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

  /// The value of the box whose address is `raw`, read without retaining the box, which the
  /// slot keeps alive. Call with the slot lock held.
  @inlinable
  internal static func value(at raw: UInt) -> Value {
    Unmanaged<_LazyBox<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.value }
  }
}

/// The object that marks a slot as being resolved. Never released.
@usableFromInline
internal final class _LazyMarker: Sendable {
  @usableFromInline
  internal static let object: _LazyMarker = {
    let marker = _LazyMarker()
    _lazyinject_set_in_flight_marker(UInt(bitPattern: Unmanaged.passUnretained(marker).toOpaque()))
    return marker
  }()

  private init() {}
}
