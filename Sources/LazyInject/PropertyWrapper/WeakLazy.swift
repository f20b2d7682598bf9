import _LazyInjectShims

/// A class property resolved on first read like `@Lazy`, but held weakly: a back-reference that
/// must not keep its target alive.
///
/// A child screen's reference to the coordinator that owns it, or to its delegate, is the usual
/// case:
///
/// ```swift
/// @MainActor
/// protocol SignInFlowDelegate: AnyObject {
///   func signInDidFinish()
/// }
///
/// @MainActor
/// final class SignInViewController {
///   @WeakLazy var coordinator: SignInCoordinator?
///   @WeakLazy var delegate: (any SignInFlowDelegate)?
/// }
/// ```
///
/// The first read resolves `SignInCoordinator` with the rules of `@Lazy` (a registration for
/// `SignInCoordinator?` wins, else those of `SignInCoordinator`: container, superclasses, root
/// default, `init()`), keeps the instance weakly and returns it. A read after the instance was
/// released resolves again; a read for which no rule applies returns nil. Assigning stores an
/// instance directly, weakly.
///
/// The type is a class, or a class-bound protocol (`protocol P: AnyObject`) as
/// `(any SignInFlowDelegate)?` or `(any Producer<Int>)?`: something a weak reference can hold.
/// Any other type stops the program when the object is made, with a message that says so (for a
/// protocol with primary associated types, whose metadata does not tell, when its first value is
/// stored).
///
/// The property takes one word in its object, as `weak var` does; its first resolution
/// allocates a small reference box, reused for the object's life.
///
/// ## Concurrency
///
/// As for `@Lazy`: concurrent first reads build one instance, the others wait for it; reads take
/// the object's short slot lock; cycles, across threads too, are reported. Assigning is a
/// mutation of the object and must not race with reads.
///
/// - Important: Only on properties of classes: on a struct or enum it is a compile-time error.
@propertyWrapper public struct WeakLazy<Value> {
  /// Nil, the in-flight marker, or a `_WeakLazyReference`, as a raw word (see `_LazySlot`).
  ///
  /// Read and written only with the object's slot lock held.
  internal var _reference: AnyObject?

  /// Creates an unresolved property; the compiler calls it for `@WeakLazy var name: Type?`.
  ///
  /// Made while override layers are in force, the property keeps them for its resolutions (see
  /// ``InitializerRegistry/withOverrides(_:operation:)``).
  public init() {
    if Self.weakness == 0 { Self.stopNotWeak() }
    _reference = CreationLayers.current.map { _WeakLazyReference(creation: $0) }
  }

  /// Whether a weak reference can hold a `Value`: 1, 0 (never), or -1 (the type's metadata does
  /// not tell: the first value decides).
  private static var weakness: Int32 {
    _lazyinject_is_weakly_referenceable(metadataAddress(of: Value.self))
  }

  private static func stopNotWeak() -> Never {
    fatalError(
      "@WeakLazy holds its value weakly, so \(typeName(Value.self)) must be a class or a class-bound"
        + " protocol (protocol P: AnyObject), and it is neither.\nFix: declare the property with"
        + " @Lazy, or make the protocol class-bound.")
  }

  /// The object of `value`, to hold weakly; stops the program if `value` is no object (for a
  /// type whose metadata did not tell).
  private static func object(of value: Value) -> AnyObject {
    if weakness < 0 && !(type(of: value as Any) is AnyObject.Type) { stopNotWeak() }
    return value as AnyObject
  }

  /// Unavailable: `@WeakLazy` takes no initial value; its value comes from the registry.
  ///
  /// Generic, so that the compiler considers it only for a property written with an initial
  /// value, whose error then says the fix.
  @available(
    *, unavailable,
    message:
      "@WeakLazy takes no initial value: remove it and register an initializer for the type (InitializerRegistry.shared.register), or assign the value after the object is made"
  )
  public init<Initial>(wrappedValue: Initial) { fatalError("@WeakLazy takes no initial value") }

  /// Unavailable: `@WeakLazy` reads and writes through the object that holds it.
  @available(
    *, unavailable,
    message:
      "@WeakLazy is only available on instance properties of classes ('var', not 'let' or 'static var'; not in a struct or enum)"
  )
  public var wrappedValue: Value? {
    get { fatalError() }
    set { fatalError() }
  }

