#include "LazyInjectShims.h"

#include <sched.h>

_lazyinject_stripe _lazyinject_stripes[LAZYINJECT_STRIPE_COUNT];
uintptr_t _lazyinject_in_flight_marker_storage = 0;
intptr_t _lazyinject_waiters_storage = 0;
_Thread_local void *_lazyinject_current_frame_storage = 0;

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
