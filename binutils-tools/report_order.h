// Choosing and ordering the contexts a report shows: --sort and --top.
#ifndef MEMPROF_TOOLS_REPORT_ORDER_H
#define MEMPROF_TOOLS_REPORT_ORDER_H

#include "context_table.h"

#include <string>
#include <vector>

namespace memprof {

// A --sort metric: a name and the value a context is ranked by.
struct SortMetric
{
  std::string name;
  bool ascending = false;       // Utilisation: the lowest first.
  double (*value) (const FieldValues &) = nullptr;
  int field = -1;               // Or a raw field, when value is null.
};

// The metric called NAME (see --help), or false when there is none.
bool find_sort_metric (const std::string &name, SortMetric &out);
// METRIC's value for a context's fields V.
double metric_value (const SortMetric &metric, const FieldValues &v);
// The metric names, comma-separated, for messages.
std::string sort_metric_names ();

// Contexts in report order: by METRIC, ties in canonical stack order.
// With FUNCTION, only the contexts it allocated directly
// (function_filter.h).
std::vector<const Context *>
report_order (const ContextTable &table, const SortMetric &metric,
              const std::string *function,
              const std::vector<std::string> &allocators = {});

// Derived per-context measures shared by the text report and --sort.
double average_size (const FieldValues &v);
double average_lifetime (const FieldValues &v);
double average_utilization (const FieldValues &v);
double access_density (const FieldValues &v);   // Accesses per byte.

} // namespace memprof

#endif
