// The indexed profile as the compiler uses it: matching and
// classification of allocation calls.
#include "hint_profile.h"

#include "context_table.h"
#include "demangle.h"
#include "diag.h"
#include "file_io.h"
#include "indexed_reader.h"

#include <algorithm>
#include <map>
#include <new>
#include <unordered_map>

namespace memprof {

const char *
heap_class_name (HeapClass c)
{
  switch (c)
    {
    case HeapClass::COLD: return "cold";
    case HeapClass::HOT: return "hot";
    case HeapClass::CONFLICT: return "conflicting";
    default: return "neither hot nor cold";
    }
}

static std::string
base_name (const std::string &path)
{
  size_t s = path.rfind ('/');
  return s == std::string::npos ? path : path.substr (s + 1);
}

struct HintProfile::Impl
{
  ContextTable table;
  bool function_lines = false;
  uint64_t run_ms = 0;
  // Frame 0's function (its key) -> indices of the contexts.
  std::unordered_map<std::string, std::vector<size_t>> by_leaf;
  std::vector<bool> matched;
  std::unordered_map<uint32_t, std::string> frame_keys;

  // The name a function is matched by: the compiler knows a C++
  // function of internal linkage by its DW_AT_name, the profile by the
  // name the symbolizer built from its scopes (dwarf_names.h).
  static std::string key (const std::string &function)
  {
    return unqualified_name (function);
  }
  const std::string &frame_key (uint32_t id)
  {
    auto it = frame_keys.find (id);
    if (it == frame_keys.end ())
      it = frame_keys.emplace (id, key (table.frame (id).function)).first;
    return it->second;
  }

  // HintProfile::match; may throw.
  SiteVerdict match (const std::vector<CallFrame> &stack,
                     const HintThresholds &t);

