/* Trees that name the runtime: built once per compilation on first use
   and kept across functions, so every one of them is a GC root (a tree
   held only by a plugin's static is otherwise collected between
   functions).

   Every reference to the runtime is weak except the one to
   MEMPROF_LINK_CHECK_SYMBOL (module_ctor.cc): an instrumented object
   linked without the runtime then fails with that single undefined
   symbol, whose name says to link with -fheapprof, instead of one error
   per instrumented function.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

static tree shadow_base;
static tree counter_type;
static tree load_callback;
static tree store_callback;
static tree memcpy_fn;
static tree memmove_fn;
static tree memset_fn;
static tree count_strided_fn;
static tree count_range_fn;
static tree set_profile_dir_fn;

const struct ggc_root_tab memprof_gc_roots[] = {
  MEMPROF_ROOT (shadow_base),
  MEMPROF_ROOT (counter_type),
  MEMPROF_ROOT (load_callback),
  MEMPROF_ROOT (store_callback),
  MEMPROF_ROOT (memcpy_fn),
  MEMPROF_ROOT (memmove_fn),
  MEMPROF_ROOT (memset_fn),
  MEMPROF_ROOT (count_strided_fn),
  MEMPROF_ROOT (count_range_fn),
  MEMPROF_ROOT (set_profile_dir_fn),
  LAST_GGC_ROOT_TAB
};

/* An external function of the runtime: nothrow, so that calls to it do
   not need EH edges; weak unless STRONG.  */
static tree
external_function (const char *name, tree type, bool strong = false)
{
  tree decl = build_fn_decl (name, type);
  TREE_NOTHROW (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  if (!strong)
    declare_weak (decl);
  return decl;
}

tree
memprof_shadow_base_decl ()
{
  if (!shadow_base)
    {
      tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
			      get_identifier (memprof_opts.histogram
					      ? MEMPROF_HISTOGRAM_SHADOW_BASE_SYMBOL
					      : MEMPROF_SHADOW_BASE_SYMBOL),
			      pointer_sized_int_node);
      TREE_PUBLIC (decl) = 1;
      DECL_EXTERNAL (decl) = 1;
      /* Not TREE_STATIC: GCC emits .weak only for such externals.  */
      DECL_ARTIFICIAL (decl) = 1;
      DECL_IGNORED_P (decl) = 1;
      TREE_USED (decl) = 1;
      declare_weak (decl);
      shadow_base = decl;
    }
  return shadow_base;
}

tree
memprof_counter_type ()
{
  if (!counter_type)
    {
      /* A private alias set: counter updates never alias user data, so
	 they do not pessimize the code around them.  */
      tree type = build_distinct_type_copy (memprof_opts.histogram
					    ? uint32_type_node
					    : uint64_type_node);
      TYPE_ALIAS_SET (type) = new_alias_set ();
      counter_type = type;
    }
  return counter_type;
}

namespace {

/* Histogram mode's 4-byte counters saturate: SUM, OLD plus the step,
   becomes all ones when it wrapped (SUM < OLD), with no branch:
   SUM | -(SUM < OLD).  The value to store, appended to SEQ.  */
tree
saturate (gimple_seq *seq, tree old, tree sum)
{
  tree counter = TREE_TYPE (sum);
  gassign *wrapped = gimple_build_assign (make_ssa_name (boolean_type_node),
					  LT_EXPR, sum, old);
  gassign *bit = gimple_build_assign (make_ssa_name (counter), NOP_EXPR,
				      gimple_assign_lhs (wrapped));
  gassign *mask = gimple_build_assign (make_ssa_name (counter), NEGATE_EXPR,
				       gimple_assign_lhs (bit));
  gassign *result = gimple_build_assign (make_ssa_name (counter), BIT_IOR_EXPR,
					 sum, gimple_assign_lhs (mask));
  gimple_seq_add_stmt (seq, wrapped);
  gimple_seq_add_stmt (seq, bit);
  gimple_seq_add_stmt (seq, mask);
  gimple_seq_add_stmt (seq, result);
  return gimple_assign_lhs (result);
}

} // namespace

