#include "Checks.h"

#include "LazyInjectShims.h"

_Static_assert(LAZYINJECT_STRIPE_COUNT <= 64, "a held stripe is a bit of a 64-bit mask");

static LAZYINJECT_TLS uint64_t held_slot_locks = 0;
static LAZYINJECT_TLS intptr_t held_mutexes = 0;
static LAZYINJECT_TLS int last_path = -1;

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

void _lazyinject_probe_record(int path) { last_path = path; }

int _lazyinject_probe_last_path(void) { return last_path; }

void _lazyinject_probe_reset(void) { last_path = -1; }
