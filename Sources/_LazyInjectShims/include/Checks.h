// Bookkeeping for LazyInject's debug-build checks and its first-read probe. Internal to
// LazyInject: first reads and locks call these only in debug builds (`#if DEBUG`), so that
// release builds pay nothing for them; the package's tests read the probe in any build.
#ifndef LAZYINJECT_CHECKS_H
#define LAZYINJECT_CHECKS_H

#include <stdint.h>

/// Records that the calling thread took (`isLocked` 1) or let go of (0) the slot lock of
/// `object`: a bit per stripe, in a thread-local mask.
void _lazyinject_checked_note_slot_lock(const void *_Nonnull object, int isLocked);

/// Whether the calling thread holds the slot lock of `object`, as noted.
int _lazyinject_checked_holds_slot_lock(const void *_Nonnull object);

/// The stripes the calling thread holds, as noted: one bit per stripe.
uint64_t _lazyinject_checked_held_slot_locks(void);

/// Records that the calling thread took (`isLocked` 1) or let go of (0) the mutex at `mutex`
/// (`Lock`).
void _lazyinject_checked_note_mutex(const void *_Nonnull mutex, int isLocked);

/// Whether the calling thread holds the mutex at `mutex`, as noted.
int _lazyinject_checked_holds_mutex(const void *_Nonnull mutex);

/// How many mutexes the calling thread holds, as noted.
intptr_t _lazyinject_checked_held_mutexes(void);

/// Records that a first read on the calling thread took `path` (a `FirstReadPath` raw value).
void _lazyinject_probe_record(int path);

/// The path of the calling thread's last first read, or -1 if it made none since the last reset
/// (recording -1 forgets it).
int _lazyinject_probe_last_path(void);

#endif
