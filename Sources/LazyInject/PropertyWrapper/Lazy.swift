import _LazyInjectShims

/// A class property whose value is built on first read, kept by its object, and released with it.
///
/// Mark a stored property of a class with `@Lazy` and leave it without an initial value:
///
/// ```swift
/// @MainActor
/// final class UsersViewController: ViewController {
///   @Lazy var resourceLoader: ResourceLoader
///   @Lazy var progressViewService: ProgressViewService
/// }
/// ```
///
/// Nothing is built when the controller is created. The first read of `resourceLoader` asks
/// ``InitializerRegistry/shared`` for a `ResourceLoader` for this controller: the registration for
/// `UsersViewController` wins over one for a superclass, which wins over the root default; with no
/// registration, a ``DefaultInitializable`` type is built with `init()`. The value is then kept in
/// the controller; later reads return it under a short lock, with no registry lookup.
///
/// Assigning stores a value directly, without asking the registry; a test or caller can inject
/// one this way:
///
/// ```swift
/// let screen = UsersViewController()
/// screen.resourceLoader = StubLoader()
/// ```
///
/// The projected value, `$resourceLoader`, tells whether the property is resolved and can reset
/// it; see ``LazyProjection``.
///
/// - Important: `@Lazy` needs the object around it, so it works only on properties of classes;
///   on a struct or enum it is a compile-time error.
///
/// ## Concurrency
///
/// The first read builds exactly one value per object and property, even when several threads
/// read it for the first time at once: one thread runs the initializer, the others wait for it
/// and read the same value. Later reads take a short per-object lock (one of a small striped
/// table), never a global one. Assigning or resetting is a mutation of the object and must not
/// race with reads, as for any stored property.
///
/// ## Failure
///
/// If the registry can build no value, or the initializers form a cycle, the program stops with
/// the message of the ``ResolutionError`` that
/// ``InitializerRegistry/resolve(_:for:)`` would throw. Use
/// ``InitializerRegistry/validate(_:)`` in a test to find such a property before users do.
@propertyWrapper
public struct Lazy<Value> {
  /// The value, a box, the in-flight marker, or nil (see `Lazy+Slot.swift`).
  ///
  /// Read and written only with the object's slot lock held; ARC releases it with the object.
  @usableFromInline
  internal var _slot: AnyObject?

  /// Creates an unresolved property; the compiler calls it for `@Lazy var name: Type`.
  ///
  /// Made while override layers are in force, the property keeps them for its first read (see
  /// ``InitializerRegistry/withOverrides(_:operation:)``).
  public init() {
    _slot = _lazyinject_overrides_used() == 0 ? nil : _LazyObjectBox.capture()
  }

  /// Unavailable: `@Lazy` reads and writes through the object that holds it.
  @available(*, unavailable, message: "@Lazy is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("@Lazy is only available on properties of classes") }
    set { fatalError("@Lazy is only available on properties of classes") }
  }

  /// Unavailable: `$property` is served through the object that holds it.
  @available(*, unavailable, message: "@Lazy is only available on properties of classes")
  public var projectedValue: LazyProjection<Value> {
    fatalError("@Lazy is only available on properties of classes")
  }

