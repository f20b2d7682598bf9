import _LazyInjectShims

/// What the first read of a `@Lazy` or `@WeakLazy` property calls out of line: the resolution
/// trampoline, waits for a value another thread is building, and the observer's notification.
@usableFromInline
internal enum _FirstRead {
  /// Guards waits for a value another thread is building.
  private static let gate = Lock()

  /// Resolves `Value` for `container` through the property's `slot`, or stops the program.
  ///
  /// Follows `plan` (see `ExpressPlan`), else asks the shared registry; tells in `outcome` how,
  /// and stops the program with the resolution error's message if there is one. The one
  /// trampoline from a first read into the resolution pipeline. Inlined, so that the
  /// express plan's cases run in code specialized for `Value`: a `.unique` initializer is called
  /// without generic code around it (a tenth of a first read, measured).
  @inlinable
  @inline(__always)
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer,
    plan: InitializerRegistry.ExpressPlan, outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    do {
      return try InitializerRegistry.resolve(
        type, for: container, slot: UnsafeRawPointer(slot), plan: plan, generally: nil,
        outcome: &outcome)
    } catch {
      stop(error)
    }
  }

  /// Resolves as `resolve(_:for:slot:plan:outcome:)` does, for the first read of a property made
  /// while override layers were in force: with those layers and, above them, the reader's that
  /// they lack, bound as the task's layers for the whole resolution.
  ///
  /// `capture` is the retained capture that was in the slot; this releases it.
  @usableFromInline
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer, capture: UInt,
    outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    defer { didReplace(capture) }
    return resolve(
      type, for: container, slot: slot, layers: _LazyObjectBox.stack(ofCapture: capture),
      outcome: &outcome)
  }

  /// Resolves with `layers`, the layers an object was made under, and the reader's they lack.
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer,
    layers: OverrideStack, outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    OverrideScope.$current.withValue(layers.adding(OverrideScope.current)) {
      resolve(type, for: container, slot: slot, plan: .general, outcome: &outcome)
    }
  }

  /// Stops the program with `error`'s message.
  ///
  /// Out of line: the message's temporaries would otherwise take stack in every level of a deep
  /// chain of first reads.
  @usableFromInline
  @inline(never)
  internal static func stop(_ error: any Error) -> Never {
    guard let test = OverrideScope.testName else {
      fatalError("\(error)")
    }
    fatalError("In test \(test):\n\(error)")
  }

  /// Tells `container`, an `InjectionObserving` object, that its property at `slot` received
  /// `value`.
  ///
  /// The property is found by its offset in the class, without reading any other property.
  @usableFromInline
  internal static func notify(
    _ container: AnyObject, slot: UnsafeMutableRawPointer, of value: Any
  ) {
    guard let observer = container as? any InjectionObserving else { return }
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    guard let name = propertyName(at: UnsafeRawPointer(slot), in: object, of: type(of: container))
    else { return }
    SlotLock.assertNoLockHeld()
    observer.didInject(value, intoPropertyNamed: name)
  }

  /// Waits while `isInFlight()` (which looks at the slot under its lock) says another thread is
  /// building the value of the property at `slot`; unless this thread is the one building it,
  /// or waiting would close a cycle through other threads: then stops the program.
  @usableFromInline
  internal static func wait(
    for property: Any.Type, in container: AnyObject, slot: UnsafeMutableRawPointer,
    while isInFlight: () -> Bool
  ) {
    let slot = UnsafeRawPointer(slot)
    if let error = ResolutionFrame.cycleError(resolving: property, for: container, slot: slot) {
      stop(error)
    }
    if let error = WaitGraph.willWait(for: .slot(slot)) {
      stop(error)
    }
    gate.withLock {
      _ = _lazyinject_waiters_add(1)
      while isInFlight() {
        gate.wait()
      }
      _ = _lazyinject_waiters_add(-1)
    }
    WaitGraph.didWait()
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
      SlotLock.assertNoLockHeld()
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }
}
