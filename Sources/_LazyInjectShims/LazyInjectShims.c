#define _GNU_SOURCE  // pthread_getattr_np

#include "LazyInjectShims.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/resource.h>
#else
#include <sys/syscall.h>
#endif

_lazyinject_stripe _lazyinject_stripes[LAZYINJECT_STRIPE_COUNT];
uintptr_t _lazyinject_in_flight_marker_storage = 0;
intptr_t _lazyinject_waiters_storage = 0;
LAZYINJECT_TLS void *_lazyinject_current_frame_storage = 0;
int _lazyinject_overrides_used_storage = 0;
uintptr_t _lazyinject_object_box_class_storage = 0;

void _lazyinject_set_object_box_class(uintptr_t metadata) {
  __atomic_store_n(&_lazyinject_object_box_class_storage, metadata, __ATOMIC_RELAXED);
}

void _lazyinject_set_overrides_used(void) {
  __atomic_fetch_or(&_lazyinject_overrides_used_storage, 1, __ATOMIC_RELEASE);
}

void _lazyinject_set_recording(int isOn) {
  if (isOn) __atomic_fetch_or(&_lazyinject_overrides_used_storage, 2, __ATOMIC_RELEASE);
  else __atomic_fetch_and(&_lazyinject_overrides_used_storage, ~2, __ATOMIC_RELEASE);
}

#if !defined(__APPLE__)
void _lazyinject_lock_contended(_lazyinject_stripe *stripe) {
  for (unsigned spins = 0;; spins++) {
    if (__atomic_load_n(&stripe->isLocked, __ATOMIC_RELAXED) == 0 &&
        __atomic_exchange_n(&stripe->isLocked, 1, __ATOMIC_ACQUIRE) == 0) return;
    if (spins > 64) sched_yield();
  }
}
#endif

void _lazyinject_set_in_flight_marker(uintptr_t marker) {
  __atomic_store_n(&_lazyinject_in_flight_marker_storage, marker, __ATOMIC_RELEASE);
}

intptr_t _lazyinject_waiters_add(intptr_t delta) {
  return __atomic_add_fetch(&_lazyinject_waiters_storage, delta, __ATOMIC_SEQ_CST);
}

const void *_lazyinject_thread_identity(void) { return &_lazyinject_current_frame_storage; }

/// Room kept below a resolution for reporting that the stack is nearly used up.
#define LAZYINJECT_STACK_MARGIN (64 * 1024)

LAZYINJECT_TLS uintptr_t _lazyinject_stack_floor_storage = 0;

uintptr_t _lazyinject_compute_stack_floor(void) {
  // The calling thread's stack, [bottom, top), as the system reports it; empty when it does not.
  uintptr_t bottom = 0, top = 0, here = (uintptr_t)__builtin_frame_address(0);
#if defined(__APPLE__)
  pthread_t thread = pthread_self();
  top = (uintptr_t)pthread_get_stackaddr_np(thread);
  size_t size = pthread_get_stacksize_np(thread);
  // Some OS versions report a wrong size for the main thread (WebKit's StackBounds.cpp,
  // rdar://13741204): its stack is what the resource limit says.
  struct rlimit limit;
  if (pthread_main_np() != 0 && getrlimit(RLIMIT_STACK, &limit) == 0 &&
      limit.rlim_cur != RLIM_INFINITY) size = (size_t)limit.rlim_cur;
  bottom = top - size;
#else
  pthread_attr_t attributes;
  void *address = 0;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    if (pthread_attr_getstack(&attributes, &address, &size) == 0) {
      bottom = (uintptr_t)address;
      top = bottom + size;
    }
    pthread_attr_destroy(&attributes);
  }
#endif
  // Trusted only if the current frame lies inside, above the margin: a wrong size would give a
  // false "too deep" stop, or a guard that never fires. Unknown (1): no guard.
  int trusted = top > bottom && bottom + LAZYINJECT_STACK_MARGIN < here && here <= top;
  return _lazyinject_stack_floor_storage = trusted ? bottom + LAZYINJECT_STACK_MARGIN : 1;
}

// The Swift runtime's entry points, ABI-stable since Swift 5.0.
extern void *swift_retain(void *object);
extern const void *swift_getExistentialMetatypeMetadata(const void *instanceType);
extern const void *swift_getTypeContextDescriptor(const void *metadata);

