import _LazyInjectShims

/// What the first read of a `@Lazy` or `@WeakLazy` property calls out of line: the resolution
/// trampoline, waits for a value another thread is building, and the observer's notification.
@usableFromInline internal enum _FirstRead {
  /// Guards waits for a value another thread or task is building: the tasks that wait (resumed
  /// by `didPublish`), and the slots whose `load()` awaits an async initializer.
  private static let gate = Protected((tasks: [InstanceStore.Waiter](), awaited: Set<UInt>()))

  /// Resolves `Value` for `container` through the property's `slot`, or stops the program.
  ///
  /// Follows `plan` (see `ExpressPlan`) if the express table had one, else asks the shared
  /// registry for one. Tells in `outcome` how, and stops the program with the resolution error's
  /// message if there is one. The one trampoline from a first read into the pipeline.
  /// Inlined, so that the express plan's cases run in code specialized for `Value`: a `.unique`
  /// initializer is called without generic code around it (a tenth of a first read, measured).
  @inlinable @inline(__always)
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer,
    plan found: InitializerRegistry.ExpressPlan?, outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    let plan =
      (found
      ?? InitializerRegistry.shared.expressPlan(
        for: Value.self, in: container, storesObject: isSingleReference(Value.self))).servingHere
    FirstReadPath.record(plan, foundInTable: found != nil)
    do {
      return try InitializerRegistry.resolve(
        type, for: container, slot: UnsafeRawPointer(slot), plan: plan, generally: nil,
        outcome: &outcome)
    } catch { stop(error) }
  }

  /// Resolves as above, for the first read of a property made while override layers were in force:
  /// with the layers the capture at `capture` keeps (see `Capture`), bound as the task's layers for
  /// the whole resolution.
  ///
  /// Takes over the capture's +1.
  @usableFromInline internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer, capture: UInt,
    outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    FirstReadPath.general.record()
    defer { didReplace(capture) }
    return resolve(
      type, for: container, slot: slot, capture: _LazyObjectBox.box(at: capture).capture,
      outcome: &outcome)
  }

  /// Resolves with the layers of `capture` (see `Capture.layers(readBy:)`), or the reader's.
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer,
    capture: Capture?, outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    do {
      return try withLayers(of: capture) {
        try InitializerRegistry.resolve(
          type, for: container, slot: UnsafeRawPointer(slot), plan: .general, generally: nil,
          outcome: &outcome)
      }
    } catch { stop(error) }
  }

  /// Runs `body` with the layers of `capture`, read by the calling task, bound as its layers.
  ///
  /// When those layers join an object's and a reader's that are no single chain, the resolution
  /// that needed this one (if any) may not let a layer keep what it builds either.
  internal static func withLayers<Result>(of capture: Capture?, _ body: () throws -> Result)
    rethrows -> Result
  {
    let layers = capture.map { $0.layers(readBy: OverrideScope.current) } ?? OverrideScope.current
    if layers?.isMerged == true { ResolutionFrame.current?.pointee.taint.forbidsKeeping = true }
    return try OverrideScope.$current.withValue(layers, operation: body)
  }

  /// Stops the program with `error`'s message.
  ///
  /// Out of line: the message's temporaries would otherwise take stack in every level of a deep
  /// chain of first reads.
  @usableFromInline @inline(never)
  internal static func stop(_ error: any Error) -> Never {
    guard let test = OverrideScope.testName else { fatalError("\(error)") }
    fatalError("In test \(test):\n\(error)")
  }

  /// Tells `container`, an `InjectionObserving` object, that its property at `slot` received
  /// `value`.
  ///
  /// The property is found by its offset in the class, without reading any other property. A
  /// class whose module was built without reflection names cannot name it: the observer is not
  /// told, and a warning says why, once per class.
  @usableFromInline internal static func notify(
    _ container: AnyObject, slot: UnsafeMutableRawPointer, of value: Any
  ) {
    guard let observer = container as? any InjectionObserving else { return }
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    let containerClass: AnyClass = type(of: container)
    let offset = UnsafeRawPointer(slot) - object
    guard let fields = try? LazyField.fields(of: containerClass),
      let field = fields.first(where: { $0.offset == offset })
    else { return }
    guard let name = field.name else {
      if unnamedObservers.withLock({ $0.insert(ObjectIdentifier(containerClass)).inserted }) {
        writeToStandardError(
          "LazyInject warning: \(typeName(containerClass)) observes injections"
            + " (InjectionObserving), but its module was built without reflection names"
            + " (SWIFT_REFLECTION_METADATA_LEVEL = without-names, or -disable-reflection-names),"
            + " so LazyInject cannot name its properties and does not call didInject.\nFix: build"
            + " that module with all reflection metadata (SWIFT_REFLECTION_METADATA_LEVEL = all).\n"
        )
      }
      return
    }
    SlotLock.assertNoLockHeld()
    observer.didInject(value, intoPropertyNamed: name)
  }

  /// The observing classes already warned about missing names.
  private static let unnamedObservers = Protected<Set<ObjectIdentifier>>([])

  /// Waits while `isInFlight()` (which looks at the slot under its lock) says another thread is
  /// building the value of the property at `slot`; unless this thread is the one building it,
  /// or waiting would close a cycle through other threads: then stops the program.
  @usableFromInline internal static func wait(
    for property: Any.Type, in container: AnyObject, slot: UnsafeMutableRawPointer,
    while isInFlight: () -> Bool
  ) {
    let slot = UnsafeRawPointer(slot)
    if let error = ResolutionFrame.cycleError(resolving: property, for: container, slot: slot) {
      stop(error)
    }
    if let error = WaitGraph.willWait(for: .slot(slot)) { stop(error) }
    // A slot that `load()` builds with an async initializer: no thread waits for that.
    let isAwaited = gate.lock.withLock {
      _ = _lazyinject_waiters_add(1)
      defer { _ = _lazyinject_waiters_add(-1) }
      while isInFlight() && !gate.value.awaited.contains(UInt(bitPattern: slot)) {
        gate.lock.wait()
      }
      return isInFlight()
    }
    WaitGraph.didWait()
    if isAwaited { stop(ResolutionError.requiresLoad(summary(property, container, slot), nil)) }
  }

  /// Suspends the calling task until the slot is no longer in flight, or throws the cycle that
  /// waiting would close.
  nonisolated(nonsending) static func awaitPublication(
    of slot: UnsafeRawPointer, summary: String, while isInFlight: () -> Bool
  ) async throws {
    let step = WaitGraph.Held(slot: UInt(bitPattern: slot), registration: nil, summary: summary)
    if let error = AsyncChain.cycle(closedBy: step) { throw error }
    let task = AsyncChain.current ?? AsyncChain([])
    if let error = WaitGraph.willWait(for: .slot(slot), as: task) { throw error }
    defer { WaitGraph.didWait(as: task) }
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let waits = gate.lock.withLock {
        _ = _lazyinject_waiters_add(1)  // Before looking: a publisher that saw none looked after.
        guard isInFlight() else {
          _ = _lazyinject_waiters_add(-1)
          return false
        }
        gate.value.tasks.append(waiter)
        return true
      }
      if !waits { waiter.resume() }
    }
  }

  /// Notes that `load()` awaits an async initializer for `slot`, or, called again, no longer:
  /// the threads waiting for it stop rather than wait. (One `load()` at a time claims a slot.)
  static func toggleAwaited(_ slot: UnsafeRawPointer) {
    gate.lock.withLock {
      gate.value.awaited.formSymmetricDifference([UInt(bitPattern: slot)])
      gate.lock.broadcast()
    }
  }

  /// The in-flight marker's address (`_LazyMarker`), published to the shims by its first use.
  @usableFromInline internal static var marker: UInt { _LazyMarker.address }

  /// Wakes the threads in `wait` and the tasks in `awaitPublication`, if any, after a slot
  /// changed; call with the slot unlocked.
  @usableFromInline internal static func didPublish() {
    guard _lazyinject_waiters() > 0 else { return }
    let tasks = gate.lock.withLock {
      gate.lock.broadcast()
      defer { gate.value.tasks = [] }
      _ = _lazyinject_waiters_add(-gate.value.tasks.count)
      return gate.value.tasks
    }
    for task in tasks { task.resume() }
  }

  /// Releases what an assignment, a reset or a publication took out of a slot (`word`, a word
  /// the caller owns), now that the slot is unlocked; if it was the in-flight marker, which no
  /// slot retains, the waiting threads must look again.
  @usableFromInline internal static func didReplace(_ word: UInt) {
    if word == _LazyMarker.address {
      didPublish()
    } else if let pointer = UnsafeRawPointer(bitPattern: word) {
      SlotLock.assertNoLockHeld()
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }

  /// What the property `field` of `container`, an object of its class, holds: whether a value
  /// (a `@WeakLazy` property's may go away at any time: it never counts as resolved), and the
  /// capture of the layers its first read would resolve with.
  internal static func state(of field: LazyField, in container: AnyObject)
    -> (isResolved: Bool, capture: Capture?)
  {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    SlotLock.lock(object)
    defer { SlotLock.unlock(object) }
    let word = (object + field.offset).load(as: UInt.self)
    guard !field.isWeak else { return (false, _WeakLazyReference.capture(at: word)) }
    // An object box holds the marker exactly when it is a capture, whatever the value's type.
    let content = SlotWord.content(
      of: word, marker: _lazyinject_in_flight_marker(), storesObject: true)
    return (content.isValue, content == .capture ? _LazyObjectBox.box(at: word).capture : nil)
  }
}
