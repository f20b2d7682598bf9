import _LazyInjectShims

/// What the first read of a `@Lazy` property calls out of line.
@usableFromInline
internal enum _LazyResolution {
  /// Guards waits for a value another thread is building.
  private static let gate = Lock()

  /// Resolves `Value` for `container` from the shared registry, or stops the program with the
  /// resolution error's message.
  ///
  /// Also sets `isObserved` to whether the container wants to hear of the injection.
  @inlinable
  internal static func box<Value>(
    of type: Value.Type, for container: AnyObject, isObserved: inout Bool
  ) -> _LazyBox<Value> {
    var origin: _LazyOrigin?
    let value = resolve(type, for: container, origin: &origin, isObserved: &isObserved)
    return _LazyBox(value, origin: origin)
  }

  @usableFromInline
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, origin: inout _LazyOrigin?,
    isObserved: inout Bool
  ) -> Value {
    do {
      return try InitializerRegistry.shared.resolve(
        type, for: container, origin: &origin, isObserved: &isObserved)
    } catch {
      fatalError("\(error)")
    }
  }

  /// Tells `container`, an `InjectionObserving` object, that it received `box`'s value.
  @usableFromInline
  internal static func notify(_ container: AnyObject, of box: AnyObject) {
    guard let observer = container as? any InjectionObserving else { return }
    var mirror: Mirror? = Mirror(reflecting: container)
    while let current = mirror {
      for child in current.children {
        if let property = child.value as? any _LazyStorage, property.slot === box,
          let label = child.label
        {
          observer.didInject(property.boxedValue!, intoPropertyNamed: String(label.dropFirst()))
          return
        }
      }
      mirror = current.superclassMirror
    }
  }

  /// Waits while `isInFlight()` (which looks at the slot under its lock) says another thread is
  /// building the value; unless this thread is the one building it, which means the
  /// initializers form a cycle: then stops the program.
  @usableFromInline
  internal static func wait(
    for property: Any.Type, in container: AnyObject, while isInFlight: () -> Bool
  ) {
    if let error = ResolutionFrame.cycleError(resolving: property, for: container) {
      fatalError("\(error)")
    }
    gate.withLock {
      _ = _lazyinject_waiters_add(1)
      while isInFlight() {
        gate.wait()
      }
      _ = _lazyinject_waiters_add(-1)
    }
  }

  /// Wakes the threads in `wait`, if any, after a slot changed; call with the slot unlocked.
  @usableFromInline
  internal static func didPublish() {
    if _lazyinject_waiters() > 0 {
      gate.withLock { gate.broadcast() }
    }
  }

  /// Releases the box an assignment or a reset took out of a slot (`raw`, a word the caller
  /// owns), now that the slot is unlocked; if it was the in-flight marker, which no slot
  /// retains, the waiting threads must look again.
  @usableFromInline
  internal static func didReplace(_ raw: UInt) {
    if raw == _LazyMarker.address {
      didPublish()
    } else if let pointer = UnsafeRawPointer(bitPattern: raw) {
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }
}
