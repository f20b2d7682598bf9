#include "LazyInjectShims.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

_lazyinject_fast_table *_lazyinject_fast_storage = 0;
uint64_t _lazyinject_fast_version_storage = 0;

/// Serializes the writers. Inserts and clears both come under the shared registry's lock today,
/// which serializes them already; this keeps the table sound on its own, at the cost of an
/// uncontended lock per write (writes are rare: one per pair and change).
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;

void _lazyinject_lock_every_stripe(void) {
  for (int index = 0; index < LAZYINJECT_STRIPE_COUNT; index++)
    _lazyinject_stripe_lock(&_lazyinject_stripes[index]);
}

void _lazyinject_unlock_every_stripe(void) {
  for (int index = 0; index < LAZYINJECT_STRIPE_COUNT; index++)
    _lazyinject_stripe_unlock(&_lazyinject_stripes[index]);
}

/// Returns once every reader that may have seen what was taken out before the call is done:
/// readers read the table with a slot lock held, so taking every stripe waits them out.
static void wait_for_readers(void) {
  _lazyinject_lock_every_stripe();
  _lazyinject_unlock_every_stripe();
}

static void *allocate(size_t bytes) {
  void *memory = calloc(1, bytes);
  if (memory == 0) abort();
  return memory;
}

/// Puts `entry` in the first free place of its linear search.
static void place(_lazyinject_fast_table *table, _lazyinject_fast_entry *entry) {
  uintptr_t index =
      _lazyinject_hash_words((uintptr_t)entry->property, (uintptr_t)entry->container) & table->mask;
  while (table->slots[index] != 0) index = (index + 1) & table->mask;
  __atomic_store_n(&table->slots[index], entry, __ATOMIC_RELEASE);
  table->count += 1;
}

extern void swift_release_n(void *object, uint32_t count);

void _lazyinject_fast_insert(const void *property, const void *container, void *payload,
                             void *object, uint32_t kind, uint32_t flags, uint64_t version) {
  pthread_mutex_lock(&writer);
  _lazyinject_fast_table *table = _lazyinject_fast_storage;
  // A clear since the decision (the version moved) may have let go of what the entry names.
  bool isCurrent = version == __atomic_load_n(&_lazyinject_fast_version_storage, __ATOMIC_RELAXED);
  if (isCurrent && _lazyinject_fast_find(property, container) == 0) {
    _lazyinject_fast_entry *entry = allocate(sizeof(_lazyinject_fast_entry));
    *entry = (_lazyinject_fast_entry){property, container, payload, object, kind, flags, {{0}}};
    if (table != 0 && (table->count + 1) * 2 <= table->mask + 1) {
      place(table, entry);
    } else {
      uintptr_t capacity = table == 0 ? 16 : (table->mask + 1) * 2;
      _lazyinject_fast_table *grown =
          allocate(sizeof(_lazyinject_fast_table) + capacity * sizeof(void *));
      grown->mask = capacity - 1;
      for (uintptr_t index = 0; table != 0 && index <= table->mask; index++)
        if (table->slots[index] != 0) place(grown, table->slots[index]);
      place(grown, entry);
      __atomic_store_n(&_lazyinject_fast_storage, grown, __ATOMIC_RELEASE);
      wait_for_readers();  // Of the old array only: the entries live on in the new one.
      free(table);
    }
  }
  pthread_mutex_unlock(&writer);
}

void _lazyinject_fast_clear(void) {
  pthread_mutex_lock(&writer);
  // Under `writer`, which an insert holds while it compares: an insert of a decision made before
  // this clear is either done, and cleared below, or sees the new version and inserts nothing.
  __atomic_add_fetch(&_lazyinject_fast_version_storage, 1, __ATOMIC_RELAXED);
  _lazyinject_fast_table *table = _lazyinject_fast_storage;
  if (table == 0) {  // Nothing to wait for: the change of a registry that no read used yet.
    pthread_mutex_unlock(&writer);
    return;
  }
  __atomic_store_n(&_lazyinject_fast_storage, 0, __ATOMIC_RELEASE);
  wait_for_readers();
  for (uintptr_t index = 0; index <= table->mask; index++) {
    _lazyinject_fast_entry *entry = table->slots[index];
    if (entry == 0) continue;
    // No reader takes a credit any more: the readers were waited out.
    for (int pool = 0; pool < 2; pool++) {
      uint32_t left = 0;
      for (int stripe = 0; stripe < LAZYINJECT_STRIPE_COUNT; stripe++) left += entry->credits[pool][stripe];
      if (left != 0) swift_release_n(pool == 0 ? entry->payload : entry->object, left);
    }
    free(entry);
  }
  free(table);
  pthread_mutex_unlock(&writer);
}
