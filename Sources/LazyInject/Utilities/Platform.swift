import Dispatch
import _LazyInjectShims

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#endif

// What LazyInject asks of the platform: locks (the registry's, and the slots' striped ones), the
// main actor, standard error, the environment.

/// A mutex with a condition, at a stable heap address.
///
/// The pthread primitives live in the tail of a `ManagedBuffer`, never in a Swift `var`, so their
/// address does not move. `Synchronization.Mutex` would do, but needs iOS 18 / macOS 15.
///
/// The pthread calls cannot fail as they are used here (a default mutex, never locked twice by a
/// thread, unlocked by its owner): debug builds check their results, and count the mutexes each
/// thread holds, so that `SlotLock.assertNoLockHeld()` can tell that no user code runs under one.
final class Lock: Sendable {
  /// The condition lives in the header and the mutex in the single element, so each has a pointer
  /// of its own (passing `&pointee.field` would be an inout access, seen as a write by TSan).
  private typealias Storage = ManagedBuffer<pthread_cond_t, pthread_mutex_t>

  // Created in `init` and never replaced; its contents are only touched through pthread calls,
  // which synchronize themselves.
  nonisolated(unsafe) private let storage: Storage

  init() {
    storage = Storage.create(minimumCapacity: 1) { _ in pthread_cond_t() }
    storage.withUnsafeMutablePointers { condition, mutex in
      mutex.initialize(to: pthread_mutex_t())
      // Can fail only for want of memory or a bad attribute: nothing to recover from.
      precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0)
    }
  }

  deinit {
    storage.withUnsafeMutablePointers { condition, mutex in
      Self.check(pthread_cond_destroy(condition) | pthread_mutex_destroy(mutex))
      mutex.deinitialize(count: 1)
    }
  }

  /// Runs `body` with the mutex held.
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Takes the mutex, for a caller that must leave it where no `withLock` scope ends (the
  /// registry's `withState`: a result wrapped in an optional to leave it cost 12% of a module's
  /// installation); pair it with `unlock()`.
  func lock() { change({ pthread_mutex_lock($0) }, isLocked: 1) }

  /// Leaves the mutex that `lock()` took.
  func unlock() { change({ pthread_mutex_unlock($0) }, isLocked: 0) }

  /// Takes or leaves the mutex with `call`; notes it in debug builds.
  private func change(_ call: (UnsafeMutablePointer<pthread_mutex_t>) -> Int32, isLocked: Int32) {
    storage.withUnsafeMutablePointerToElements { mutex in
      Self.check(call(mutex))
      #if DEBUG
        _lazyinject_checked_note_mutex(mutex, isLocked)
      #endif
    }
  }

  /// Checks, in debug builds, that the calling thread holds the mutex.
  @inline(__always) func assertHeld() {
    #if DEBUG
      storage.withUnsafeMutablePointerToElements { mutex in
        assert(_lazyinject_checked_holds_mutex(mutex) != 0, "state read without its lock")
      }
    #endif
  }

  /// Releases the mutex until another thread calls `broadcast()`, or until `seconds` have
  /// passed.
  ///
  /// Call only inside `withLock`.
  func wait(seconds: Int? = nil) {
    var deadline = timespec()
    clock_gettime(CLOCK_REALTIME, &deadline)
    deadline.tv_sec += seconds ?? 0
    storage.withUnsafeMutablePointers { condition, mutex in
      let result =
        seconds == nil
        ? pthread_cond_wait(condition, mutex) : pthread_cond_timedwait(condition, mutex, &deadline)
      assert(result == 0 || result == ETIMEDOUT, "pthread_cond_wait failed: \(result)")
    }
  }

  /// Wakes every thread in `wait()`.
  ///
  /// Call only inside `withLock`.
  func broadcast() {
    storage.withUnsafeMutablePointerToHeader { Self.check(pthread_cond_broadcast($0)) }
  }

  /// Checks, in debug builds, that pthread calls returned 0.
  @inline(__always) private static func check(_ result: Int32) {
    assert(result == 0, "a pthread call failed: \(result)")
  }
}

/// A value guarded by a `Lock`.
///
/// `@unchecked Sendable`: `lock` guards the value; every access goes through `value`, which
/// checks in debug builds that the calling thread holds it.
package final class Protected<Value>: @unchecked Sendable {
  let lock = Lock()
  // The lock makes Swift's dynamic exclusivity checks redundant.
  @exclusivity(unchecked) private var stored: Value

  package init(_ value: Value) { stored = value }

  /// The value; read and write it only with `lock` held.
  var value: Value {
    _read {
      lock.assertHeld()
      yield stored
    }
    _modify {
      lock.assertHeld()
      yield &stored
    }
  }

  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}

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
    _lazyinject_stripe_lock(_lazyinject_stripe_for(object))
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
    _lazyinject_stripe_unlock(_lazyinject_stripe_for(object))
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

/// Whether the calling code runs on the main actor: on the main thread, or in a job of the main
/// queue, which serves the main actor (on Linux, a worker thread may drain it, as under Swift
/// Testing, where the runtime's own check says no).
package func isOnMainActor() -> Bool {
  _lazyinject_is_main_thread() != 0 || DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

/// A key that only the main queue has, to tell its jobs from others.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Writes `text` to standard error, where warnings belong (standard output is the program's).
internal func writeToStandardError(_ text: String) {
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    guard written > 0 else { return }
    bytes = bytes.dropFirst(written)
  }
}

/// The value of the environment variable `name`, if it is set.
internal func environmentValue(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}

/// Stores `value` in `place` and returns what `place` held, for release after unlocking.
internal func exchange<Value>(_ place: inout Value, with value: Value) -> Value {
  defer { place = value }
  return place
}
