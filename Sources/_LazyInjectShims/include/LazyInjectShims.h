// Locks for the slots of `@Lazy`, a wait count, per-thread pointers, what the runtime reads of
// Swift metadata, the fast path's table, and the bookkeeping of debug-build checks.
// Internal to LazyInject: the names start with an underscore and may change in any release.
#ifndef LAZYINJECT_SHIMS_H
#define LAZYINJECT_SHIMS_H

#include <stdint.h>

#if defined(__APPLE__)
#include <os/lock.h>
#endif

/// One of the locks that guard the slots of `@Lazy` properties, on a cache line of its own.
typedef struct {
#if defined(__APPLE__)
  os_unfair_lock lock;  // Donates priority, unlike a spin lock.
#else
  uint32_t isLocked;
#endif
  char padding[60];
} _lazyinject_stripe;

#define LAZYINJECT_STRIPE_COUNT 64
extern _lazyinject_stripe _lazyinject_stripes[LAZYINJECT_STRIPE_COUNT];

/// The lock that guards the `@Lazy` slots of the object at `object`.
static inline _lazyinject_stripe *_Nonnull _lazyinject_stripe_for(const void *_Nonnull object) {
  uintptr_t address = (uintptr_t)object;
  return &_lazyinject_stripes[((address >> 4) ^ (address >> 10)) % LAZYINJECT_STRIPE_COUNT];
}

#if defined(__APPLE__)
static inline void _lazyinject_stripe_lock(_lazyinject_stripe *_Nonnull s) { os_unfair_lock_lock(&s->lock); }
static inline void _lazyinject_stripe_unlock(_lazyinject_stripe *_Nonnull s) { os_unfair_lock_unlock(&s->lock); }
#else
void _lazyinject_lock_contended(_lazyinject_stripe *_Nonnull stripe);
static inline void _lazyinject_stripe_lock(_lazyinject_stripe *_Nonnull stripe) {
  if (__atomic_exchange_n(&stripe->isLocked, 1, __ATOMIC_ACQUIRE) != 0) _lazyinject_lock_contended(stripe);
}
static inline void _lazyinject_stripe_unlock(_lazyinject_stripe *_Nonnull stripe) {
  __atomic_store_n(&stripe->isLocked, 0, __ATOMIC_RELEASE);
}
#endif

