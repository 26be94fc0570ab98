// Ordering the contexts of a report.
#include "report_order.h"

#include "demangle.h"

#include <algorithm>
#include <unordered_map>

namespace memprof {

static double
per_block (const FieldValues &v, int field)
{
  return v[F_alloc_count] ? double (v[field]) / double (v[F_alloc_count]) : 0;
}

double average_size (const FieldValues &v) { return per_block (v, F_total_size); }
double average_lifetime (const FieldValues &v)
{
  return per_block (v, F_total_lifetime);
}
double average_utilization (const FieldValues &v)
{
  return per_block (v, F_total_percent_utilized);
}
double
access_density (const FieldValues &v)
{
  return v[F_total_size] ? double (v[F_total_access_count])
                             / double (v[F_total_size])
                         : 0;
}

static double
field_of (const FieldValues &v, int f)
{
  return double (v[f]);
}

namespace {
struct Named
{
  const char *name;
  double (*value) (const FieldValues &);
  bool ascending;
};
const Named kMetrics[] = {
  { "bytes", [] (const FieldValues &v) { return field_of (v, F_total_size); },
    false },
  { "blocks", [] (const FieldValues &v) { return field_of (v, F_alloc_count); },
    false },
  { "accesses",
    [] (const FieldValues &v) { return field_of (v, F_total_access_count); },
    false },
  { "density", access_density, false },
  { "lifetime", average_lifetime, false },
  { "utilization", average_utilization, true },
  { "avg-size", average_size, false },
  { "peak",
    [] (const FieldValues &v) { return field_of (v, F_bytes_at_peak); },
    false },
  { "leaked",
    [] (const FieldValues &v) { return field_of (v, F_bytes_at_exit); },
    false },
  { "max-live",
    [] (const FieldValues &v) { return field_of (v, F_max_live_bytes); },
    false },
};
} // namespace

bool
find_sort_metric (const std::string &name, SortMetric &out)
{
  std::string n = name == "utilisation" ? "utilization" : name;
  for (const Named &m : kMetrics)
    if (n == m.name)
      {
        out.name = m.name;
        out.value = m.value;
        out.ascending = m.ascending;
        return true;
      }
  int f = field_by_name (n.c_str ());
  if (f < 0)
    return false;
  out.name = n;
  out.field = f;
  out.value = nullptr;
  out.ascending = false;
  return true;
}

std::string
sort_metric_names ()
{
  std::string s;
  for (const Named &m : kMetrics)
    s += std::string (s.empty () ? "" : ", ") + m.name;
  return s + ", or a field name";
}

std::vector<const Context *>
report_order (const ContextTable &table, const SortMetric &metric,
              const std::string *function)
{
  std::vector<const Context *> v = table.canonical_order ();
  if (function)
    {
      // Each function's verdicts once: they demangle.  1: FUNCTION; 2: the
      // C++ standard library's, so the next frame out may be; 0: neither.
      std::unordered_map<std::string, int> verdicts;
      auto verdict = [&] (const std::string &linkage) {
        auto it = verdicts.find (linkage);
        if (it == verdicts.end ())
          it = verdicts.emplace (linkage,
                                 function_name_matches (linkage, *function)
                                   ? 1
                                 : library_function (linkage) ? 2 : 0)
                 .first;
        return it->second;
      };
      // Frame 0 is FUNCTION, or the frames from 0 out are the library's
      // (a std::vector's growth inlined into it) up to FUNCTION.
      auto selected = [&] (const Context *c) {
        for (uint32_t id : c->stack)
          switch (verdict (table.frame (id).function))
            {
            case 1: return true;
            case 0: return false;
            }
        return false;
      };
      v.erase (std::remove_if (v.begin (), v.end (),
                               [&] (const Context *c) {
                                 return !selected (c);
                               }),
               v.end ());
    }
  // Keys computed once and sorted beside the pointers: a million
  // contexts, each key read through its pointer per comparison, cost
  // seconds in cache misses.
  std::vector<std::pair<double, const Context *>> keyed (v.size ());
  for (size_t i = 0; i < v.size (); i++)
    keyed[i] = { metric.value ? metric.value (v[i]->fields)
                              : double (v[i]->fields[metric.field]),
                 v[i] };
  std::stable_sort (keyed.begin (), keyed.end (),
                    [&metric] (const std::pair<double, const Context *> &a,
                               const std::pair<double, const Context *> &b) {
                      return metric.ascending ? a.first < b.first
                                              : a.first > b.first;
                    });
  for (size_t i = 0; i < v.size (); i++)
    v[i] = keyed[i].second;
  return v;
}

} // namespace memprof
