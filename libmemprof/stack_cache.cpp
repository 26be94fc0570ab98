// The per-thread stack cache (stack_cache.h): remembering steps and
// following them.  The walk itself is unwind.cpp's.

#include "stack_cache.h"
#include "internal.h"

namespace memprof {

namespace {

using Step = StackCache::Step;

inline bool
reads_hold (const Step &t)
{
  for (uint32_t i = 0; i < (t.bits & StackCache::kReads); i++)
    if (*(const uintptr_t *) (t.sp + t.addr_off[i]) != t.value[i])
      return false;
  return true;
}

} // namespace

void
stack_cache_clear (StackCache *c)
{
  internal_memset (c->table, 0, sizeof c->table);
  internal_memset (c->memos, 0, sizeof c->memos);
  internal_memset (c->memo_key, 0, sizeof c->memo_key);
}

bool
stack_cache_follow (StackCache *c, uint32_t slot, uintptr_t *pcs,
                    uint32_t need, uint32_t *got, WordLog *log)
{
  uint32_t n = 0;
  uint32_t logged = log->n;
  uint32_t j = slot;
  bool ok;
  for (;;)
    {
      const Step &t = c->steps[j];
      if (t.failed_walk == c->walk || !reads_hold (t))
        {
          ok = false;
          break;
        }
      for (uint32_t i = 0; i < (t.bits & StackCache::kReads); i++)
        log->add (t.sp + t.addr_off[i], t.value[i]);
      if (t.bits & StackCache::kRecords)
        pcs[n++] = t.pc - 1;
      uint8_t end = t.bits >> StackCache::kEndShift;
      if (n == need || end == StackCache::kEndStack)
        {
          ok = true;
          break;
        }
      if (end == StackCache::kEndMax
          || c->steps[t.next].stamp != t.next_stamp)
        {
          ok = false;
          break;
        }
      j = t.next;
    }
  if (!ok)
    {
      log->n = logged;
      // Every step up to J leads to J: none of them can serve this walk.
      for (uint32_t i = slot;; i = c->steps[i].next)
        {
          c->steps[i].failed_walk = c->walk;
          if (i == j)
            break;
        }
      return false;
    }
  *got = n;
  return true;
}

uint32_t
stack_cache_claim (StackCache *c, uint32_t prev, uintptr_t pc, uintptr_t sp,
                   uintptr_t bp)
{
  uint32_t slot = c->cursor;
  c->cursor = (slot + 1) % StackCache::kSteps;
  if (++c->stamp == 0)
    c->stamp = 1;
  // Taking over a slot kills every link to it (its stamp changes), so
  // no walk follows the step that was there into this one.
  Step &t = c->steps[slot];
  t.pc = pc;
  t.sp = sp;
  t.bp = bp;
  t.stamp = c->stamp;
  t.failed_walk = 0;
  t.bits = 0;
  c->id[slot] = 0;
  c->table[stack_cache_table_index (pc, sp)] = slot + 1;
  if (prev != kNoStep)
    {
      c->steps[prev].next = slot;
      c->steps[prev].next_stamp = t.stamp;
    }
  return slot;
}

void
stack_cache_link (StackCache *c, uint32_t first, uint32_t k, uint32_t join,
                  uint8_t end)
{
  if (k == 0)
    return;
  uint32_t last = (first + k - 1) % StackCache::kSteps;
  Step &l = c->steps[last];
  uint32_t frames = 0;
  if (join != kNoStep)
    {
      l.next = join;
      l.next_stamp = c->steps[join].stamp;
      frames = c->steps[join].frames_out;
    }
  else if (end == StackCache::kEndDead)
    {
      l.next = last;
      l.next_stamp = 0;   // Never a stamp: the link is dead.
    }
  else
    l.bits |= (uint8_t) (end << StackCache::kEndShift);
  for (uint32_t i = k; i-- > 0;)
    {
      Step &t = c->steps[(first + i) % StackCache::kSteps];
      frames += (t.bits & StackCache::kRecords) != 0;
      t.frames_out = (uint16_t) frames;
    }
}

} // namespace memprof