/// The hash of a (property type, container class) pair, by their metadata addresses (cast to
/// integers): the fast path's table probes by its low bits. Mixed in 64 bits whatever the
/// word size (on watchOS's arm64_32, shifting a word by 32 would be undefined behaviour), and
/// folded so that the low bits depend on every bit of both: metadata addresses are aligned and
/// evenly spaced, and a plain multiplicative hash left most buckets of a table empty
/// (`PairHashTests`).
static inline uint64_t _lazyinject_hash_words(uint64_t property, uint64_t container) {
  uint64_t mixed = (property ^ container * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull;
  return mixed ^ (mixed >> 32);
}

/// The address of the object that marks a slot as being resolved, or 0 before the first
/// resolution. Written once, before any slot can hold it; read atomically, since a first read on
/// another thread may be writing it (an acquire load is a plain load on x86 and arm64).
extern uintptr_t _lazyinject_in_flight_marker_storage;
static inline uintptr_t _lazyinject_in_flight_marker(void) {
  return __atomic_load_n(&_lazyinject_in_flight_marker_storage, __ATOMIC_ACQUIRE);
}
static inline void _lazyinject_set_in_flight_marker(uintptr_t marker) {
  __atomic_store_n(&_lazyinject_in_flight_marker_storage, marker, __ATOMIC_RELEASE);
}

/// The class (metadata address) of `_LazyObjectBox`, the box of a class-typed value that carries
/// its rule, or 0 before the first box is made. Written once, before any slot can hold a box;
/// compared with an object's class as Swift's `type(of:)` reads it, which spares the hot read
/// the class's metadata accessor.
extern uintptr_t _lazyinject_object_box_class_storage;
static inline uintptr_t _lazyinject_object_box_class(void) {
  return __atomic_load_n(&_lazyinject_object_box_class_storage, __ATOMIC_RELAXED);
}
static inline void _lazyinject_set_object_box_class(uintptr_t metadata) {
  __atomic_store_n(&_lazyinject_object_box_class_storage, metadata, __ATOMIC_RELAXED);
}

/// 1 once an override layer was created in this process, 2 while builds are recorded: until
/// either, resolutions skip reading the task-local layers, which are necessarily empty (a read
/// cost a sixth of a first read, measured), and first reads may take the fast path.
extern int _lazyinject_overrides_used_storage;
static inline int _lazyinject_overrides_used(void) {
  return __atomic_load_n(&_lazyinject_overrides_used_storage, __ATOMIC_ACQUIRE);
}
/// Whether an override layer was created in this process (bit 1 alone): what a check for layers
/// reads, so that recording sends first reads off the fast path without making every object's
/// creation and resolution read the task-local layers.
static inline int _lazyinject_layers_made(void) {
  return _lazyinject_overrides_used() & 1;
}
static inline void _lazyinject_set_overrides_used(void) {
  __atomic_fetch_or(&_lazyinject_overrides_used_storage, 1, __ATOMIC_RELEASE);
}
static inline void _lazyinject_set_recording(int isOn) {
  if (isOn) __atomic_fetch_or(&_lazyinject_overrides_used_storage, 2, __ATOMIC_RELEASE);
  else __atomic_fetch_and(&_lazyinject_overrides_used_storage, ~2, __ATOMIC_RELEASE);
}

/// Threads waiting for a value another thread is building. A waiter counts itself, then looks
/// at the slot under the slot's lock; a publisher writes the slot under that lock, then reads the
/// count. The lock orders the two, so a publisher that reads 0 has published before the waiter
/// looked, and the waiter sees the value.
extern intptr_t _lazyinject_waiters_storage;
static inline intptr_t _lazyinject_waiters_add(intptr_t delta) {
  return __atomic_add_fetch(&_lazyinject_waiters_storage, delta, __ATOMIC_SEQ_CST);
}
static inline intptr_t _lazyinject_waiters(void) {
  return __atomic_load_n(&_lazyinject_waiters_storage, __ATOMIC_ACQUIRE);
}

/// Thread-local variables of the shims use the initial-exec model where the platform has models:
/// an access is then one instruction, where the general-dynamic model (the default for
/// position-independent code) calls `__tls_get_addr` (4% of a first read, measured with perf).
/// It suits a library linked into the program or loaded with it, which is how Swift packages are
/// built; a library opened later with `dlopen` would take from the static TLS reserve.
#if defined(__ELF__)
#define LAZYINJECT_TLS _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define LAZYINJECT_TLS _Thread_local
#endif

/// The innermost resolution under way on the calling thread, or NULL.
extern LAZYINJECT_TLS void *_Nullable _lazyinject_current_frame_storage;
static inline void *_Nullable _lazyinject_current_frame(void) {
  return _lazyinject_current_frame_storage;
}
static inline void _lazyinject_set_current_frame(void *_Nullable frame) {
  _lazyinject_current_frame_storage = frame;
}

/// The calling thread's memory for resolution frames, or NULL before its first resolution.
extern LAZYINJECT_TLS void *_Nullable _lazyinject_frame_arena_storage;
void *_Nonnull _lazyinject_make_frame_arena(uintptr_t bytes);

/// The calling thread's memory for resolution frames, `bytes` long, allocated on first use and
/// freed when the thread exits. Frames live there rather than on the call stack, which deep
/// chains of resolutions would otherwise use up sooner.
static inline void *_Nonnull _lazyinject_frame_arena(uintptr_t bytes) {
  void *arena = _lazyinject_frame_arena_storage;
  return arena != 0 ? arena : _lazyinject_make_frame_arena(bytes);
}

/// An address unique to the calling thread while it lives.
const void *_Nonnull _lazyinject_thread_identity(void);

/// The lowest address of the calling thread's stack that a resolution may reach: the stack's
/// end plus a margin for reporting an error (building its message, stopping the program).
/// 0 until computed, on the thread's first resolution; 1 if the stack's bounds are unknown.
extern LAZYINJECT_TLS uintptr_t _lazyinject_stack_floor_storage;
uintptr_t _lazyinject_compute_stack_floor(void);

/// Whether the calling thread's stack is nearly used up: nested resolutions must stop here.
static inline int _lazyinject_stack_is_low(void) {
  uintptr_t floor = _lazyinject_stack_floor_storage;
  return (uintptr_t)__builtin_frame_address(0) < (floor != 0 ? floor : _lazyinject_compute_stack_floor());
}

/// Retains the Swift object at `object`, where no optimizer moves the retain: a reader retains
/// what a slot names before it unlocks the slot, and Swift's reference-counting optimizations
/// may sink its own retains past the inlined unlock (a release store they do not order with).
void _lazyinject_retain(const void *_Nonnull object);

/// Whether the calling thread is the main thread, where the main actor runs synchronous code.
/// Asked of the system once per thread.
int _lazyinject_is_main_thread(void);

/// Whether a weak reference can hold a value of `type`, from the metadata's kind and flags: 1 for
/// a class or a class-bound existential (`any P` where `P: AnyObject`, `AnyObject`), 0 for a type
/// that is certainly neither, -1 when the kind does not tell (an extended existential such as
/// `any P<Int>`, kind 0x307, whose shape is not read here): the first value then decides.
int _lazyinject_is_weakly_referenceable(const void *_Nonnull type);

/// Whether the compiler emitted field records for the Swift type whose metadata is `metadata`
/// (a module built with `-disable-reflection-metadata` has none, and the standard library's
/// field reflection then lists no field at all); 1 for a type that is not a Swift type.
int _lazyinject_has_field_records(const void *_Nonnull metadata);

/// Whether the class whose metadata is `metadata` is a Swift class, whose stored properties Swift
/// reflection lists; 0 for an Objective-C class, such as one declared `@objc @implementation`.
int _lazyinject_is_swift_class(const void *_Nonnull metadata);

/// For `(any P).self`, the existential metatype `any P.Type`; NULL for any other type.
/// Diagnostics use it to ask whether a registered type conforms to a requested protocol.
const void *_Nullable _lazyinject_existential_metatype(const void *_Nonnull type);

/// Whether `type` is an `Optional` (MetadataKind::Optional, 0x202): asked before a cast to a
/// protocol only optionals conform to, which for any other type would search every conformance
/// record of the process.
static inline int _lazyinject_is_optional(const void *_Nonnull type) {
  return *(const uintptr_t *)type == 0x202;
}

/// The first generic argument of the generic struct whose metadata is `metadata`: a struct's
/// metadata is its kind and its descriptor, then its generic arguments (TargetStructMetadata).
static inline const void *_Nonnull _lazyinject_first_generic_argument(const void *_Nonnull metadata) {
  return ((const void *const *)metadata)[2];
}

// The fast path's table: what the first read of a `@Lazy` property needs, found without the
// registry's lock (see `FastPath.swift`; FastPathTable.c).

/// The entry kinds.
enum {
  /// `payload` is the handle of the object a `.singleton` or custom-scope registration keeps.
  LAZYINJECT_FAST_KEPT_HANDLE = 1,
  /// `payload` is a `.unique` registration.
  LAZYINJECT_FAST_BUILD = 2,
};

/// How many references to an object an entry takes at once for the readers of one slot lock.
#define LAZYINJECT_FAST_CREDIT_BATCH 64

/// What the shared registry's fast path is for one (property type, container class) pair.
/// Immutable once in the table, but for the credits.
typedef struct {
  const void *_Nonnull property;
  const void *_Nonnull container;
  /// Unretained: kept alive by the registry for as long as the entry is in the table (see
  /// `FastPath.swift`).
  void *_Nonnull payload;
  /// For a kept handle, the object it holds (the handle is not emptied while the entry exists).
  void *_Nullable object;
  uint32_t kind;
  /// `FastPath.observed` (1), `FastPath.mainActor` (2).
  uint32_t flags;
  /// References to `payload`, then to `object`, that the entry holds for the readers of each slot
  /// lock: a first read takes one under its slot lock with no atomic operation (a `.unique` build
  /// gives its back, `_lazyinject_fast_give_back`), and the entry returns what is left when the
  /// table is emptied (`_lazyinject_fast_clear`).
  uint8_t credits[2][LAZYINJECT_STRIPE_COUNT];
} _lazyinject_fast_entry;

extern void *_Nonnull swift_retain_n(void *_Nonnull object, uint32_t count);

/// One reference to `object` (credit pool `pool`: 0 for the payload, 1 for the object) for a first
/// read of `container`, whose slot lock the caller holds: taken from the entry's credits for that
/// lock, which get a new batch (one atomic retain) when spent. Returns those credits, for
/// `_lazyinject_fast_give_back`.
static inline uint8_t *_Nonnull _lazyinject_fast_take(_lazyinject_fast_entry *_Nonnull entry,
                                                      int pool, const void *_Nonnull container,
                                                      void *_Nonnull object) {
  uint8_t *credit = &entry->credits[pool][_lazyinject_stripe_for(container) - _lazyinject_stripes];
  if (*credit == 0) {
    swift_retain_n(object, LAZYINJECT_FAST_CREDIT_BATCH);
    *credit = LAZYINJECT_FAST_CREDIT_BATCH;
  }
  *credit -= 1;
  return credit;
}

/// Open addressing over pointers to entries; `mask + 1` slots, a power of two.
typedef struct {
  uintptr_t mask;
  uintptr_t count;
  _lazyinject_fast_entry *_Nullable slots[];
} _lazyinject_fast_table;

extern _lazyinject_fast_table *_Nullable _lazyinject_fast_storage;

/// The entry for `property` in `container`, or NULL.
///
/// Call with a slot lock held (any stripe), and read the entry before unlocking: what a cleared
/// table named may be freed as soon as every stripe was unlocked once.
static inline _lazyinject_fast_entry *_Nullable _lazyinject_fast_find(
    const void *_Nonnull property, const void *_Nonnull container) {
  _lazyinject_fast_table *table = __atomic_load_n(&_lazyinject_fast_storage, __ATOMIC_ACQUIRE);
  if (table == 0) return 0;
  uintptr_t index = _lazyinject_hash_words((uintptr_t)property, (uintptr_t)container) & table->mask;
  for (;; index = (index + 1) & table->mask) {
    _lazyinject_fast_entry *entry = __atomic_load_n(&table->slots[index], __ATOMIC_ACQUIRE);
    if (entry == 0 || (entry->property == property && entry->container == container)) return entry;
  }
}

/// How many times the table was emptied: a decision reads it under the shared registry's lock,
/// and its entry is inserted only if no clear came between (`_lazyinject_fast_insert`).
extern uint64_t _lazyinject_fast_version_storage;
static inline uint64_t _lazyinject_fast_version(void) {
  return __atomic_load_n(&_lazyinject_fast_version_storage, __ATOMIC_RELAXED);
}

/// Gives back to `credit` the reference that `_lazyinject_fast_take` took from it when the
/// table's version was `version`: 1 if given back, with no atomic operation; 0 if the table was
/// emptied since (the entry may be freed) or the credits are full, and the caller then releases
/// the reference itself.
///
/// Call with the slot lock of the take held again. A clear increments the version before it takes
/// every slot lock, and frees entries only after: a clear that got past this lock is seen here.
static inline int _lazyinject_fast_give_back(uint8_t *_Nonnull credit, uint64_t version) {
  if (_lazyinject_fast_version() != version || *credit == UINT8_MAX) return 0;
  *credit += 1;
  return 1;
}

/// Adds an entry, unless the pair has one or the table was emptied since `version` was read (the
/// registry's state the entry was decided from may have changed). Call with no slot lock held.
void _lazyinject_fast_insert(const void *_Nonnull property, const void *_Nonnull container,
                             void *_Nonnull payload, void *_Nullable object, uint32_t kind,
                             uint32_t flags, uint64_t version);

/// Empties the table and moves its version on, and returns once no thread can still read what it
/// held, with the references its entries held for readers released. Call with the shared
/// registry's lock held (every change to its state) and no slot lock.
void _lazyinject_fast_clear(void);

/// Takes every slot lock, in order, to change what slots of any object read (a reset empties
/// handles): a thread that holds one slot lock never takes another, so this cannot deadlock.
void _lazyinject_lock_every_stripe(void);

/// Lets go of every slot lock that `_lazyinject_lock_every_stripe` took.
void _lazyinject_unlock_every_stripe(void);

// Bookkeeping for LazyInject's debug-build checks and the record of the way first reads went
// (Checks.c): first reads and locks call these only in debug builds (`#if DEBUG`), so that
// release builds pay nothing for them; the package's tests read the record in any build.

/// Records that the calling thread took (`isLocked` 1) or let go of (0) the slot lock of
/// `object`: a bit per stripe, in a thread-local mask.
void _lazyinject_checked_note_slot_lock(const void *_Nonnull object, int isLocked);

/// Whether the calling thread holds the slot lock of `object`, as noted.
int _lazyinject_checked_holds_slot_lock(const void *_Nonnull object);

/// The stripes the calling thread holds, as noted: one bit per stripe.
uint64_t _lazyinject_checked_held_slot_locks(void);

/// Records that the calling thread took (`isLocked` 1) or let go of (0) the mutex at `mutex`
/// (`Lock`).
void _lazyinject_checked_note_mutex(const void *_Nonnull mutex, int isLocked);

/// Whether the calling thread holds the mutex at `mutex`, as noted.
int _lazyinject_checked_holds_mutex(const void *_Nonnull mutex);

/// How many mutexes the calling thread holds, as noted.
intptr_t _lazyinject_checked_held_mutexes(void);

/// Records that a first read on the calling thread took `path` (a `FirstReadPath` raw value).
void _lazyinject_first_read_path_record(int path);

/// The path of the calling thread's last first read, or -1 if it made none since the last reset
/// (recording -1 forgets it).
int _lazyinject_first_read_last_path(void);

#endif