  /// Reads or assigns the property of `container`; the compiler calls it for `container.name`.
  ///
  /// Inlined into the caller, so that reading a resolved value costs a lock, a load and a
  /// compare (18 times slower as a call, measured with the prototype): everything else goes out
  /// of line, to `_read`, so that the inlined part stays small enough for the caller's own
  /// getter to be inlined in turn.
  @inlinable
  public static subscript<Container: AnyObject>(
    _enclosingInstance container: Container,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Container, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) -> Value {
    @inline(__always) get {
      let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
      SlotLock.lock(object)
      let marker = _lazyinject_in_flight_marker()
      let raw = container[keyPath: storageKeyPath]._raw
      if raw != 0 && raw != marker {
        if _storesObject {
          if !_LazyObjectBox.isBox(raw) {
            // The value itself, read as a field of its type: a read whose result goes unused
            // then costs no retain (a third of a read, measured).
            let value = withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]._slot) {
              UnsafeMutableRawPointer($0).load(as: Value.self)
            }
            SlotLock.unlock(object)
            return value
          }
        } else if !_LazyObjectBox.isBox(raw) {  // Not a capture: the value's `_LazyBox`.
          let value = _LazyBox<Value>.value(at: raw)
          SlotLock.unlock(object)
          return value
        }
      }
      // Taken here, where the key path folds into a field access, the read goes on out of line
      // without the key path (passing that would build a key path object on every read).
      return _read(container, slot: _slot(of: container, storageKeyPath), raw: raw, marker: marker)
    }
    set {
      _store(
        _word(for: newValue, origin: nil, isPinned: false), in: container,
        slot: _slot(of: container, storageKeyPath))
    }
  }

  /// The projection of the property of `container`; the compiler calls it for `container.$name`.
  ///
  /// Reads nothing of the object: a property rule applies a key path to the projection to tell
  /// which property it names (see `PropertyTarget`).
  public static subscript<Container: AnyObject>(
    _enclosingInstance container: Container,
    projected projectedKeyPath: KeyPath<Container, LazyProjection<Value>>,
    storage storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) -> LazyProjection<Value> {
    LazyProjection(container: container, slot: _slot(of: container, storageKeyPath))
  }

  /// The slot of the property of `container` stored at `storageKeyPath`.
  ///
  /// The slot is a stored property of a class: its address is fixed while the object lives.
  @inlinable
  @inline(__always)
  internal static func _slot<Container: AnyObject>(
    of container: Container, _ storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) -> _LazySlot {
    withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]._slot) { _LazySlot($0) }
  }

  /// The read of the slot of `container` when the getter found no value it reads inline: a
  /// class-typed value's box, a capture, nothing, or the marker; called with the slot lock held,
  /// which it unlocks.
  ///
  /// An empty or captured slot is read for the first time: under the lock the express table
  /// (see `ExpressTable`) is read without the registry's lock, and a kept object goes into the
  /// slot at once; otherwise the slot is marked in flight (`marker`) and the value built, with
  /// the layers of a capture (see `_LazyObjectBox.capture()`). Before the first resolution of
  /// the process publishes the marker, and for a slot in flight, `_resolve` claims or waits.
  @inlinable
  @inline(never)
  internal static func _read(
    _ container: AnyObject, slot: _LazySlot, raw: UInt, marker: UInt
  ) -> Value {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    SlotLock.assertHeld(object)
    // A capture publishes the marker before it reaches a slot; a value's box holds no marker.
    if raw != 0 && raw != marker && !_LazyObjectBox.isCapture(raw, marker: marker) {
      let value = _value(at: raw)
      SlotLock.unlock(object)
      return value
    }
    guard raw != marker && marker != 0 else {
      SlotLock.unlock(object)
      return _resolve(container, slot: slot, claimed: false)
    }
    let capture = raw  // 0, or a capture whose +1 this read takes over.
    var plan: InitializerRegistry.ExpressPlan?
    if capture == 0, _lazyinject_overrides_used() == 0,
      let entry = _lazyinject_express_find(
        ExpressTable.address(of: Value.self), ExpressTable.address(of: type(of: container)))
    {
      // What the entry names is alive while the lock is held; retained before unlocking.
      let payload = entry.pointee.payload
      let isObserved = entry.pointee.isObserved != 0
      switch Int(entry.pointee.kind) {
      case LAZYINJECT_EXPRESS_KEPT_OBJECT where _storesObject:  // Kept only for classes.
        let kept = Unmanaged<AnyObject>.fromOpaque(payload).retain()  // The slot's +1.
        slot.word = UInt(bitPattern: payload)
        let value = unsafeBitCast(kept.takeUnretainedValue(), to: Value.self)
        SlotLock.unlock(object)
        FirstReadProbe.record(.expressTableKeptObject)
        if isObserved {
          _FirstRead.notify(container, slot: slot.address, of: value)
        }
        return value
      case LAZYINJECT_EXPRESS_BUILD:
        let registration = Unmanaged<AnyRegistration>.fromOpaque(payload).retain()
        plan = .build(registration, isObserved: isObserved)
      default:
        break
      }
    }
    slot.word = marker
    SlotLock.unlock(object)
    return _resolve(container, slot: slot, claimed: true, plan: plan, capture: capture)
  }

  /// The first read: marks the slot in flight (unless `claimed`, already marked by this thread),
  /// resolves with `plan` (an express plan `_read` found, its payload retained once) or by
  /// asking the registry for one, or with the layers of `capture` (a retained capture that was
  /// in the slot, or 0), and publishes; or waits for the thread that marked it.
  ///
  /// The slot is read and written only with the object's slot lock held, as raw words: the
  /// marker is immortal, so it is stored without retaining it, and the value is stored with the
  /// +1 that the slot owns from then on. (Swift's retains of the marker cost a third of this
  /// function.)
  @inlinable
  @inline(never)
  internal static func _resolve(
    _ container: AnyObject, slot: _LazySlot, claimed: Bool,
    plan found: InitializerRegistry.ExpressPlan? = nil, capture: UInt = 0
  ) -> Value {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    // The C copy of the marker's address costs a load; the Swift one, a `swift_once` check.
    let published = _lazyinject_in_flight_marker()
    let marker = published != 0 ? published : _LazyMarker.address
    var isClaimed = claimed
    while !isClaimed {
      SlotLock.lock(object)
      let current = slot.word
      if current == 0 {
        slot.word = marker
        SlotLock.unlock(object)
        isClaimed = true
      } else if current != marker {
        let value = _value(at: current)
        SlotLock.unlock(object)
        return value
      } else {
        SlotLock.unlock(object)
        _FirstRead.wait(for: Value.self, in: container, slot: slot.address) {
          SlotLock.lock(object)
          defer { SlotLock.unlock(object) }
          return slot.word == marker
        }
      }
    }
    var outcome = InitializerRegistry.Outcome()
    let built: Value
    if capture == 0 {
      let plan = found ?? InitializerRegistry.shared.expressPlan(for: Value.self, in: container)
      FirstReadProbe.record(plan, foundInTable: found != nil)
      built = _FirstRead.resolve(
        Value.self, for: container, slot: slot.address, plan: plan, outcome: &outcome)
    } else {
      FirstReadProbe.record(.general)
      built = _FirstRead.resolve(
        Value.self, for: container, slot: slot.address, capture: capture, outcome: &outcome)
    }
    let new = _word(for: built, origin: outcome.origin, isPinned: outcome.isPinned)
    SlotLock.lock(object)
    let current = slot.word
    let isPublished = current == marker || current == 0
    let value: Value
    if isPublished {
      slot.word = new
      value = built
    } else {
      value = _value(at: current)  // Assigned while being built: it wins.
    }
    SlotLock.unlock(object)
    if !isPublished {
      _FirstRead.didReplace(new)  // Releases what this thread built and no slot keeps.
    }
    if _lazyinject_waiters() > 0 {  // Read inline: a call here cost 2% of a first read.
      _FirstRead.didPublish()
    }
    if outcome.isObserved && isPublished {  // An assignment's value is no injection.
      _FirstRead.notify(container, slot: slot.address, of: built)
    }
    return value
  }
}
