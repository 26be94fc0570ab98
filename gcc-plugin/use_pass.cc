/* -fheapprof-use=FILE (plugin argument use=FILE): the profile fed back.
   The indexed profile is read once, with the tools' reader
   (binutils-tools/hint_profile.h, linked in from libmemprofreader), and
   a pass after "optimized" (where inlining is final, as in the profiled
   build) matches every allocation call to the profile's contexts by its
   inline stack -- function, line relative to the function's start,
   column, for the call and for each body it was inlined from -- and
   hints the calls whose contexts all agree (use_hints.cc).  No
   instrumentation, no runtime: a stale profile costs hints, never
   correctness.  */

/* Standard headers before GCC's (system.h poisons malloc).  */
#include "hint_profile.h"

#include "gcc-headers.h"
#include "memprof-plugin.h"
#include "tree-into-ssa.h"

#include <set>

static memprof::HintProfile *profile;
static memprof::HintThresholds thresholds;

/* Per compilation unit: what -fheapprof-use-stats reports.  */
static struct
{
  unsigned seen, matched, cold, hot, conflicting, unmatched;
  unsigned classified_not_hinted;
} stats;

/* The functions compiled, by linkage name, with their file and where
   each starts, and the allocation calls that matched nothing: the
   profile's contexts of these functions are checked for matches at the
   end.  */
struct compiled_function
{
  std::string name, file;
  location_t where;
};
static std::set<std::string> *compiled_functions;
static std::vector<compiled_function> *function_locations;
static std::vector<std::pair<std::string, location_t>> *unmatched_calls;

static tree origin_function (tree fn);

/* The name the profile knows a function by, the one its debug info
   gives: the linkage name of a public function whose assembler name
   differs from its name (C++), else the name as DWARF prints it (GCC
   emits DW_AT_linkage_name for public functions only); for a clone, its
   origin's (DWARF names a clone by its origin).  */
static std::string
linkage_name (tree fn)
{
  fn = origin_function (fn);
  tree asm_name = DECL_ASSEMBLER_NAME (fn);
  if (TREE_PUBLIC (fn) && DECL_NAME (fn) && asm_name != DECL_NAME (fn))
    return IDENTIFIER_POINTER (asm_name);
  if (const char *name = lang_hooks.dwarf_name (fn, 0))
    return name;
  return IDENTIFIER_POINTER (asm_name);
}

static tree
origin_function (tree fn)
{
  while (DECL_ABSTRACT_ORIGIN (fn) && DECL_ABSTRACT_ORIGIN (fn) != fn
	 && TREE_CODE (DECL_ABSTRACT_ORIGIN (fn)) == FUNCTION_DECL)
    fn = DECL_ABSTRACT_ORIGIN (fn);
  return fn;
}

static memprof::CallFrame
call_frame (tree fn, location_t loc)
{
  memprof::CallFrame f;
  fn = origin_function (fn);
  f.function = linkage_name (fn);
  f.function_line = LOCATION_LINE (DECL_SOURCE_LOCATION (fn));
  expanded_location x = expand_location (loc);
  f.file = x.file ? x.file : "";
  f.line = x.line;
  f.column = x.column;
  return f;
}

/* The inline stack of CALL, innermost first, as the debug info of the
   compiled code will describe its call instruction.  */
static std::vector<memprof::CallFrame>
inline_stack (gcall *call, tree fndecl)
{
  std::vector<memprof::CallFrame> stack;
  location_t loc = gimple_location (call);
  for (tree block = gimple_block (call);
       block && TREE_CODE (block) == BLOCK;
       block = BLOCK_SUPERCONTEXT (block))
    if (inlined_function_outer_scope_p (block))
      {
	tree origin = block_ultimate_origin (block);
	if (!origin || TREE_CODE (origin) != FUNCTION_DECL)
	  continue;
	stack.push_back (call_frame (origin, loc));
	loc = BLOCK_SOURCE_LOCATION (block);
      }
  stack.push_back (call_frame (fndecl, loc));
  return stack;
}

