import _LazyInjectShims

// What a `@Lazy` slot keeps for a value, and the reads and writes of a slot other than the
// getter's: assigning, resetting, and the projection's questions.

extension Lazy {
  /// The retained word a slot keeps for `value`, built as `outcome` tells: the value itself if it
  /// is an object its pair's first rule built with no override layer (`isFirstRule`), else a
  /// shared instance's handle, or a box that records its rule and the layers used.
  @inlinable @inline(__always)
  internal static func _word(for value: Value, outcome: InitializerRegistry.Outcome) -> UInt {
    guard isSingleReference(Value.self), outcome.isFirstRule else {
      return RawMemory.retainedWord(of: _FirstRead.box(for: value, outcome))
    }
    return RawMemory.retainedWord(of: RawMemory.object(of: value))
  }

  /// Resolves the property, as `$property.load()` does: like a first read, with what it holds
  /// returned, a claim made, or another resolution awaited; but through `_FirstRead.load`, which
  /// awaits an async rule, and throwing where a read stops, the slot then left as it was.
  nonisolated(nonsending) internal static func _load(_ container: AnyObject, slot: _LazySlot)
    async throws -> Value
  {
    await InitializerRegistry.shared.installAutomaticModulesIfNeeded()
    let object = RawMemory.address(of: container)
    let marker = _FirstRead.marker
    while true {
      var word: UInt = 0
      if let value = _claim(object, slot: slot, marker: marker, word: &word) { return value }
      // Else claimed: 0 or an empty box, now this task's; or in flight, awaited below.
      guard word != marker else {
        try await _FirstRead.awaitSlot(for: Value.self, in: container, slot: slot.address)
        continue
      }
      var outcome = InitializerRegistry.Outcome()
      do {
        let built = try await _FirstRead.load(
          Value.self, for: container, slot: slot.address, box: word, outcome: &outcome)
        _FirstRead.didReplace(word)  // The empty box, consumed.
        ResolutionFrame.noteRead(outcome.uses)  // The caller may be building with the value.
        return _publish(
          built, word: _word(for: built, outcome: outcome), isObserved: outcome.isObserved,
          in: container, slot: slot, marker: marker)
      } catch {
        SlotLock.lock(object)
        let isRestored = slot.word == marker  // Else assigned or reset meanwhile: that stays.
        if isRestored { slot.word = word }
        SlotLock.unlock(object)
        _FirstRead.didReplace(isRestored ? marker : word)  // Wakes the waiters in either case.
        throw error
      }
    }
  }

  /// Assigns `value`, in a box with no rule; what it replaces is released after unlocking.
  @usableFromInline internal static func _assign(
    _ value: Value, in container: AnyObject, slot: _LazySlot
  ) { _replace(in: container, slot: slot, with: _word(for: value, outcome: .init())) }

  /// Puts `word`, retained (0 to reset), in the slot; what it replaces is released after unlocking.
  ///
  /// A reset forgets the layers the object was made under, if the slot still had them: the next
  /// read resolves with the reader's.
  internal static func _replace(in container: AnyObject, slot: _LazySlot, with word: UInt) {
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    let replaced = slot.word
    slot.word = word
    SlotLock.unlock(object)
    _FirstRead.didReplace(replaced)
  }

  /// Whether the slot of `container` holds a value, and the rule that produced it (nil if
  /// assigned).
  internal static func _state(in container: AnyObject, slot: _LazySlot)
    -> (isResolved: Bool, rule: InitializerRegistry.Rule?)
  {
    let object = RawMemory.address(of: container)
    SlotLock.lock(object)
    let word = slot.word
    let content = SlotWord.content(
      of: word, marker: _lazyinject_in_flight_marker(), storesObject: isSingleReference(Value.self))
    // Read under the lock: another thread may replace and release the box once unlocked.
    var origin: ValueOrigin?
    if content == .boxed || content == .inObjectBox {
      let box = RawMemory.object(atWord: word)
      origin = (box as? _LazyObjectBox)?.origin ?? (box as? _LazyBox<Value>)?.origin
    }
    SlotLock.unlock(object)
    guard content == .object else { return (content.isValue, origin?.rule) }
    let first = InitializerRegistry.shared.withState {
      $0.rules.firstRule(of: Value.self, in: type(of: container))
    }
    return (true, first?.rule)
  }
}
