// The per-thread stack cache (stack_cache.h).  The walks themselves are
// unwind.cpp's.

#include "stack_cache.h"
#include "internal.h"

namespace memprof {

void
stack_cache_clear (StackCache *c)
{
  // An empty key (frame 0) matches no walk; the ring is only read
  // behind a matching key.
  internal_memset (c->walks, 0, sizeof c->walks);
  c->head = 0;
}

} // namespace memprof
