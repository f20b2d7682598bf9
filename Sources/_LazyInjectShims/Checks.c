#include "Checks.h"

#include "LazyInjectShims.h"

#define LAZYINJECT_PROBE_PATHS 8

static LAZYINJECT_TLS uint64_t held_slot_locks = 0;
static LAZYINJECT_TLS intptr_t held_mutexes = 0;
static LAZYINJECT_TLS int last_path = -1;
static intptr_t path_counts[LAZYINJECT_PROBE_PATHS];

static uint64_t stripe_bit(const void *object) {
  return (uint64_t)1 << (_lazyinject_stripe_for(object) - _lazyinject_stripes);
}

void _lazyinject_checked_note_slot_lock(const void *object, int isLocked) {
  if (isLocked) {
    held_slot_locks |= stripe_bit(object);
  } else {
    held_slot_locks &= ~stripe_bit(object);
  }
}

int _lazyinject_checked_holds_slot_lock(const void *object) {
  return (held_slot_locks & stripe_bit(object)) != 0;
}

uint64_t _lazyinject_checked_held_slot_locks(void) { return held_slot_locks; }

intptr_t _lazyinject_checked_note_mutexes(intptr_t delta) {
  held_mutexes += delta;
  return held_mutexes;
}

void _lazyinject_probe_record(int path) {
  if (path < 0 || path >= LAZYINJECT_PROBE_PATHS) {
    return;
  }
  last_path = path;
  __atomic_add_fetch(&path_counts[path], 1, __ATOMIC_RELAXED);
}

int _lazyinject_probe_last_path(void) { return last_path; }

intptr_t _lazyinject_probe_count(int path) {
  if (path < 0 || path >= LAZYINJECT_PROBE_PATHS) {
    return 0;
  }
  return __atomic_load_n(&path_counts[path], __ATOMIC_RELAXED);
}

void _lazyinject_probe_reset(void) {
  for (int index = 0; index < LAZYINJECT_PROBE_PATHS; index++) {
    __atomic_store_n(&path_counts[index], 0, __ATOMIC_RELAXED);
  }
  last_path = -1;
}