static void
describe (char *buf, size_t size, const memprof::SiteVerdict &v)
{
  snprintf (buf, size,
	    "%u context%s, %llu blocks, lifetime %.0f ms (%.0f%% of the run), "
	    "%.3g accesses/byte, %.3g accesses/byte/s",
	    v.contexts, v.contexts == 1 ? "" : "s",
	    (unsigned long long) v.blocks, v.lifetime_ms, v.lifetime_percent,
	    v.accesses_per_byte, v.density);
}

static unsigned
hint_function (function *fun)
{
  std::string name = linkage_name (fun->decl);
  if (compiled_functions->insert (name).second)
    function_locations->push_back ({ name,
				     DECL_SOURCE_FILE (fun->decl)
				       ? DECL_SOURCE_FILE (fun->decl) : "",
				     DECL_SOURCE_LOCATION (fun->decl) });
  bool changed = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	if (!call)
	  continue;
	memprof_alloc_kind kind = memprof_allocation_kind (call);
	if (kind == MEMPROF_NOT_ALLOC)
	  continue;
	location_t loc = gimple_location (call);
	std::vector<memprof::CallFrame> stack = inline_stack (call, fun->decl);
	memprof::SiteVerdict v = profile->match (stack, thresholds);
	stats.seen++;
	char what[256];
	describe (what, sizeof what, v);
	if (!v.contexts)
	  {
	    stats.unmatched++;
	    /* A call the training run never made matches nothing either:
	       it is reported at the end only if its function also has
	       profile sites no call matched (drift, not coverage).  */
	    if (memprof_opts.use_mismatch)
	      unmatched_calls->emplace_back (stack.back ().function, loc);
	    continue;
	  }
	stats.matched++;
	switch (v.verdict)
	  {
	  case memprof::HeapClass::NONE:
	    if (memprof_opts.use_notes)
	      inform (loc, "allocation neither hot nor cold, not hinted (%s)",
		      what);
	    break;
	  case memprof::HeapClass::CONFLICT:
	    stats.conflicting++;
	    if (memprof_opts.use_notes)
	      inform (loc, "allocation not hinted: its contexts disagree (%u "
		      "cold, %u hot, %u neither; %s)", v.cold, v.hot,
		      v.contexts - v.cold - v.hot, what);
	    break;
	  case memprof::HeapClass::COLD:
	  case memprof::HeapClass::HOT:
	    {
	      bool cold = v.verdict == memprof::HeapClass::COLD;
	      const char *why = "";
	      if (memprof_apply_hint (&gsi, kind, cold, &why))
		{
		  changed = true;
		  (cold ? stats.cold : stats.hot)++;
		  if (memprof_opts.use_notes)
		    inform (loc, "allocation hinted %s (%s)",
			    cold ? "cold" : "hot", what);
		}
	      else
		{
		  stats.classified_not_hinted++;
		  if (memprof_opts.use_notes)
		    inform (loc, "allocation is %s, not hinted: %s (%s)",
			    cold ? "cold" : "hot", why, what);
		}
	    }
	    break;
	  }
      }
  if (!changed)
    return 0;
  cgraph_edge::rebuild_edges ();
  return TODO_update_ssa_only_virtuals;
}

/* PLUGIN_FINISH_UNIT: the stale-profile warnings that need the whole
   unit, and the summary.  */