  // Does the profile's frame F, whose function's key is F_KEY, stand for
  // the call's frame C, whose is C_KEY?  Lines are compared relative to
  // the function's start when both sides know it, columns when both
  // have one.
  static bool same_frame (const Frame &f, const std::string &f_key,
                          const CallFrame &c, const std::string &c_key)
  {
    if (f_key != c_key)
      return false;
    if (!f.file.empty () && !c.file.empty ()
        && base_name (f.file) != base_name (c.file))
      return false;
    if (f.function_line && c.function_line)
      {
        if ((int64_t) (f.line - f.function_line)
            != (int64_t) (c.line - c.function_line))
          return false;
      }
    else if (f.line != c.line)
      return false;
    return !f.column || !c.column || f.column == c.column;
  }
};

HintProfile::HintProfile () : impl_ (new (std::nothrow) Impl) {}
HintProfile::~HintProfile () = default;

bool
HintProfile::load (const std::string &path, std::string &error) noexcept
{
  try
    {
      std::vector<uint8_t> bytes = read_whole_file (path);
      if (!looks_like_indexed (bytes.data (), bytes.size ()))
        {
          error = "not an indexed memprof profile (make one with "
                  "memprof-merge)";
          return false;
        }
      IndexedInfo info = read_indexed (bytes.data (), bytes.size (),
                                       impl_->table);
      impl_->function_lines = info.has_function_lines;
      const std::vector<Context> &ctx = impl_->table.contexts ();
      impl_->matched.assign (ctx.size (), false);
      for (size_t i = 0; i < ctx.size (); i++)
        {
          impl_->run_ms = std::max (impl_->run_ms,
                                    ctx[i].fields[F_dealloc_timestamp]);
          if (!ctx[i].stack.empty ())
            impl_->by_leaf[impl_->frame_key (ctx[i].stack[0])].push_back (i);
        }
      return true;
    }
  catch (const FormatError &e)
    {
      error = e.what ();
    }
  catch (const std::bad_alloc &)
    {
      error = "out of memory reading the profile";
    }
  catch (const std::exception &e)
    {
      error = e.what ();
    }
  return false;
}

bool
HintProfile::has_function_lines () const noexcept
{
  return impl_->function_lines;
}

uint64_t
HintProfile::run_length_ms () const noexcept
{
  return impl_->run_ms;
}

size_t
HintProfile::num_contexts () const noexcept
{
  return impl_->table.contexts ().size ();
}

SiteVerdict
HintProfile::match (const std::vector<CallFrame> &stack,
                    const HintThresholds &t) noexcept
{
  try
    {
      return impl_->match (stack, t);
    }
  catch (...)
    {
      return SiteVerdict ();
    }
}

SiteVerdict
HintProfile::Impl::match (const std::vector<CallFrame> &stack,
                          const HintThresholds &t)
{
  SiteVerdict v;
  if (stack.empty ())
    return v;
  std::vector<std::string> keys;
  for (const CallFrame &f : stack)
    keys.push_back (key (f.function));
  auto it = by_leaf.find (keys[0]);
  if (it == by_leaf.end ())
    return v;
  const std::vector<Context> &ctx = table.contexts ();
  double lifetime = 0, accesses = 0, bytes = 0;
  for (size_t i : it->second)
    {
      const Context &c = ctx[i];
      if (c.stack.size () < stack.size ())
        continue;
      bool same = true;
      for (size_t j = 0; j < stack.size () && same; j++)
        same = same_frame (table.frame (c.stack[j]), frame_key (c.stack[j]),
                           stack[j], keys[j]);
      if (!same || !c.fields[F_alloc_count])
        continue;
      matched[i] = true;
      double n = c.fields[F_alloc_count];
      double life = c.fields[F_total_lifetime] / n;
      double per_byte = (double) c.fields[F_total_access_count]
                        / std::max<double> (c.fields[F_total_size], 1);
      double density = per_byte * 1000 / std::max (life, 1.0);
      bool cold = life >= t.cold_lifetime_percent / 100 * run_ms
                  && life >= t.cold_min_lifetime_ms
                  && per_byte <= t.cold_accesses;
      bool hot = !cold && density >= t.hot_density;
      v.contexts++;
      v.cold += cold;
      v.hot += hot;
      v.blocks += c.fields[F_alloc_count];
      lifetime += c.fields[F_total_lifetime];
      accesses += c.fields[F_total_access_count];
      bytes += c.fields[F_total_size];
    }
  if (!v.contexts)
    return v;
  v.lifetime_ms = lifetime / v.blocks;
  v.lifetime_percent = run_ms ? 100 * v.lifetime_ms / run_ms : 0;
  v.accesses_per_byte = accesses / std::max (bytes, 1.0);
  v.density = v.accesses_per_byte * 1000 / std::max (v.lifetime_ms, 1.0);
  if (v.cold == v.contexts)
    v.verdict = HeapClass::COLD;
  else if (v.hot == v.contexts)
    v.verdict = HeapClass::HOT;
  else if (v.cold || v.hot)
    v.verdict = HeapClass::CONFLICT;
  return v;
}

std::vector<UnmatchedLeaf>
HintProfile::unmatched_leaves (const std::string &function,
                               const std::string &file) const noexcept
{
  std::vector<UnmatchedLeaf> out;
  try
    {
      auto it = impl_->by_leaf.find (Impl::key (function));
      if (it == impl_->by_leaf.end ())
        return out;
      std::map<std::pair<uint64_t, uint64_t>, size_t> seen;
      for (size_t i : it->second)
        {
          const Frame &f
            = impl_->table.frame (impl_->table.contexts ()[i].stack[0]);
          if (f.inlined || impl_->matched[i]
              || (!file.empty () && base_name (f.file) != base_name (file)))
            continue;
          auto ins = seen.emplace (std::make_pair (f.line, f.column),
                                   out.size ());
          if (ins.second)
            {
              UnmatchedLeaf l;
              l.function = f.function;
              l.file = f.file;
              l.line = f.line;
              l.column = f.column;
              l.line_offset = f.function_line
                                ? (int64_t) (f.line - f.function_line)
                                : (int64_t) f.line;
              out.push_back (l);
            }
          out[ins.first->second].contexts++;
        }
    }
  catch (...)
    {
    }
  return out;
}

std::vector<std::string>
HintProfile::functions_in_file (const std::string &file) const noexcept
{
  std::vector<std::string> out;
  try
    {
      std::string want = base_name (file);
      for (const auto &e : impl_->by_leaf)
        for (size_t i : e.second)
          {
            const Frame &f
              = impl_->table.frame (impl_->table.contexts ()[i].stack[0]);
            if (!f.inlined && !f.function.empty ()
                && base_name (f.file) == want)
              {
                out.push_back (e.first);
                break;
              }
          }
      std::sort (out.begin (), out.end ());
    }
  catch (...)
    {
    }
  return out;
}

} // namespace memprof
