// Allocation contexts keyed by symbolized call stack.
#include "context_table.h"

#include <algorithm>
#include <tuple>

namespace memprof {

std::string
position_key (const Frame &f)
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
  std::string pos = position_key (f);
  std::string full = pos;
  full += '\x02';
  full += f.module;
  full += '\x1f';
  full += std::to_string (f.address);
  auto ins = frame_ids_.emplace (full, static_cast<uint32_t> (frames_.size ()));
  if (ins.second)
    {
      frames_.push_back (f);
      auto p = position_ids_.emplace (pos, position_ids_.size ());
      frame_position_.push_back (p.first->second);
    }
  return ins.first->second;
}

void
ContextTable::add (const Stack &stack, const FieldValues &fields)
{
  Stack positions (stack.size ());
  for (size_t i = 0; i < stack.size (); i++)
    positions[i] = frame_position_[stack[i]];
  auto ins = context_ids_.emplace (std::move (positions), contexts_.size ());
  if (ins.second)
    {
      contexts_.push_back (Context{ stack, fields });
      return;
    }
  Context &c = contexts_[ins.first->second];
  merge_fields (c.fields, fields);
  // Same positions: keep the smaller (module, address) sequence.
  for (size_t i = 0; i < stack.size (); i++)
    {
      const Frame &a = frames_[stack[i]], &b = frames_[c.stack[i]];
      if (std::tie (a.module, a.address) != std::tie (b.module, b.address))
        {
          if (std::tie (a.module, a.address) < std::tie (b.module, b.address))
            c.stack = stack;
          break;
        }
    }
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