gassign *
memprof_counter_add (gimple_seq *seq, tree base, tree index, tree addend)
{
  tree counter = memprof_counter_type ();
  /* The offset's pointer type carries the counter's private alias set
     into the reference (and into the RTL MEM).  */
  tree slot = build5 (TARGET_MEM_REF, counter, base,
		      build_int_cst (build_pointer_type (counter), 0),
		      index, size_int (memprof_counter_bytes ()), NULL_TREE);
  /* The runtime maps shadow for the whole address space.  */
  TREE_THIS_NOTRAP (slot) = 1;
  gassign *old_count = gimple_build_assign (make_ssa_name (counter), slot);
  gassign *new_count
    = gimple_build_assign (make_ssa_name (counter), PLUS_EXPR,
			   gimple_assign_lhs (old_count), addend);
  gimple_seq_add_stmt (seq, old_count);
  gimple_seq_add_stmt (seq, new_count);
  tree result = gimple_assign_lhs (new_count);
  if (memprof_opts.histogram)
    result = saturate (seq, gimple_assign_lhs (old_count), result);
  gimple_seq_add_stmt (seq, gimple_build_assign (unshare_expr (slot), result));
  return new_count;
}

tree
memprof_access_callback (bool is_store)
{
  tree &slot = is_store ? store_callback : load_callback;
  if (!slot)
    slot = external_function (memprof_opts.histogram
			      ? (is_store ? MEMPROF_HISTOGRAM_STORE_CALLBACK
					  : MEMPROF_HISTOGRAM_LOAD_CALLBACK)
			      : (is_store ? MEMPROF_STORE_CALLBACK
					  : MEMPROF_LOAD_CALLBACK),
			      build_function_type_list (void_type_node,
							pointer_sized_int_node,
							NULL_TREE));
  return slot;
}

tree
memprof_count_strided_function ()
{
  if (!count_strided_fn)
    count_strided_fn
      = external_function (memprof_opts.histogram
			   ? MEMPROF_HISTOGRAM_COUNT_STRIDED
			   : MEMPROF_COUNT_STRIDED,
			   build_function_type_list (void_type_node,
						     pointer_sized_int_node,
						     pointer_sized_int_node,
						     pointer_sized_int_node,
						     NULL_TREE));
  return count_strided_fn;
}

tree
memprof_count_range_function ()
{
  if (!count_range_fn)
    count_range_fn
      = external_function (MEMPROF_RECORD_ACCESS_RANGE,
			   build_function_type_list (void_type_node,
						     const_ptr_type_node,
						     size_type_node,
						     NULL_TREE));
  return count_range_fn;
}

tree
memprof_range_function (enum built_in_function code)
{
  tree *slot;
  const char *name;
  bool hist = memprof_opts.histogram;
  switch (code)
    {
    case BUILT_IN_MEMCPY:
      slot = &memcpy_fn, name = hist ? MEMPROF_HISTOGRAM_MEMCPY : MEMPROF_MEMCPY;
      break;
    case BUILT_IN_MEMMOVE:
      slot = &memmove_fn;
      name = hist ? MEMPROF_HISTOGRAM_MEMMOVE : MEMPROF_MEMMOVE;
      break;
    case BUILT_IN_MEMSET:
      slot = &memset_fn, name = hist ? MEMPROF_HISTOGRAM_MEMSET : MEMPROF_MEMSET;
      break;
    default:
      return NULL_TREE;
    }
  if (!*slot)
    {
      /* Same signature as the libc function it replaces.  */
      tree builtin = builtin_decl_explicit (code);
      if (!builtin)
	return NULL_TREE;
      *slot = external_function (name, TREE_TYPE (builtin));
    }
  return *slot;
}

tree
memprof_set_profile_dir_function ()
{
  /* Weak like the others; called from the constructor, compiled after
     GCC has written its .weak directives, so module_ctor.cc writes this
     one itself.  */
  if (!set_profile_dir_fn)
    set_profile_dir_fn
      = external_function (MEMPROF_SET_PROFILE_DIR_SYMBOL,
			   build_function_type_list (void_type_node,
						     const_ptr_type_node,
						     NULL_TREE));
  return set_profile_dir_fn;
}

tree
memprof_link_check_function ()
{
  return external_function (memprof_opts.histogram
			    ? MEMPROF_HISTOGRAM_LINK_CHECK_SYMBOL
			    : MEMPROF_LINK_CHECK_SYMBOL,
			    build_function_type_list (void_type_node,
						      NULL_TREE),
			    true);
}
