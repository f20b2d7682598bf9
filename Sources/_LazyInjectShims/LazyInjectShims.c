#define _GNU_SOURCE  // pthread_getattr_np

#include "LazyInjectShims.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#if !defined(__APPLE__)
#include <sys/syscall.h>
#include <unistd.h>
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
  __atomic_store_n(&_lazyinject_overrides_used_storage, 1, __ATOMIC_RELEASE);
}

void _lazyinject_lock_contended(_lazyinject_stripe *stripe) {
#if !defined(__APPLE__)
  for (unsigned spins = 0;; spins++) {
    if (__atomic_load_n(&stripe->isLocked, __ATOMIC_RELAXED) == 0 &&
        __atomic_exchange_n(&stripe->isLocked, 1, __ATOMIC_ACQUIRE) == 0) {
      return;
    }
    if (spins > 64) {
      sched_yield();
    }
  }
#else
  (void)stripe;
#endif
}

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

static uintptr_t compute_stack_floor(void) {
#if defined(__APPLE__)
  pthread_t thread = pthread_self();
  uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(thread);
  size_t size = pthread_get_stacksize_np(thread);
  uintptr_t bottom = top - size;
#else
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) {
    return 0;
  }
  void *address = 0;
  size_t size = 0;
  int failed = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  if (failed) {
    return 0;
  }
  uintptr_t bottom = (uintptr_t)address;
#endif
  return bottom + LAZYINJECT_STACK_MARGIN;
}

uintptr_t _lazyinject_compute_stack_floor(void) {
  uintptr_t floor = compute_stack_floor();
  _lazyinject_stack_floor_storage = floor != 0 ? floor : 1;
  return _lazyinject_stack_floor_storage;
}

// The Swift runtime's entry points, ABI-stable since Swift 5.0.
extern const void *swift_getExistentialMetatypeMetadata(const void *instanceType);
extern const void *swift_conformsToProtocol(const void *type, const void *protocol);

// The protocol descriptor of LazyInject.AutomaticModuleInstallation, by its mangled name (with
// the leading underscore of Mach-O symbols on Apple platforms).
#if defined(__APPLE__)
#define LAZYINJECT_SYMBOL(name) "_" name
#else
#define LAZYINJECT_SYMBOL(name) name
#endif
extern const char automatic_module_installation_descriptor __asm__(
    LAZYINJECT_SYMBOL("$s10LazyInject27AutomaticModuleInstallationMp"));

const void *_lazyinject_automatic_module_installation(const void *registryType) {
  return swift_conformsToProtocol(registryType, &automatic_module_installation_descriptor);
}

/// Metadata kinds of the Swift ABI (MetadataKind.def): every kind above the last enumerated one
/// is an Objective-C class's isa pointer.
#define LAZYINJECT_CLASS_KIND 0
#define LAZYINJECT_FOREIGN_CLASS_KIND 0x203
#define LAZYINJECT_EXISTENTIAL_KIND 0x303
#define LAZYINJECT_OBJC_CLASS_WRAPPER_KIND 0x305
#define LAZYINJECT_LAST_ENUMERATED_KIND 0x7FF
#define LAZYINJECT_STRUCT_KIND 0x200
#define LAZYINJECT_ENUM_KIND 0x201

/// ExistentialTypeFlags: the bit that says the existential is not class-bound.
#define LAZYINJECT_EXISTENTIAL_ANY_CONSTRAINT 0x80000000u

int _lazyinject_type_category(const void *type) {
  uintptr_t kind = *(const uintptr_t *)type;
  if (kind == LAZYINJECT_CLASS_KIND || kind > LAZYINJECT_LAST_ENUMERATED_KIND ||
      kind == LAZYINJECT_FOREIGN_CLASS_KIND || kind == LAZYINJECT_OBJC_CLASS_WRAPPER_KIND) {
    return LAZYINJECT_CATEGORY_CLASS;
  }
  if (kind == LAZYINJECT_STRUCT_KIND || kind == LAZYINJECT_ENUM_KIND) {
    return LAZYINJECT_CATEGORY_VALUE;
  }
  if (kind == LAZYINJECT_EXISTENTIAL_KIND) {
    return LAZYINJECT_CATEGORY_EXISTENTIAL;
  }
  return LAZYINJECT_CATEGORY_OTHER;
}

int _lazyinject_is_weakly_referenceable(const void *type) {
  switch (_lazyinject_type_category(type)) {
  case LAZYINJECT_CATEGORY_CLASS:
    return 1;
  case LAZYINJECT_CATEGORY_EXISTENTIAL: {
    // The flags follow the kind word: ExistentialTypeMetadata { Kind; Flags; NumProtocols; ... }.
    uint32_t flags = *(const uint32_t *)((const uintptr_t *)type + 1);
    return (flags & LAZYINJECT_EXISTENTIAL_ANY_CONSTRAINT) == 0;
  }
  default:
    return 0;
  }
}

const void *_lazyinject_existential_metatype(const void *type) {
  if (*(const uintptr_t *)type != LAZYINJECT_EXISTENTIAL_KIND) {
    return 0;
  }
  return swift_getExistentialMetatypeMetadata(type);
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
  if (arena == 0) {
    abort();
  }
  _lazyinject_frame_arena_storage = arena;
  pthread_setspecific(frame_arena_key, arena);  // Freed at the thread's exit.
  return arena;
}

int _lazyinject_is_main_thread(void) {
#if defined(__APPLE__)
  return pthread_main_np() != 0;
#else
  return syscall(SYS_gettid) == getpid();
#endif
}
