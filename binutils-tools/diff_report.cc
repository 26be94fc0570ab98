// memprof-dump --diff.
#include "diff_report.h"

#include "diag.h"
#include "frame_names.h"
#include "json_output.h"
#include "text_report.h"

#include <algorithm>
#include <unordered_map>

namespace memprof {

namespace {

// The identity of a context across profiles: its frames' positions.
std::string
stack_key (const ContextTable &t, const Context &c)
{
  std::string k;
  for (uint32_t id : c.stack)
    k += position_key (t.frame (id)) + '\n';
  return k;
}

const char *
status_name (ContextChange::Status s)
{
  switch (s)
    {
    case ContextChange::NEW: return "new";
    case ContextChange::VANISHED: return "vanished";
    case ContextChange::SAME: return "same";
    default: return "changed";
    }
}

std::string
signed_grouped (int64_t v)
{
  uint64_t m = v < 0 ? uint64_t (0) - uint64_t (v) : uint64_t (v);
  return (v < 0 ? "-" : "+") + grouped (m);
}

} // namespace

std::vector<ContextChange>
diff_contexts (const ContextTable &base, const ContextTable &next, int field)
{
  std::unordered_map<std::string, const Context *> in_base;
  for (const Context &c : base.contexts ())
    in_base.emplace (stack_key (base, c), &c);
  std::vector<ContextChange> out;
  std::vector<std::string> keys;
  for (const Context &c : next.contexts ())
    {
      std::string k = stack_key (next, c);
      ContextChange ch;
      ch.table = &next;
      ch.context = &c;
      ch.next = c.fields[field];
      auto it = in_base.find (k);
      if (it == in_base.end ())
        ch.status = ContextChange::NEW;
      else
        {
          ch.base = it->second->fields[field];
          ch.status = ch.base == ch.next ? ContextChange::SAME
                                         : ContextChange::CHANGED;
          in_base.erase (it);
        }
      out.push_back (ch);
      keys.push_back (k);
    }
  for (const Context &c : base.contexts ())
    {
      std::string k = stack_key (base, c);
      if (!in_base.count (k))
        continue;
      ContextChange ch;
      ch.status = ContextChange::VANISHED;
      ch.table = &base;
      ch.context = &c;
      ch.base = c.fields[field];
      out.push_back (ch);
      keys.push_back (k);
    }
  std::vector<size_t> order (out.size ());
  for (size_t i = 0; i < order.size (); i++)
    order[i] = i;
  auto magnitude = [] (int64_t d) {
    return d < 0 ? uint64_t (0) - uint64_t (d) : uint64_t (d);
  };
  std::sort (order.begin (), order.end (), [&] (size_t a, size_t b) {
    uint64_t ma = magnitude (out[a].delta ()), mb = magnitude (out[b].delta ());
    if (ma != mb)
      return ma > mb;
    return keys[a] < keys[b];
  });
  std::vector<ContextChange> sorted;
  sorted.reserve (out.size ());
  for (size_t i : order)
    sorted.push_back (out[i]);
  return sorted;
}

void
write_diff_text (FILE *out, const std::string &base_name,
                 const std::string &new_name, const std::string &metric,
                 const std::vector<ContextChange> &changes, uint64_t top)
{
  int64_t base_total = 0, new_total = 0;
  size_t counts[4] = {};
  for (const ContextChange &c : changes)
    {
      base_total += c.base;
      new_total += c.next;
      counts[c.status]++;
    }
  std::fprintf (out, "Diff of %s: %s -> %s\n", metric.c_str (),
                base_name.c_str (), new_name.c_str ());
  std::fprintf (out, "Total: %s -> %s (%s); %zu changed, %zu new, %zu "
                     "vanished, %zu the same\n",
                grouped ((uint64_t) base_total).c_str (),
                grouped ((uint64_t) new_total).c_str (),
                signed_grouped (new_total - base_total).c_str (),
                counts[ContextChange::CHANGED], counts[ContextChange::NEW],
                counts[ContextChange::VANISHED], counts[ContextChange::SAME]);
  // The contexts that changed: those that did not are counted in the
  // totals line (listing them made a diff of two identical runs of
  // duktape 1,008 entries of "+0 bytes"); JSON has them all.
  size_t shown = 0;
  for (const ContextChange &c : changes)
    {
      if (c.status == ContextChange::SAME)
        continue;
      if (top && shown == top)
        break;
      shown++;
      std::fprintf (out, "\n%s %s: %s -> %s%s\n",
                    signed_grouped (c.delta ()).c_str (), metric.c_str (),
                    grouped (c.base).c_str (), grouped (c.next).c_str (),
                    c.status == ContextChange::NEW        ? " [new]"
                    : c.status == ContextChange::VANISHED ? " [vanished]"
                                                          : "");
      const Context &ctx = *c.context;
      for (size_t i = 0; i < ctx.stack.size (); i++)
        std::fprintf (out, "%s %s\n", i == 0 ? "at" : "by",
                      frame_text (c.table->frame (ctx.stack[i])).c_str ());
    }
}

void
write_diff_json (FILE *out, const std::string &base_name,
                 const std::string &new_name, const std::string &metric,
                 const std::vector<ContextChange> &changes)
{
  std::fprintf (out, "{\"metric\": %s, \"base\": %s, \"new\": %s, "
                     "\"contexts\": [",
                json_string (metric).c_str (),
                json_string (base_name).c_str (),
                json_string (new_name).c_str ());
  bool first = true;
  for (const ContextChange &c : changes)
    {
      std::fprintf (out, "%s\n  {\"status\": \"%s\", \"base\": %llu, "
                         "\"new\": %llu, \"change\": %lld, \"stack\": [",
                    first ? "" : ",", status_name (c.status),
                    (unsigned long long) c.base, (unsigned long long) c.next,
                    (long long) c.delta ());
      first = false;
      const Context &ctx = *c.context;
      for (size_t i = 0; i < ctx.stack.size (); i++)
        std::fprintf (out, "%s\n    %s", i ? "," : "",
                      frame_json (c.table->frame (ctx.stack[i])).c_str ());
      std::fprintf (out, "]}");
    }
  std::fprintf (out, "\n]}\n");
}

} // namespace memprof