/// Metadata kinds of the Swift ABI (MetadataKind.def): every kind above the last enumerated one
/// is an Objective-C class's isa pointer.
enum {
  LAZYINJECT_CLASS_KIND = 0, LAZYINJECT_FOREIGN_CLASS_KIND = 0x203,
  LAZYINJECT_EXISTENTIAL_KIND = 0x303, LAZYINJECT_OBJC_CLASS_WRAPPER_KIND = 0x305,
  LAZYINJECT_EXTENDED_EXISTENTIAL_KIND = 0x307, LAZYINJECT_LAST_ENUMERATED_KIND = 0x7FF,
};

/// ExistentialTypeFlags: the bit that says the existential is not class-bound.
#define LAZYINJECT_EXISTENTIAL_ANY_CONSTRAINT 0x80000000u

int _lazyinject_is_weakly_referenceable(const void *type) {
  uintptr_t kind = *(const uintptr_t *)type;
  if (kind == LAZYINJECT_CLASS_KIND || kind > LAZYINJECT_LAST_ENUMERATED_KIND ||
      kind == LAZYINJECT_FOREIGN_CLASS_KIND || kind == LAZYINJECT_OBJC_CLASS_WRAPPER_KIND)
    return 1;
  // The flags follow the kind word: ExistentialTypeMetadata { Kind; Flags; NumProtocols; ... }.
  if (kind == LAZYINJECT_EXISTENTIAL_KIND)
    return (*(const uint32_t *)((const uintptr_t *)type + 1) & LAZYINJECT_EXISTENTIAL_ANY_CONSTRAINT) == 0;
  // An extended existential (`any P<Int>`) keeps its class constraint in a shape reached through
  // a pointer that is signed on arm64e: not read here.
  return kind == LAZYINJECT_EXTENDED_EXISTENTIAL_KIND ? -1 : 0;
}

int _lazyinject_has_field_records(const void *metadata) {
  // TargetTypeContextDescriptor (Metadata.h): flags, parent, name, access function, fields,
  // each 32 bits; the field descriptor's relative offset is 0 when the compiler emitted none.
  const int32_t *descriptor = swift_getTypeContextDescriptor(metadata);
  return descriptor == NULL || descriptor[4] != 0;
}

int _lazyinject_is_swift_class(const void *metadata) {
#if defined(__APPLE__)
  // TargetClassMetadata (Metadata.h) with Objective-C interop: isa, superclass, two cache words,
  // then the rodata word, whose low bits Swift sets (FAST_IS_SWIFT_LEGACY 1, FAST_IS_SWIFT_STABLE
  // 2, as TargetClassMetadata::isTypeMetadata() reads them); an Objective-C class's is a pointer.
  return (((const uintptr_t *)metadata)[4] & 3) != 0;
#else
  (void)metadata;
  return 1;  // No Objective-C classes.
#endif
}

const void *_lazyinject_existential_metatype(const void *type) {
  return *(const uintptr_t *)type == LAZYINJECT_EXISTENTIAL_KIND
             ? swift_getExistentialMetatypeMetadata(type) : 0;
}

static pthread_key_t frame_arena_key;
static pthread_once_t frame_arena_once = PTHREAD_ONCE_INIT;
LAZYINJECT_TLS void *_lazyinject_frame_arena_storage = 0;

/// Frees the exiting thread's arena, and forgets it: a resolution from a later destructor of the
/// same thread allocates a new one (POSIX runs destructors again for keys set meanwhile).
static void free_frame_arena(void *arena) {
  free(arena);
  _lazyinject_frame_arena_storage = 0;
}

static void create_frame_arena_key(void) { pthread_key_create(&frame_arena_key, free_frame_arena); }

void *_lazyinject_make_frame_arena(uintptr_t bytes) {
  pthread_once(&frame_arena_once, create_frame_arena_key);
  void *arena = malloc(bytes);
  if (arena == 0) abort();
  _lazyinject_frame_arena_storage = arena;
  pthread_setspecific(frame_arena_key, arena);  // Freed at the thread's exit.
  return arena;
}

static LAZYINJECT_TLS int is_main_thread = -1;

int _lazyinject_is_main_thread(void) {
#if defined(__APPLE__)
  if (is_main_thread < 0) is_main_thread = pthread_main_np() != 0;
#else
  if (is_main_thread < 0) is_main_thread = syscall(SYS_gettid) == getpid();
#endif
  return is_main_thread;
}

void _lazyinject_retain(const void *object) { swift_retain((void *)object); }
