import _LazyInjectShims

/// The locks that guard the slots of `@Lazy` and `@WeakLazy` properties: 64 stripes, chosen by
/// the object's address (`LazyInjectShims.h`).
///
/// A stripe is held only to read or write a slot, never while user code runs, and never twice
/// by one thread (it is not recursive). Debug builds note the stripes each thread holds and
/// check these rules; release builds take the lock and nothing else.
@usableFromInline internal enum SlotLock {
  /// Takes the slot lock of `object`.
  @inlinable @inline(__always) internal static func lock(_ object: UnsafeRawPointer) {
    #if DEBUG
      assert(_lazyinject_checked_holds_slot_lock(object) == 0, "slot lock taken twice")
    #endif
    _lazyinject_lock(object)
    #if DEBUG
      _lazyinject_checked_note_slot_lock(object, 1)
    #endif
  }

  /// Lets go of the slot lock of `object`, which this thread holds.
  @inlinable @inline(__always) internal static func unlock(_ object: UnsafeRawPointer) {
    #if DEBUG
      assert(_lazyinject_checked_holds_slot_lock(object) != 0, "slot lock released unheld")
      _lazyinject_checked_note_slot_lock(object, 0)
    #endif
    _lazyinject_unlock(object)
  }

  /// Checks, in debug builds, that this thread holds the slot lock of `object`.
  @inlinable @inline(__always) internal static func assertHeld(_ object: UnsafeRawPointer) {
    #if DEBUG
      assert(_lazyinject_checked_holds_slot_lock(object) != 0, "slot read without its lock")
    #endif
  }

  /// Checks, in debug builds, that this thread holds no lock of LazyInject: user code (an
  /// initializer, a deinit, an observer) is about to run.
  @inlinable @inline(__always) internal static func assertNoLockHeld() {
    #if DEBUG
      assert(_lazyinject_checked_held_slot_locks() == 0, "user code called under a slot lock")
      assert(
        _lazyinject_checked_held_mutexes() == 0, "user code called under a mutex of LazyInject")
    #endif
  }
}
