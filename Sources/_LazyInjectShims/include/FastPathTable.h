// The fast path's table: what the first read of a `@Lazy` property needs, found without the
// registry's lock (see `FastPath.swift`). Internal to LazyInject.
#ifndef LAZYINJECT_FAST_PATH_TABLE_H
#define LAZYINJECT_FAST_PATH_TABLE_H

#include <stdint.h>

#include "LazyInjectShims.h"

/// The entry kinds.
enum {
  /// `payload` is the handle of the object a `.singleton` or custom-scope registration keeps.
  LAZYINJECT_FAST_KEPT_HANDLE = 1,
  /// `payload` is a `.unique` registration.
  LAZYINJECT_FAST_BUILD = 2,
};

/// What the shared registry's fast path is for one (property type, container class) pair.
/// Immutable once published.
typedef struct {
  const void *_Nonnull property;
  const void *_Nonnull container;
  /// Unretained: kept alive by the registry for as long as the entry is published (see
  /// `FastPath.swift`).
  void *_Nonnull payload;
  uint32_t kind;
  /// `FastPath.observed` (1), `FastPath.mainActor` (2).
  uint32_t flags;
} _lazyinject_fast_entry;

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
static inline const _lazyinject_fast_entry *_Nullable _lazyinject_fast_find(
    const void *_Nonnull property, const void *_Nonnull container) {
  _lazyinject_fast_table *table = __atomic_load_n(&_lazyinject_fast_storage, __ATOMIC_ACQUIRE);
  if (table == 0) return 0;
  for (uintptr_t index = _lazyinject_pair_hash(property, container) & table->mask;;
       index = (index + 1) & table->mask) {
    _lazyinject_fast_entry *entry = __atomic_load_n(&table->slots[index], __ATOMIC_ACQUIRE);
    if (entry == 0 || (entry->property == property && entry->container == container)) return entry;
  }
}

/// Adds an entry, unless the pair has one. Call with the shared registry's lock held and no slot
/// lock.
void _lazyinject_fast_insert(const void *_Nonnull property, const void *_Nonnull container,
                                void *_Nonnull payload, uint32_t kind, uint32_t flags);

/// Empties the table, and returns once no thread can still read what it held. Call with no slot
/// lock held.
void _lazyinject_fast_clear(void);

/// Takes every slot lock, in order, to change what slots of any object read (a reset empties
/// handles): a thread that holds one slot lock never takes another, so this cannot deadlock.
void _lazyinject_lock_every_stripe(void);

/// Lets go of every slot lock that `_lazyinject_lock_every_stripe` took.
void _lazyinject_unlock_every_stripe(void);

#endif
