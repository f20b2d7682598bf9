#include "LazyInjectShims.h"

_Static_assert(LAZYINJECT_STRIPE_COUNT <= 64, "a held stripe is a bit of a 64-bit mask");

static LAZYINJECT_TLS uint64_t held_slot_locks = 0;
/// The mutexes the calling thread holds, innermost last; more than 16 at once is not noted.
static LAZYINJECT_TLS const void *held_mutexes[16];
static LAZYINJECT_TLS intptr_t held_mutex_count = 0;
static LAZYINJECT_TLS int last_path = -1;

static uint64_t stripe_bit(const void *object) {
  return (uint64_t)1 << (_lazyinject_stripe_for(object) - _lazyinject_stripes);
}

void _lazyinject_checked_note_slot_lock(const void *object, int isLocked) {
  held_slot_locks = isLocked ? held_slot_locks | stripe_bit(object) : held_slot_locks & ~stripe_bit(object);
}

int _lazyinject_checked_holds_slot_lock(const void *object) {
  return (held_slot_locks & stripe_bit(object)) != 0;
}

uint64_t _lazyinject_checked_held_slot_locks(void) { return held_slot_locks; }

void _lazyinject_checked_note_mutex(const void *mutex, int isLocked) {
  // `withLock` nests: the mutex let go of is the last taken.
  if (isLocked && held_mutex_count < 16) held_mutexes[held_mutex_count] = mutex;
  held_mutex_count += isLocked ? 1 : -1;
}

int _lazyinject_checked_holds_mutex(const void *mutex) {
  for (intptr_t index = 0; index < held_mutex_count && index < 16; index++)
    if (held_mutexes[index] == mutex) return 1;
  return held_mutex_count > 16;  // Beyond what is noted: cannot tell, so do not fail.
}

intptr_t _lazyinject_checked_held_mutexes(void) { return held_mutex_count; }

void _lazyinject_first_read_path_record(int path) { last_path = path; }

int _lazyinject_first_read_last_path(void) { return last_path; }
