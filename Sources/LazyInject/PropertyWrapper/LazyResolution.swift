import _LazyInjectShims

/// What the first read of a `@Lazy` property calls out of line.
@usableFromInline
internal enum _LazyResolution {
  /// Guards waits for a value another thread is building.
  private static let gate = Lock()

  /// Resolves `Value` for `container` from the shared registry, through the property's `slot`,
  /// or stops the program with the resolution error's message; tells in `outcome` how.
  @usableFromInline
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeRawPointer,
    outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    do {
      return try InitializerRegistry.shared.resolve(
        type, for: container, slot: slot, outcome: &outcome)
    } catch {
      stop(error)
    }
  }

  /// Resolves as `resolve(_:for:slot:outcome:)` does, for a first read whose express plan
  /// (`InitializerRegistry.expressPlan`) was `.general`.
  @usableFromInline
  internal static func resolveGenerally<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeRawPointer,
    outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    do {
      return try InitializerRegistry.shared.resolveGenerally(
        type, for: container, slot: slot, outcome: &outcome)
    } catch {
      stop(error)
    }
  }

  /// Builds the value of a first read with `registration`, the `.unique` registration of the
  /// express plan; or stops the program with the resolution error's message.
  ///
  /// Inlined into the property's specialized first read, so that the initializer is called
  /// without generic code around it (a tenth of a first read, measured).
  @inlinable
  internal static func build<Value>(
    _ registration: Registration<Value>, for container: AnyObject, slot: UnsafeRawPointer
  ) -> Value {
    let frame = enter(Value.self, for: container, slot: slot)
    defer { leave(frame) }
    do {
      return try registration.make(container)
    } catch {
      stop(InitializerRegistry.failure(error, of: registration))
    }
  }

  /// Starts the resolution of `property` for `container` through `slot` (see
  /// `ResolutionFrame.push`), or stops the program if it would close a cycle or go too deep.
  @usableFromInline
  internal static func enter(_ property: Any.Type, for container: AnyObject, slot: UnsafeRawPointer)
    -> UnsafeMutableRawPointer
  {
    do {
      return UnsafeMutableRawPointer(
        try ResolutionFrame.push(property: property, for: container, slot: slot))
    } catch {
      stop(error)
    }
  }

  /// Ends the resolution `enter` started.
  @usableFromInline
  internal static func leave(_ frame: UnsafeMutableRawPointer) {
    ResolutionFrame.pop(frame.assumingMemoryBound(to: ResolutionFrame.self))
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
  internal static func notify(_ container: AnyObject, slot: UnsafeRawPointer, of value: Any) {
    guard let observer = container as? any InjectionObserving else { return }
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    guard let name = propertyName(at: slot, in: object, of: type(of: container)) else { return }
    observer.didInject(value, intoPropertyNamed: name)
  }

  /// Waits while `isInFlight()` (which looks at the slot under its lock) says another thread is
  /// building the value of the property at `slot`; unless this thread is the one building it,
  /// or waiting would close a cycle through other threads: then stops the program.
  @usableFromInline
  internal static func wait(
    for property: Any.Type, in container: AnyObject, slot: UnsafeRawPointer,
    while isInFlight: () -> Bool
  ) {
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
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }
}
