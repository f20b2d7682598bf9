#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether this platform counts allocations (Linux with glibc).
bool allocation_counter_is_available(void);

/// Starts or stops counting; counting costs atomic operations in every allocation, so the
/// timed measures run with it off.
void allocation_counter_set_enabled(bool enabled);

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) since the program began.
uint64_t allocation_counter_count(void);

/// Bytes requested by those allocations.
uint64_t allocation_counter_bytes(void);

/// Bytes requested by the latest allocation.
uint64_t allocation_counter_last_size(void);

#endif
