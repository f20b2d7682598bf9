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
@propertyWrapper public struct Lazy<Value> {
  /// The slot: see `Slot.swift`.
  ///
  /// Read and written only with the object's slot lock held; ARC releases it with the object.
  @usableFromInline internal var _slot: AnyObject?

  /// Creates an unresolved property; the compiler calls it for `@Lazy var name: Type`.
  ///
  /// Made while override layers are in force, the property keeps them for its first read (see
  /// ``InitializerRegistry/withOverrides(_:operation:)``).
  public init() {
    // Until a layer exists, no layers to keep: the check costs a load, a call would cost more.
    _slot = _lazyinject_layers_made() == 0 ? nil : _LazyObjectBox.creation()
  }

  /// Unavailable: `@Lazy` takes no initial value; its value comes from the registry.
  ///
  /// Generic, so that the compiler considers it only for a property written with an initial
  /// value, whose error then says the fix.
  @available(
    *, unavailable,
    message:
      "@Lazy takes no initial value: remove it and register an initializer for the type (InitializerRegistry.shared.register), or use 'lazy var' to build the value here"
  )
  public init<Initial>(wrappedValue: Initial) { fatalError("@Lazy takes no initial value") }

  /// Unavailable: `@Lazy` reads and writes through the object that holds it.
  @available(
    *, unavailable,
    message:
      "@Lazy is only available on instance properties of classes ('var', not 'let' or 'static var'; not in a struct or enum)"
  )
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }

  /// Unavailable: `$property` is served through the object that holds it.
  @available(*, unavailable, message: "@Lazy is only available on instance properties of classes")
  public var projectedValue: LazyProjection<Value> { fatalError("unavailable") }

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
      let object = RawMemory.address(of: container)
      SlotLock.lock(object)
      let marker = _lazyinject_in_flight_marker()
      let word = RawMemory.word(of: container[keyPath: storageKeyPath]._slot)
      let content = SlotWord.content(
        of: word, marker: marker, storesObject: isSingleReference(Value.self))
      switch content {
      case .object:
        let value = withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]._slot) {
          RawMemory.load(Value.self, fromSlot: $0)
        }
        SlotLock.unlock(object)
        return value
      case .boxed, .inObjectBox:
        let value = _value(at: word, content)
        // A resolution under way may read a value built with an override layer's rules.
        if _lazyinject_layers_made() != 0 { _FirstRead.noteRead(at: word) }
        SlotLock.unlock(object)
        return value
      default:
        break
      }
      // Taken here, where the key path folds into a field access, the read goes on out of line
      // without the key path (passing that would build a key path object on every read).
      return _read(
        container, slot: _slot(of: container, storageKeyPath), word: word, marker: marker)
    }
    set { _assign(newValue, in: container, slot: _lockedSlot(of: container, storageKeyPath)) }
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
    LazyProjection(container: container, slot: _lockedSlot(of: container, storageKeyPath))
  }

  /// The slot, its address taken under the slot lock: taking it is a modifying access of the
  /// stored property, which the lock orders with other threads' (the thread sanitizer checks).
  @usableFromInline internal static func _lockedSlot<Container: AnyObject>(
    of container: Container, _ storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) -> _LazySlot {
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    defer { SlotLock.unlock(object) }
    return _slot(of: container, storageKeyPath)
  }

  /// The slot of the property of `container` stored at `storageKeyPath`.
  ///
  /// The slot is a stored property of a class: its address is fixed while the object lives.
  @inlinable @inline(__always)
  internal static func _slot<Container: AnyObject>(
    of container: Container, _ storageKeyPath: ReferenceWritableKeyPath<Container, Lazy>
  ) -> _LazySlot {
    withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]._slot) { _LazySlot($0) }
  }

  /// The value in the slot word `word`, which holds one (`content`), read without retaining what
  /// the slot keeps alive, but for the object of an object box, retained now.
  ///
  /// Call with the slot lock held.
  @inlinable internal static func _value(at word: UInt, _ content: SlotWord) -> Value {
    switch content {
    case .object:
      return RawMemory.value(atWord: word, as: Value.self)
    case .inObjectBox:
      // Retained with the slot locked, where no optimizer moves it: a reset on another thread may
      // empty a shared instance's handle as soon as the slot is unlocked.
      let inner = _LazyObjectBox.inner(at: word)
      RawMemory.retain(inner)
      let retained = RawMemory.takeRetained(inner)
      guard isSingleReference(Value.self) else {
        return unsafeDowncast(retained, to: _LazyBox<Value>.self).value
      }
      return RawMemory.value(retained, as: Value.self)
    default:
      return _LazyBox<Value>.value(at: word)
    }
  }

  /// The read of the slot of `container` when the getter found no value: nothing, an empty box,
  /// or the marker; called with the slot lock held, which it unlocks.
  ///
  /// An empty slot is read for the first time: under the lock the fast path's table (see
  /// `FastPath`) is read without the registry's lock; a kept instance's handle goes into the
  /// slot at once, and a `.unique` registration builds the value here, in code specialized for
  /// the property's type. Otherwise `_resolve` claims or waits, and resolves.
  @inlinable @inline(never)
  internal static func _read(
    _ container: AnyObject, slot: _LazySlot, word: UInt, marker: UInt
  ) -> Value {
    let object = RawMemory.address(of: container)
    SlotLock.assertHeld(object)
    if word == 0, marker != 0, _lazyinject_overrides_used() == 0,
      let entry = _lazyinject_fast_find(
        metadataAddress(of: Value.self), metadataAddress(of: type(of: container))),
      entry.pointee.flags & FastPath.mainActor == 0 || FastPath.onMainActor()
    {
      let payload = entry.pointee.payload
      let isObserved = entry.pointee.flags & FastPath.observed != 0
      // A kept handle (a `.unique` build's entry names no object), tested first: the order
      // saves a singleton's read 3 instructions and costs a build's 4 (measured).
      if isSingleReference(Value.self), let inner = entry.pointee.object {
        // The slot's handle and the caller's object, without an atomic.
        _lazyinject_fast_take(entry, 0, object, payload)
        _lazyinject_fast_take(entry, 1, object, inner)
        slot.word = RawMemory.word(payload)
        SlotLock.unlock(object)
        FirstReadPath.fastTableKeptHandle.record()
        let value = RawMemory.value(
          RawMemory.takeRetained(RawMemory.word(inner)), as: Value.self)
        if isObserved { _FirstRead.notify(container, slot: slot.address, of: value) }
        return value
      }
      if Int(entry.pointee.kind) == LAZYINJECT_FAST_BUILD {
        let credit = _lazyinject_fast_take(entry, 0, object, payload)  // Without an atomic.
        let version = _lazyinject_fast_version()
        slot.word = marker
        SlotLock.unlock(object)
        FirstReadPath.fastTableBuild.record()
        return _build(
          container, slot: slot, with: payload, credit: credit, at: version,
          isObserved: isObserved, marker: marker)
      }
    }
    SlotLock.unlock(object)
    return _resolve(container, slot: slot)  // Claims the slot, or waits.
  }

  /// Builds the value with the fast path's `.unique` registration at `payload`, for `container`
  /// whose slot this thread marked in flight, and publishes it.
  ///
  /// The build holds the registration by a reference it took from its entry's `credit` when the
  /// table's version was `version`. The reference goes back to the credit under the slot lock of
  /// the publication, which saves the atomic release of a shared object's count (6 ns of a cold
  /// first read's 73, measured); if the table was emptied since, the registration is released.
  @inlinable @inline(__always)
  internal static func _build(
    _ container: AnyObject, slot: _LazySlot, with payload: UnsafeMutableRawPointer,
    credit: UnsafeMutablePointer<UInt8>, at version: UInt64, isObserved: Bool, marker: UInt
  ) -> Value {
    let registrationWord = RawMemory.word(payload)
    let value = RawMemory.withObject(atWord: registrationWord, as: Registration.self) {
      _make(container, slot: slot, with: $0)
    }
    // Its pair's first rule, with no layer: an object is stored itself, with a +1 of its own.
    let word: UInt
    if isSingleReference(Value.self) {
      word = RawMemory.retainedWord(of: RawMemory.object(of: value))
    } else {
      word = RawMemory.withObject(atWord: registrationWord, as: Registration.self) {
        _FirstRead.boxWord(for: value, builtBy: $0)
      }
    }
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    let isGivenBack = _lazyinject_fast_give_back(credit, version) != 0
    guard slot.word == marker else {  // Reset or assigned meanwhile.
      SlotLock.unlock(object)
      if !isGivenBack { RawMemory.release(registrationWord) }
      return _publish(
        value, word: word, isObserved: isObserved, in: container, slot: slot, marker: marker)
    }
    slot.word = word
    SlotLock.unlock(object)
    if !isGivenBack { RawMemory.release(registrationWord) }
    // The count read inline: a call here cost 2% of a first read.
    if _lazyinject_waiters() > 0 { _FirstRead.wakeWaiters() }
    if isObserved { _FirstRead.notify(container, slot: slot.address, of: value) }
    return value
  }

  /// The value `registration` builds for `container`, in a frame of its own (cycles, depth); or
  /// the program stops.
  @inlinable @inline(__always)
  internal static func _make(
    _ container: AnyObject, slot: _LazySlot, with registration: Registration
  ) -> Value {
    do {
      let frame = try ResolutionFrame.push(
        property: Value.self, for: container, slot: UnsafeRawPointer(slot.address))
      defer { ResolutionFrame.pop(frame) }
      SlotLock.assertNoLockHeld()
      do { return try registration.makeOnStack(container, as: Value.self) } catch {
        throw InitializerRegistry.failure(error, of: registration)
      }
    } catch { _FirstRead.stop(error) }
  }

  /// The first read: claims the slot (`_claim`), unless it holds a value, which it returns, or
  /// waits while another thread builds it; then resolves, with the layers of the empty object
  /// box it took over from the slot if any, and publishes.
  ///
  /// The slot is read and written only with the object's slot lock held, as raw words: the
  /// marker is immortal, so it is stored without retaining it, and the value is stored with the
  /// +1 that the slot owns from then on. (Swift's retains of the marker cost a third of this
  /// function.)
  @inlinable @inline(never)
  internal static func _resolve(_ container: AnyObject, slot: _LazySlot) -> Value {
    // The C copy of the marker's address costs a load; the Swift one, a `swift_once` check.
    let known = _lazyinject_in_flight_marker()
    let marker = known != 0 ? known : _FirstRead.marker
    let object = RawMemory.address(of: container)
    var box: UInt = 0
    while true {
      if let value = _claim(object, slot: slot, marker: marker, word: &box) { return value }
      if box != marker { break }  // 0, or an empty box to take over: claimed.
      _FirstRead.wait(for: Value.self, in: container, slot: slot.address)
    }
    var outcome = InitializerRegistry.Outcome()
    let built = _FirstRead.resolve(
      Value.self, for: container, slot: slot.address, box: box, outcome: &outcome)
    return _publish(
      built, word: _word(for: built, outcome: outcome), isObserved: outcome.isObserved,
      in: container, slot: slot, marker: marker)
  }

  /// With the slot lock of `object` held while it runs: the value the slot holds (retained), or
  /// nil with the slot's word in `word`, after marking the slot in flight (claimed) unless that
  /// word is `marker` (another resolution is under way).
  @inlinable
  internal static func _claim(
    _ object: UnsafeRawPointer, slot: _LazySlot, marker: UInt, word: inout UInt
  ) -> Value? {
    SlotLock.lock(object)
    defer { SlotLock.unlock(object) }
    word = slot.word
    let content = SlotWord.content(
      of: word, marker: marker, storesObject: isSingleReference(Value.self))
    if content.isValue {
      if content != .object, _lazyinject_layers_made() != 0 { _FirstRead.noteRead(at: word) }
      return _value(at: word, content)
    }
    if content != .inFlight { slot.word = marker }
    return nil
  }

  /// Publishes `built`, whose retained slot word is `new`, for a resolution that claimed the slot
  /// (`marker` in it), wakes the waiters and tells an observer if `isObserved`; returns the value
  /// the slot holds then (an assignment made meanwhile wins).
  @inlinable @inline(__always)
  internal static func _publish(
    _ built: consuming Value, word new: UInt, isObserved: Bool, in container: AnyObject,
    slot: _LazySlot, marker: UInt
  ) -> Value {
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    let current = slot.word
    // Reset meanwhile (0): this value is published. Assigned meanwhile: the assignment wins.
    let isPublished = current == marker || current == 0
    guard isPublished else {
      let value = _value(
        at: current,
        SlotWord.content(of: current, marker: marker, storesObject: isSingleReference(Value.self)))
      SlotLock.unlock(object)
      _FirstRead.didReplace(new)  // Kept by no slot.
      if _lazyinject_waiters() > 0 { _FirstRead.wakeWaiters() }
      return value
    }
    slot.word = new
    SlotLock.unlock(object)
    if current != marker { _FirstRead.didReplace(current) }
    // The count read inline: a call here cost 2% of a first read.
    if _lazyinject_waiters() > 0 { _FirstRead.wakeWaiters() }
    if isObserved {  // An assignment's value is no injection.
      _FirstRead.notify(container, slot: slot.address, of: copy built)
    }
    return built
  }
}
