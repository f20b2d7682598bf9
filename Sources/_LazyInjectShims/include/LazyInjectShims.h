// Locks for the slots of `@Lazy`, a wait count, and a per-thread pointer.
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

/// Locks the slots of `object`. Held only to read or write a slot: never while user code runs.
static inline void _lazyinject_lock(const void *_Nonnull object) {
  _lazyinject_stripe_lock(_lazyinject_stripe_for(object));
}

static inline void _lazyinject_unlock(const void *_Nonnull object) {
  _lazyinject_stripe_unlock(_lazyinject_stripe_for(object));
}

/// The hash of a (property type, container class) pair, by their metadata addresses: the
/// fast path's table probes by its low bits. Mixed in 64 bits whatever the
/// word size (on watchOS's arm64_32, shifting a word by 32 would be undefined behaviour), and
/// folded so that the low bits depend on every bit of both: metadata addresses are aligned and
/// evenly spaced, and a plain multiplicative hash left most buckets of a table empty
/// (`PairHashTests`).
static inline uint64_t _lazyinject_hash_words(uint64_t property, uint64_t container) {
  uint64_t mixed = (property ^ container * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull;
  return mixed ^ (mixed >> 32);
}
static inline uintptr_t _lazyinject_pair_hash(const void *_Nonnull property,
                                              const void *_Nonnull container) {
  return (uintptr_t)_lazyinject_hash_words((uintptr_t)property, (uintptr_t)container);
}

/// The address of the object that marks a slot as being resolved, or 0 before the first
/// resolution. Written once, before any slot can hold it; read atomically, since a first read on
/// another thread may be writing it (an acquire load is a plain load on x86 and arm64).
extern uintptr_t _lazyinject_in_flight_marker_storage;
static inline uintptr_t _lazyinject_in_flight_marker(void) {
  return __atomic_load_n(&_lazyinject_in_flight_marker_storage, __ATOMIC_ACQUIRE);
}
void _lazyinject_set_in_flight_marker(uintptr_t marker);

/// The class (metadata address) of `_LazyObjectBox`, the box of a class-typed value that carries
/// its rule, or 0 before the first box is made. Written once, before any slot can hold a box;
/// compared with an object's class as Swift's `type(of:)` reads it, which spares the hot read
/// the class's metadata accessor.
extern uintptr_t _lazyinject_object_box_class_storage;
static inline uintptr_t _lazyinject_object_box_class(void) {
  return __atomic_load_n(&_lazyinject_object_box_class_storage, __ATOMIC_RELAXED);
}
void _lazyinject_set_object_box_class(uintptr_t metadata);

/// 1 once an override layer was created in this process, 2 while builds are recorded: until
/// either, resolutions skip reading the task-local layers, which are necessarily empty (a read
/// cost a sixth of a first read, measured), and first reads may take the fast path.
extern int _lazyinject_overrides_used_storage;
static inline int _lazyinject_overrides_used(void) {
  return __atomic_load_n(&_lazyinject_overrides_used_storage, __ATOMIC_ACQUIRE);
}
void _lazyinject_set_overrides_used(void);
void _lazyinject_set_recording(int isOn);

/// Threads waiting for a value another thread is building. A waiter counts itself, then looks
/// at the slot under the slot's lock; a publisher writes the slot under that lock, then reads the
/// count. The lock orders the two, so a publisher that reads 0 has published before the waiter
/// looked, and the waiter sees the value.
intptr_t _lazyinject_waiters_add(intptr_t delta);
static inline intptr_t _lazyinject_waiters(void) {
  extern intptr_t _lazyinject_waiters_storage;
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

#endif
