import _LazyInjectShims

/// A class property resolved on first read like `@Lazy`, but held weakly: a back-reference that
/// must not keep its target alive.
///
/// A child screen's reference to the coordinator that owns it is the usual case:
///
/// ```swift
/// @MainActor
/// final class SignInViewController {
///   @WeakLazy var coordinator: SignInCoordinator?
/// }
/// ```
///
/// The first read resolves `SignInCoordinator` with the rules of `@Lazy` (a registration for
/// `SignInCoordinator?` wins, else those of `SignInCoordinator`: container, superclasses, root
/// default, `init()`), keeps the instance weakly and returns it. A read after the instance was
/// released resolves again; a read for which no rule applies returns nil. Assigning stores an
/// instance directly, weakly.
///
/// The storage is a single weak reference: no more bytes than `weak var`.
///
/// ## Concurrency
///
/// As for `@Lazy`: concurrent first reads build one instance, the others wait for it; reads take
/// the object's short slot lock; cycles, across threads too, are reported. Assigning is a
/// mutation of the object and must not race with reads.
///
/// - Important: Only on properties of classes: on a struct or enum it is a compile-time error.
@propertyWrapper
public struct WeakLazy<Value: AnyObject> {
  /// The instance, an in-flight marker, or nil.
  ///
  /// Read and written only with the object's slot lock held.
  @usableFromInline
  internal weak var _object: AnyObject?

  /// Creates an unresolved property; the compiler calls it for `@WeakLazy var name: Type?`.
  public init() {}

  /// Unavailable: `@WeakLazy` reads and writes through the object that holds it.
  @available(*, unavailable, message: "@WeakLazy is only available on properties of classes")
  public var wrappedValue: Value? {
    get { fatalError("@WeakLazy is only available on properties of classes") }
    set { fatalError("@WeakLazy is only available on properties of classes") }
  }

  /// Reads or assigns the property of `container`; the compiler calls it for `container.name`.
  public static subscript<Container: AnyObject>(
    _enclosingInstance container: Container,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Container, Value?>,
    storage storageKeyPath: ReferenceWritableKeyPath<Container, WeakLazy>
  ) -> Value? {
    get {
      let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
      while true {
        SlotLock.lock(object)
        // The struct is the stored property, at a fixed address while the object lives; its
        // weak reference is its only field. (The address of the weak field itself would be a
        // temporary's: a weak load is a copy.) Taken under the lock, as every access is.
        let slot = withUnsafeMutablePointer(to: &container[keyPath: storageKeyPath]) {
          UnsafeMutableRawPointer($0)
        }
        // A strong reference, released only after unlocking: if it is the last one, the deinit
        // must not run under the lock.
        let current = container[keyPath: storageKeyPath]._object
        if let current, !(current is _WeakLazyMarker) {
          SlotLock.unlock(object)
          return unsafeDowncast(current, to: Value.self)
        }
        if current == nil {
          // A marker of its own, alive while the resolution runs: a weak reference to an
          // immortal object would keep its side table forever.
          let marker = _WeakLazyMarker()
          container[keyPath: storageKeyPath]._object = marker
          SlotLock.unlock(object)
          return resolve(container, slot: slot, marker: marker, storage: storageKeyPath)
        }
        withExtendedLifetime(current) { SlotLock.unlock(object) }
        _FirstRead.wait(for: Value?.self, in: container, slot: slot) {
          SlotLock.lock(object)
          let current = container[keyPath: storageKeyPath]._object
          return withExtendedLifetime(current) {
            SlotLock.unlock(object)
            return current is _WeakLazyMarker
          }
        }
      }
    }
    set {
      let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
      SlotLock.lock(object)
      let replaced = container[keyPath: storageKeyPath]._object
      container[keyPath: storageKeyPath]._object = newValue
      withExtendedLifetime(replaced) { SlotLock.unlock(object) }
      if replaced is _WeakLazyMarker {
        _FirstRead.didPublish()
      }
    }
  }

  /// Resolves `Value?` for `container`, whose slot this thread marked with `marker`, and
  /// publishes the instance (weakly) unless the property was assigned meanwhile.
  private static func resolve<Container: AnyObject>(
    _ container: Container, slot: UnsafeMutableRawPointer, marker: _WeakLazyMarker,
    storage storageKeyPath: ReferenceWritableKeyPath<Container, WeakLazy>
  ) -> Value? {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    var outcome = InitializerRegistry.Outcome()
    let plan = InitializerRegistry.shared.expressPlan(for: Value?.self, in: container)
    // Held strongly until returned: the slot only keeps it weakly.
    let value = _FirstRead.resolve(
      Value?.self, for: container, slot: slot, plan: plan, outcome: &outcome)
    SlotLock.lock(object)
    let current = container[keyPath: storageKeyPath]._object
    let result: Value?
    if current === marker {
      container[keyPath: storageKeyPath]._object = value
      result = value
    } else {
      // Assigned while being built: the assignment wins.
      result = current.map { unsafeDowncast($0, to: Value.self) }
    }
    withExtendedLifetime(current) { SlotLock.unlock(object) }
    _FirstRead.didPublish()
    if outcome.isObserved, let value {
      _FirstRead.notify(container, slot: slot, of: value)
    }
    return result
  }
}

/// Marks a `@WeakLazy` slot whose value a thread is resolving.
@usableFromInline
internal final class _WeakLazyMarker {}
