// Allocation contexts keyed by symbolized call stack.
#include "context_table.h"

#include <algorithm>
#include <tuple>

namespace memprof {

std::string
frame_key (const Frame &f)
{
  std::string k;
  auto num = [&k] (uint64_t v) {
    k += std::to_string (v);
    k += '\x1f';
  };
  if (f.function.empty ())
    {
      k += '\x01';
      k += f.module;
      k += '\x1f';
      num (f.address);
      return k;
    }
  k += f.function;
  k += '\x1f';
  k += f.file;
  k += '\x1f';
  num (f.line);
  num (f.column);
  num (f.discriminator);
  k += f.inlined ? 'i' : 'n';
  return k;
}

size_t
StackHash::operator() (const Stack &s) const
{
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t id : s)
    {
      h ^= id;
      h *= 1099511628211ULL;
    }
  return static_cast<size_t> (h);
}

uint32_t
ContextTable::intern_frame (const Frame &f)
{
  auto ins = frame_ids_.emplace (frame_key (f),
                                 static_cast<uint32_t> (frames_.size ()));
  if (ins.second)
    frames_.push_back (f);
  else
    {
      // Where a source position was seen in several builds, keep the
      // smallest (module, address): the same whatever the merge order.
      Frame &old = frames_[ins.first->second];
      if (std::tie (f.module, f.address) < std::tie (old.module, old.address))
        {
          old.module = f.module;
          old.address = f.address;
        }
    }
  return ins.first->second;
}

void
ContextTable::add (const Stack &stack, const FieldValues &fields)
{
  auto ins = context_ids_.emplace (stack, contexts_.size ());
  if (ins.second)
    contexts_.push_back (Context{ stack, fields });
  else
    merge_fields (contexts_[ins.first->second].fields, fields);
}

void
ContextTable::merge_from (const ContextTable &other)
{
  std::vector<uint32_t> map (other.frames_.size ());
  for (size_t i = 0; i < other.frames_.size (); i++)
    map[i] = intern_frame (other.frames_[i]);
  Stack s;
  for (const Context &c : other.contexts_)
    {
      s.clear ();
      for (uint32_t id : c.stack)
        s.push_back (map[id]);
      add (s, c.fields);
    }
  num_profiles += other.num_profiles;
}

static int
compare_frames (const Frame &a, const Frame &b)
{
  auto ta = std::tie (a.function, a.file, a.line, a.column, a.discriminator,
                      a.inlined, a.module, a.address);
  auto tb = std::tie (b.function, b.file, b.line, b.column, b.discriminator,
                      b.inlined, b.module, b.address);
  return ta < tb ? -1 : tb < ta ? 1 : 0;
}

bool
ContextTable::stack_less (const Stack &a, const Stack &b) const
{
  size_t n = std::min (a.size (), b.size ());
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      {
        int c = compare_frames (frames_[a[i]], frames_[b[i]]);
        if (c)
          return c < 0;
      }
  return a.size () < b.size ();
}

std::vector<const Context *>
ContextTable::canonical_order () const
{
  std::vector<const Context *> v;
  v.reserve (contexts_.size ());
  for (const Context &c : contexts_)
    v.push_back (&c);
  std::sort (v.begin (), v.end (), [this] (const Context *a, const Context *b) {
    return stack_less (a->stack, b->stack);
  });
  return v;
}

} // namespace memprof
