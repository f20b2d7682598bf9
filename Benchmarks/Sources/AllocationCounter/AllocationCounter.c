// Counts allocations by interposing the C allocator: this file defines malloc and its relatives,
// and forwards to glibc's own entry points. Linux only; elsewhere the counts stay 0.
#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <stddef.h>

static uint64_t count = 0;
static uint64_t bytes = 0;
static uint64_t last_size = 0;
static bool enabled = false;

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static void record(size_t size) {
  if (!__atomic_load_n(&enabled, __ATOMIC_RELAXED)) return;
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&bytes, size, __ATOMIC_RELAXED);
  __atomic_store_n(&last_size, size, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
  record(size);
  return __libc_malloc(size);
}

void *calloc(size_t number, size_t size) {
  record(number * size);
  return __libc_calloc(number, size);
}

void *realloc(void *pointer, size_t size) {
  record(size);
  return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  record(size);
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
  record(size);
  return __libc_memalign(alignment, size);
}

bool allocation_counter_is_available(void) { return true; }
void allocation_counter_set_enabled(bool value) { __atomic_store_n(&enabled, value, __ATOMIC_RELAXED); }
uint64_t allocation_counter_count(void) { return __atomic_load_n(&count, __ATOMIC_RELAXED); }
uint64_t allocation_counter_bytes(void) { return __atomic_load_n(&bytes, __ATOMIC_RELAXED); }
uint64_t allocation_counter_last_size(void) { return __atomic_load_n(&last_size, __ATOMIC_RELAXED); }
#else
bool allocation_counter_is_available(void) { return false; }
void allocation_counter_set_enabled(bool value) { (void)value; }
uint64_t allocation_counter_count(void) { return 0; }
uint64_t allocation_counter_bytes(void) { return 0; }
uint64_t allocation_counter_last_size(void) { return 0; }
#endif
