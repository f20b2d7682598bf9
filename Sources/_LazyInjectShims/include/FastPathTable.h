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

/// How many references to an object an entry takes at once for the readers of one slot lock.
#define LAZYINJECT_FAST_CREDIT_BATCH 64

/// What the shared registry's fast path is for one (property type, container class) pair.
/// Immutable once published, but for the credits.
typedef struct {
  const void *_Nonnull property;
  const void *_Nonnull container;
  /// Unretained: kept alive by the registry for as long as the entry is published (see
  /// `FastPath.swift`).
  void *_Nonnull payload;
  /// For a kept handle, the object it holds (the handle is not emptied while the entry exists).
  void *_Nullable object;
  uint32_t kind;
  /// `FastPath.observed` (1), `FastPath.mainActor` (2).
  uint32_t flags;
  /// References to `payload`, then to `object`, that the entry holds for the readers of each slot
  /// lock: a first read takes one under its slot lock with no atomic operation, and the entry
  /// returns what is left when the table is emptied (`_lazyinject_fast_clear`).
  uint8_t credits[2][LAZYINJECT_STRIPE_COUNT];
} _lazyinject_fast_entry;

extern void *_Nonnull swift_retain_n(void *_Nonnull object, uint32_t count);

/// One reference to `object` (credit pool `pool`: 0 for the payload, 1 for the object) for a first
/// read of `container`, whose slot lock the caller holds: taken from the entry's credits for that
/// lock, which get a new batch (one atomic retain) when spent.
static inline void _lazyinject_fast_take(_lazyinject_fast_entry *_Nonnull entry, int pool,
                                         const void *_Nonnull container, void *_Nonnull object) {
  uint8_t *credit = &entry->credits[pool][_lazyinject_stripe_for(container) - _lazyinject_stripes];
  if (*credit == 0) {
    swift_retain_n(object, LAZYINJECT_FAST_CREDIT_BATCH);
    *credit = LAZYINJECT_FAST_CREDIT_BATCH;
  }
  *credit -= 1;
}

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
static inline _lazyinject_fast_entry *_Nullable _lazyinject_fast_find(
    const void *_Nonnull property, const void *_Nonnull container) {
  _lazyinject_fast_table *table = __atomic_load_n(&_lazyinject_fast_storage, __ATOMIC_ACQUIRE);
  if (table == 0) return 0;
  uintptr_t index = _lazyinject_hash_words((uintptr_t)property, (uintptr_t)container) & table->mask;
  for (;; index = (index + 1) & table->mask) {
    _lazyinject_fast_entry *entry = __atomic_load_n(&table->slots[index], __ATOMIC_ACQUIRE);
    if (entry == 0 || (entry->property == property && entry->container == container)) return entry;
  }
}

/// Adds an entry, unless the pair has one. Call with the shared registry's lock held and no slot
/// lock.
void _lazyinject_fast_insert(const void *_Nonnull property, const void *_Nonnull container,
                             void *_Nonnull payload, void *_Nullable object, uint32_t kind,
                             uint32_t flags);

/// Empties the table, and returns once no thread can still read what it held, with the references
/// its entries held for readers released. Call with no slot lock held.
void _lazyinject_fast_clear(void);

/// Takes every slot lock, in order, to change what slots of any object read (a reset empties
/// handles): a thread that holds one slot lock never takes another, so this cannot deadlock.
void _lazyinject_lock_every_stripe(void);

/// Lets go of every slot lock that `_lazyinject_lock_every_stripe` took.
void _lazyinject_unlock_every_stripe(void);

#endif