static void
use_finish_unit (void *, void *)
{
  if (memprof_opts.use_mismatch)
    {
      for (const auto &f : *function_locations)
	{
	std::vector<memprof::UnmatchedLeaf> leaves
	  = profile->unmatched_leaves (f.name, f.file);
	if (!leaves.empty ())
	  for (const auto &call : *unmatched_calls)
	    if (call.first == f.name)
	      warning_at (call.second, 0,
			  "allocation call matches no context of the heap "
			  "profile, which has allocation sites in %qs: the "
			  "profile may be stale [-Wheapprof-mismatch]",
			  f.name.c_str ());
	for (const memprof::UnmatchedLeaf &l : leaves)
	  {
	    char where[512];
	    snprintf (where, sizeof where, "%s:%llu:%llu (line %+lld of %s)",
		      l.file.c_str (), (unsigned long long) l.line,
		      (unsigned long long) l.column, (long long) l.line_offset,
		      l.function.c_str ());
	    warning_at (f.where, 0,
			"heap profile has %u context%s allocating at %s that "
			"match no allocation call here: the profile may be "
			"stale [-Wheapprof-mismatch]",
			l.contexts, l.contexts == 1 ? "" : "s", where);
	  }
	}
      for (const std::string &fn
	   : profile->functions_in_file (main_input_filename))
	if (!compiled_functions->count (fn)
	    && !maybe_get_identifier (fn.c_str ()))
	  warning_at (UNKNOWN_LOCATION, 0,
		      "heap profile has allocation contexts in %qs of %qs, a "
		      "function this compilation does not define (renamed or "
		      "removed?) [-Wheapprof-mismatch]",
		      fn.c_str (), lbasename (main_input_filename));
    }
  if (memprof_opts.use_stats)
    inform (UNKNOWN_LOCATION,
	    "heap profile %qs: %u allocation calls, %u matched (%u hinted "
	    "cold, %u hinted hot, %u conflicting, %u classified but not "
	    "hinted), %u unmatched",
	    memprof_opts.use_profile, stats.seen, stats.matched, stats.cold,
	    stats.hot, stats.conflicting, stats.classified_not_hinted,
	    stats.unmatched);
}

namespace {

const pass_data use_pass_data = {
  GIMPLE_PASS,
  "memprof_use",	 /* name */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_ssa | PROP_cfg,	 /* properties_required */
  0, 0, 0, 0,
};

class use_pass : public gimple_opt_pass
{
public:
  explicit use_pass (gcc::context *ctxt)
    : gimple_opt_pass (use_pass_data, ctxt)
  {
  }

  opt_pass *
  clone () final override
  {
    return new use_pass (m_ctxt);
  }

  unsigned
  execute (function *fun) final override
  {
    return hint_function (fun);
  }
};

} // namespace

bool
memprof_use_init (const char *plugin_name)
{
  profile = new memprof::HintProfile;
  std::string message;
  if (!profile->load (memprof_opts.use_profile, message))
    {
      /* As -fprofile-use does: the compilation fails, one line naming
	 the file.  */
      error ("%s: %s", memprof_opts.use_profile, message.c_str ());
      return false;
    }
  if (memprof_opts.use_mismatch && !profile->has_function_lines ())
    warning_at (UNKNOWN_LOCATION, 0,
		"heap profile %qs records no function start lines (made by "
		"an older memprof-merge): lines are matched absolutely, so any "
		"line moved above an allocation loses its hint "
		"[-Wheapprof-mismatch]", memprof_opts.use_profile);
  thresholds.cold_lifetime_percent = memprof_opts.cold_lifetime_percent;
  thresholds.cold_min_lifetime_ms = memprof_opts.cold_min_lifetime_ms;
  thresholds.cold_accesses = memprof_opts.cold_accesses;
  thresholds.hot_density = memprof_opts.hot_density;
  compiled_functions = new std::set<std::string>;
  function_locations = new std::vector<compiled_function>;
  unmatched_calls = new std::vector<std::pair<std::string, location_t>>;

  register_callback (plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) memprof_use_gc_roots);
  struct register_pass_info pass_info;
  pass_info.pass = new use_pass (g);
  pass_info.reference_pass_name = "optimized";
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &pass_info);
  register_callback (plugin_name, PLUGIN_FINISH_UNIT, use_finish_unit, NULL);
  return true;
}
