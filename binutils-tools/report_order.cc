// Ordering the contexts of a report.
#include "report_order.h"

#include "function_filter.h"

#include <algorithm>

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

double
metric_value (const SortMetric &metric, const FieldValues &v)
{
  return metric.value ? metric.value (v) : double (v[metric.field]);
}

std::vector<const Context *>
report_order (const ContextTable &table, const SortMetric &metric,
              const std::string *function,
              const std::vector<std::string> &allocators)
{
  std::vector<const Context *> v = table.canonical_order ();
  if (function)
    {
      FunctionFilter filter (*function, allocators);
      v.erase (std::remove_if (v.begin (), v.end (),
                               [&] (const Context *c) {
                                 return !filter.selects (table, c->stack);
                               }),
               v.end ());
    }
  // Keys computed once and sorted beside the pointers: a million
  // contexts, each key read through its pointer per comparison, cost
  // seconds in cache misses.
  std::vector<std::pair<double, const Context *>> keyed (v.size ());
  for (size_t i = 0; i < v.size (); i++)
    keyed[i] = { metric_value (metric, v[i]->fields), v[i] };
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
