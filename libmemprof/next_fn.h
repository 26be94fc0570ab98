// The C library's own definition of a function the runtime intercepts:
// the next one after ours in the lookup order (dlsym RTLD_NEXT).  One
// helper for every interceptor that resolves lazily (exec*, dlclose,
// stdio), since each may run before the runtime has initialised.
#ifndef MEMPROF_NEXT_FN_H
#define MEMPROF_NEXT_FN_H

#include <dlfcn.h>
#include "internal.h"

namespace memprof {

// The next definition of NAME, looked up once and kept in SLOT; null
// when there is none (SLOT then stays null and the next call looks
// again).
template <typename T>
T
next_fn (T &slot, const char *name)
{
  T f = __atomic_load_n (&slot, __ATOMIC_ACQUIRE);
  if (UNLIKELY (!f))
    {
      f = (T) dlsym (RTLD_NEXT, name);
      if (f)
        __atomic_store_n (&slot, f, __ATOMIC_RELEASE);
    }
  return f;
}

} // namespace memprof

#endif
