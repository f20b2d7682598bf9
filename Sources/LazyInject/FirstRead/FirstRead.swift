import _LazyInjectShims

/// What the first read of a `@Lazy` or `@WeakLazy` property calls out of line: the way into
/// resolution, waits for a value another thread is building, and the observer's notification.
@usableFromInline internal enum _FirstRead {
  /// What waits for a value another thread or task is building.
  ///
  /// The tasks that wait (resumed by `wakeWaiters`), and the slots whose `load()` awaits an async
  /// initializer. Its lock's condition wakes the threads that wait.
  private struct SlotWaiters {
    var tasks: [InstanceStore.Waiter] = []
    var awaited: Set<UnsafeRawPointer> = []
  }

  /// The waiters of every slot.
  private static let slotWaiters = Protected(SlotWaiters())

  /// Resolves `Value` for `container` through the property's `slot`, or stops the program.
  ///
  /// The one way from a first read into resolution, for a first read that the fast path's
  /// table did not serve. Tells in `outcome` what the slot keeps.
  ///
  /// `word` is 0, or the retained object box that was in the slot (this takes over its +1): for
  /// a property made while override layers were in force, or whose shared instance a reset
  /// released, the resolution runs with the layers it keeps, if any (see `CreationLayers`).
  @usableFromInline internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer, box word: UInt,
    outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    defer { didReplace(word) }  // Nothing for 0.
    let creation = word == 0 ? nil : _LazyObjectBox.box(at: word).creation
    return resolve(type, for: container, slot: slot, creation: creation, outcome: &outcome)
  }

  /// Resolves on the general path with the layers of `creation`, read by the calling task.
  internal static func resolve<Value>(
    _ type: Value.Type, for container: AnyObject, slot: UnsafeMutableRawPointer,
    creation: CreationLayers?, outcome: inout InitializerRegistry.Outcome
  ) -> Value {
    FirstReadPath.general.record()
    do {
      // Without layers to bind, no closure: two frames fewer at each level of a chain of first
      // reads (a debug build's stack must hold 100 on a 512 KiB thread, `DeepChainTests`).
      guard let creation else {
        return try InitializerRegistry.resolve(type, for: container, slot: slot, outcome: &outcome)
      }
      return try withLayers(of: creation) {
        try InitializerRegistry.resolve(type, for: container, slot: slot, outcome: &outcome)
      }
    } catch { stop(error) }
  }

  /// Runs `body` with the layers of `creation`, read by the calling task, bound as its layers.
  internal static func withLayers<Result>(
    of creation: CreationLayers?, _ body: () throws -> Result
  ) rethrows -> Result {
    guard let creation else { return try body() }
    return try OverrideScope.$current.withValue(
      creation.layers(readBy: OverrideScope.current), operation: body)
  }

  /// What a slot keeps for `value` when it is not the value itself.
  ///
  /// `outcome` tells how a resolution built it (or an assignment, with no rule, set it): a shared
  /// instance's handle, or a box of its own that records its rule and the layers used.
  @usableFromInline internal static func box<Value>(
    for value: Value, _ outcome: InitializerRegistry.Outcome
  ) -> AnyObject {
    if let handle = outcome.handle { return handle }
    if isSingleReference(Value.self) {
      return _LazyObjectBox(value, origin: outcome.origin, uses: outcome.uses)
    }
    return _LazyBox(value, origin: outcome.origin, uses: outcome.uses)
  }

  /// The retained slot word of a box of `value`, a value of a type other than a class that the
  /// fast path's `registration` built.
  @usableFromInline internal static func boxWord<Value>(
    for value: Value, builtBy registration: AnyRegistration
  ) -> UInt {
    let box = _LazyBox(value, origin: .registration(registration.source), uses: LayersUsed())
    return RawMemory.retainedWord(of: box)
  }

  /// Notes that a read returned the value in the object box or `_LazyBox` at `word`: the
  /// resolution or shared build under way on the task read a value built with the layers the
  /// box records.
  ///
  /// Called with the slot lock held, in a process that made override layers.
  @usableFromInline internal static func noteRead(at word: UInt) {
    if let record = RawMemory.object(atWord: word) as? any _UsesRecord {
      ResolutionFrame.noteRead(record.uses)
    }
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
    let object = RawMemory.address(of: container)
    let containerClass: AnyClass = type(of: container)
    let offset = UnsafeRawPointer(slot) - object
    let fields = try? LazyField.fields(of: containerClass)
    guard let field = fields?.first(where: { $0.offset == offset }) else { return }
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

  /// Waits while the slot at `slot` holds the in-flight marker (looked at under its slot lock):
  /// another thread is building the value of the property; unless this thread is the one
  /// building it, or waiting would close a cycle through other threads: then stops the program.
  @usableFromInline internal static func wait(
    for property: Any.Type, in container: AnyObject, slot: UnsafeMutableRawPointer
  ) {
    let slot = UnsafeRawPointer(slot)
    let address = RawMemory.address(of: container)
    if let error = ResolutionFrame.cycleError(resolving: property, for: address, slot: slot) {
      stop(error)
    }
    if let error = WaitGraph.willWait(for: .slot(slot)) { stop(error) }
    // A slot that `load()` builds with an async initializer: no thread waits for that. Why the
    // wait ended is decided on one look at the slot: once published, the slot may be claimed
    // again (a reset emptied its handle and another read claimed it), and a second look would
    // take that read's claim for `load()`'s.
    let start = Recorder.start
    let isAwaited = slotWaiters.lock.withLock {
      _ = _lazyinject_waiters_add(1)
      defer { _ = _lazyinject_waiters_add(-1) }
      while isInFlight(slot, of: address) {
        if slotWaiters.value.awaited.contains(slot) { return true }
        slotWaiters.lock.wait()
      }
      return false
    }
    WaitGraph.didWait()
    let what = WaitGraph.Step.property(property, in: type(of: container), offset: slot - address)
    Recorder.note(built: nil, of: what, since: start)
    if isAwaited { stop(ResolutionError.requiresLoad(for: what.summary, rule: nil)) }
  }

  /// Whether the slot at `slot` of the object at `object` holds the in-flight marker, looked at
  /// under the object's slot lock.
  private static func isInFlight(_ slot: UnsafeRawPointer, of object: UnsafeRawPointer) -> Bool {
    SlotLock.lock(object)
    defer { SlotLock.unlock(object) }
    return slot.load(as: UInt.self) == _LazyMarker.address
  }

  /// Suspends the calling task until the slot at `slot` of the property of `container` is no
  /// longer in flight, or throws the cycle that waiting would close.
  nonisolated(nonsending) static func awaitSlot(
    for property: Any.Type, in container: AnyObject, slot: UnsafeRawPointer
  ) async throws {
    let object = RawMemory.address(of: container)
    let what = WaitGraph.Step.property(property, in: type(of: container), offset: slot - object)
    let step = WaitGraph.Held(slot: slot, registration: nil, what: what)
    if let error = AsyncChain.cycle(closedBy: step) { throw error }
    let task = AsyncChain.current ?? AsyncChain([])
    if let error = WaitGraph.willWait(for: .slot(slot), as: task) { throw error }
    defer { WaitGraph.didWait(as: task) }
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let waits = slotWaiters.lock.withLock {
        _ = _lazyinject_waiters_add(1)  // Before looking: a publisher that saw none looked after.
        guard isInFlight(slot, of: object) else {
          _ = _lazyinject_waiters_add(-1)
          return false
        }
        slotWaiters.value.tasks.append(waiter)
        return true
      }
      if !waits { waiter.resume() }
    }
  }

  /// Notes that `load()` awaits an async initializer for `slot`, or, called again, no longer:
  /// the threads waiting for it stop rather than wait. (One `load()` at a time claims a slot.)
  static func toggleAwaited(_ slot: UnsafeRawPointer) {
    slotWaiters.lock.withLock {
      slotWaiters.value.awaited.formSymmetricDifference([slot])
      slotWaiters.lock.broadcast()
    }
  }

  /// The in-flight marker's address (`_LazyMarker`), set in the shims by its first use.
  @usableFromInline internal static var marker: UInt { _LazyMarker.address }

  /// Wakes the threads in `wait` and the tasks in `awaitSlot`, if any, after a slot
  /// changed; call with the slot unlocked.
  @usableFromInline internal static func wakeWaiters() {
    guard _lazyinject_waiters() > 0 else { return }
    wakeEveryWaiter()
  }

  /// Out of line, so that a first read with nothing waiting never asks for the metadata of
  /// `CheckedContinuation<Void, Never>`: its first request searches every conformance record
  /// of the process for `Never: Error` (60 µs in a launch, measured).
  @inline(never) private static func wakeEveryWaiter() {
    let tasks = slotWaiters.lock.withLock {
      slotWaiters.lock.broadcast()
      defer { slotWaiters.value.tasks = [] }
      _ = _lazyinject_waiters_add(-slotWaiters.value.tasks.count)
      return slotWaiters.value.tasks
    }
    for task in tasks { task.resume() }
  }

  /// Releases what an assignment, a reset or the store of a resolved value took out of a slot (`word`, a word
  /// the caller owns), now that the slot is unlocked; if it was the in-flight marker, which no
  /// slot retains, the waiting threads must look again.
  @usableFromInline internal static func didReplace(_ word: UInt) {
    if word == _LazyMarker.address {
      wakeWaiters()
    } else if word != 0 {
      SlotLock.assertNoLockHeld()
      RawMemory.release(word)
    }
  }
}

/// The object that marks a slot as being resolved.
///
/// Never released.
internal final class _LazyMarker: Sendable {
  internal static let object = _LazyMarker()

  /// The marker's address, the word a slot holds while its value is being built.
  internal static let address: UInt = {
    let address = RawMemory.word(of: object)
    _lazyinject_set_in_flight_marker(address)
    return address
  }()

  private init() {}
}