  /// Reads or assigns the property of `container`; the compiler calls it for `container.name`.
  public static subscript<Container: AnyObject>(
    _enclosingInstance container: Container,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Container, Value?>,
    storage storageKeyPath: ReferenceWritableKeyPath<Container, WeakLazy>
  ) -> Value? {
    get {
      let object = RawMemory.address(of: container)
      let marker = _LazyMarker.address
      while true {
        SlotLock.lock(object)
        let slot = Self.slot(of: container, storageKeyPath)
        let word = slot.word
        guard word == marker else {
          // A strong reference, released only after unlocking: if it is the last one, the
          // deinit must not run under the lock.
          if let value = _WeakLazyReference.value(at: word, as: Value.self) {
            if _lazyinject_layers_made() != 0 { _WeakLazyReference.noteRead(at: word) }
            SlotLock.unlock(object)
            return value
          }
          // Unresolved, released, or resolved to nil: this thread resolves, with the layers the
          // reference keeps, if any. It takes over the slot's +1 of the reference.
          slot.word = marker
          SlotLock.unlock(object)
          return resolve(container, slot: slot, reference: _WeakLazyReference.take(word))
        }
        SlotLock.unlock(object)
        _FirstRead.wait(for: Value?.self, in: container, slot: slot.address)
      }
    }
    set {
      let object = RawMemory.address(of: container)
      // Made before locking, and put in the slot only if the slot has no reference to reuse.
      let spare = _WeakLazyReference(creation: nil, object: newValue.map(Self.object(of:)))
      SlotLock.lock(object)
      let slot = Self.slot(of: container, storageKeyPath)
      let word = slot.word
      if word == 0 || word == _LazyMarker.address {  // Being resolved: the assignment wins.
        slot.word = RawMemory.retainedWord(of: spare)
      } else {
        _WeakLazyReference.set(spare.object, at: word)
      }
      SlotLock.unlock(object)
      SlotLock.assertNoLockHeld()
      withExtendedLifetime(spare) {}
      if word == _LazyMarker.address { _FirstRead.wakeWaiters() }
    }
  }

  /// The slot of the property of `container`: at a fixed address while the object lives, taken
  /// (a modifying access) with the slot lock held, which orders it with other threads' accesses.
  private static func slot<Container: AnyObject>(
    of container: Container, _ storageKeyPath: ReferenceWritableKeyPath<Container, WeakLazy>
  ) -> _LazySlot {
    withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]._reference) { _LazySlot($0) }
  }

  /// Resolves `Value?` for `container`, whose slot this thread marked in flight after taking
  /// `reference` (nil, or the slot's reference, whose +1 it now owns) out of it; publishes the
  /// instance weakly unless the property was assigned meanwhile.
  private static func resolve<Container: AnyObject>(
    _ container: Container, slot: _LazySlot, reference: _WeakLazyReference?
  ) -> Value? {
    let object = RawMemory.address(of: container)
    var outcome = InitializerRegistry.Outcome()
    // Held strongly until returned: the slot only keeps it weakly.
    let value = _FirstRead.resolve(
      Value?.self, for: container, slot: slot.address, creation: reference?.creation,
      outcome: &outcome)
    // This thread's: either the reference it took out of the slot, or a new one. In no slot yet:
    // nobody else reads it.
    let published = reference ?? _WeakLazyReference(creation: nil)
    published.object = value.map(Self.object(of:))
    published.uses = outcome.uses
    published.handle = outcome.handle
    published.isShared = outcome.handle != nil
    SlotLock.lock(object)
    let current = slot.word
    let isPublished = current == _LazyMarker.address  // Else assigned meanwhile: that wins.
    if isPublished { slot.word = RawMemory.retainedWord(of: published) }
    let result = isPublished ? value : _WeakLazyReference.value(at: current, as: Value.self)
    SlotLock.unlock(object)
    // Released after unlocking: the reference this thread took may be the last one of layers.
    SlotLock.assertNoLockHeld()
    withExtendedLifetime(published) {}
    _FirstRead.wakeWaiters()
    if outcome.isObserved, isPublished, let value {
      _FirstRead.notify(container, slot: slot.address, of: value)
    }
    return result
  }
}

extension Lazy: _LazyStorage {
  static func value(in container: AnyObject, at offset: Int) -> Any? {
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    defer { SlotLock.unlock(object) }
    // The property's storage is its one stored property, the slot.
    let word = (object + offset).load(as: UInt.self)
    let content = SlotWord.content(
      of: word, marker: _lazyinject_in_flight_marker(), storesObject: isSingleReference(Value.self))
    return content.isValue ? _value(at: word, content) : nil
  }
}

extension WeakLazy: _LazyStorage, _WeakLazyStorage {
  static func value(in container: AnyObject, at offset: Int) -> Any? { nil }  // Holds nothing.
}
