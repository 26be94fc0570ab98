/* Calls that access memory: atomic builtins and internal functions,
   masked/length/gather/scatter vector accesses (pointer operands the
   generic load/store walk cannot see), and the memory builtins that are
   handed to the runtime to count as ranges.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

/* Lane 0's address of a gather or scatter: BASE + INDEX[0] * SCALE.  */
static tree
lane0_address (tree base, tree index, tree scale)
{
  tree lane_type = TREE_TYPE (TREE_TYPE (index));
  tree lane0 = build3 (BIT_FIELD_REF, lane_type, index,
		       TYPE_SIZE (lane_type), bitsize_zero_node);
  /* A signed lane is sign-extended by the conversion, as the hardware
     does.  */
  tree offset = fold_build2 (MULT_EXPR, sizetype,
			     fold_convert (sizetype, lane0),
			     fold_convert (sizetype, scale));
  return fold_build_pointer_plus (base, offset);
}

/* The first byte a gather or scatter internal function touches.  */
static tree
gather_scatter_first_address (gcall *call)
{
  tree base = gimple_call_arg (call, 0);
  tree offsets = gimple_call_arg (call, 1);
  if (!VECTOR_TYPE_P (TREE_TYPE (offsets))
      || !POINTER_TYPE_P (TREE_TYPE (base)))
    return NULL_TREE;
  return lane0_address (base, offsets, gimple_call_arg (call, 2));
}

/* Target builtins for gathers and scatters (the x86 vectorizer emits
   __builtin_ia32_gather* and __builtin_ia32_scatter* rather than internal
   functions).  Their operands are a base pointer, an integer index vector
   after it and a constant scale last, in an order that differs between
   gathers and scatters.  */
static tree
target_gather_scatter_first_address (gcall *call, bool *is_store)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (gimple_call_fndecl (call)));
  bool gather = strstr (name, "gather") != NULL;
  bool scatter = strstr (name, "scatter") != NULL;
  unsigned nargs = gimple_call_num_args (call);
  if ((!gather && !scatter) || nargs < 3)
    return NULL_TREE;
  tree base = NULL_TREE, index = NULL_TREE;
  for (unsigned i = 0; i < nargs && !index; i++)
    {
      tree arg = gimple_call_arg (call, i);
      tree type = TREE_TYPE (arg);
      if (!base && POINTER_TYPE_P (type))
	base = arg;
      else if (base && VECTOR_TYPE_P (type)
	       && INTEGRAL_TYPE_P (TREE_TYPE (type)))
	index = arg;
    }
  tree scale = gimple_call_arg (call, nargs - 1);
  if (!base || !index || TREE_CODE (scale) != INTEGER_CST)
    return NULL_TREE;
  *is_store = scatter;
  return lane0_address (base, index, scale);
}

/* The first pointer argument of CALL, or null.  */
static tree
first_pointer_argument (gcall *call)
{
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      tree arg = gimple_call_arg (call, i);
      if (POINTER_TYPE_P (TREE_TYPE (arg)))
	return arg;
    }
  return NULL_TREE;
}

static tree
internal_call_access_address (gcall *call, bool *is_store)
{
  internal_fn fn = gimple_call_internal_fn (call);
  if (memprof_ifn_atomic_fetch_cmp_0_p (fn))
    {
      *is_store = true;
      return first_pointer_argument (call);
    }
  switch (fn)
    {
    case IFN_ATOMIC_BIT_TEST_AND_SET:
    case IFN_ATOMIC_BIT_TEST_AND_COMPLEMENT:
    case IFN_ATOMIC_BIT_TEST_AND_RESET:
    case IFN_ATOMIC_COMPARE_EXCHANGE:
      *is_store = true;
      return first_pointer_argument (call);
    /* Their memory operand is an ordinary reference, seen by the walk.  */
    case IFN_LOAD_LANES:
    case IFN_STORE_LANES:
      return NULL_TREE;
    default:
      break;
    }
  bool load = internal_load_fn_p (fn), store = internal_store_fn_p (fn);
  if (!load && !store)
    return NULL_TREE;
  *is_store = store;
  if (internal_gather_scatter_fn_p (fn))
    return gather_scatter_first_address (call);
  tree ptr = gimple_call_arg (call, 0);
  return POINTER_TYPE_P (TREE_TYPE (ptr)) ? ptr : NULL_TREE;
}

/* __atomic_* and __sync_* builtins: their first argument is the object,
   except for fences and lock-freedom queries, which touch no memory.  */
static tree
atomic_builtin_access_address (gcall *call, bool *is_store)
{
  tree fndecl = gimple_call_fndecl (call);
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  bool atomic = startswith (name, "__atomic_") || startswith (name, "__sync_");
  if (!atomic || gimple_call_num_args (call) == 0)
    return NULL_TREE;
  tree ptr = gimple_call_arg (call, 0);
  if (!POINTER_TYPE_P (TREE_TYPE (ptr)))
    return NULL_TREE;
  *is_store = !startswith (name, "__atomic_load");
  return ptr;
}

tree
memprof_call_access_address (gcall *call, bool *is_store)
{
  if (gimple_call_internal_p (call))
    return internal_call_access_address (call, is_store);
  if (gimple_call_builtin_p (call, BUILT_IN_NORMAL))
    return atomic_builtin_access_address (call, is_store);
  if (gimple_call_builtin_p (call, BUILT_IN_MD))
    return target_gather_scatter_first_address (call, is_store);
  return NULL_TREE;
}

/* Is any memory argument of the call possibly heap?  */
static bool
touches_heap (gcall *call, unsigned nptrs)
{
  for (unsigned i = 0; i < nptrs; i++)
    if (memprof_classify_pointer (gimple_call_arg (call, i))
	== MEMPROF_INSTRUMENT)
      return true;
  return false;
}

bool
memprof_redirect_memory_builtin (gimple_stmt_iterator *gsi)
{
  gcall *call = dyn_cast<gcall *> (gsi_stmt (*gsi));
  if (!call || !memprof_opts.redirect_builtins)
    return false;
  enum built_in_function code;
  unsigned nptrs;
  if (gimple_call_builtin_p (call, BUILT_IN_MEMCPY))
    code = BUILT_IN_MEMCPY, nptrs = 2;
  else if (gimple_call_builtin_p (call, BUILT_IN_MEMMOVE))
    code = BUILT_IN_MEMMOVE, nptrs = 2;
  else if (gimple_call_builtin_p (call, BUILT_IN_MEMPCPY))
    code = BUILT_IN_MEMCPY, nptrs = 2;
  else if (gimple_call_builtin_p (call, BUILT_IN_MEMSET))
    code = BUILT_IN_MEMSET, nptrs = 1;
  else
    return false;
  if (!touches_heap (call, nptrs))
    return false;
  tree fn = memprof_range_function (code);
  if (!fn)
    return false;

  if (!gimple_call_builtin_p (call, BUILT_IN_MEMPCPY))
    {
      gimple_call_set_fndecl (call, fn);
      gimple_call_set_fntype (call, TREE_TYPE (fn));
      update_stmt (call);
      return true;
    }

  /* lhs = mempcpy (d, s, n) becomes tmp = __memprof_memcpy (d, s, n);
     lhs = tmp + n.  */
  tree dst = gimple_call_arg (call, 0), len = gimple_call_arg (call, 2);
  gcall *copy = gimple_build_call (fn, 3, dst, gimple_call_arg (call, 1), len);
  gimple_set_location (copy, gimple_location (call));
  gimple_call_set_nothrow (copy, gimple_call_nothrow_p (call));
  tree lhs = gimple_call_lhs (call);
  gimple_move_vops (copy, call);
  if (!lhs)
    {
      gsi_replace (gsi, copy, true);
      return true;
    }
  /* The addition takes the call's place as the definition of LHS.  */
  tree tmp = make_ssa_name (TREE_TYPE (TREE_TYPE (fn)));
  gimple_call_set_lhs (copy, tmp);
  gsi_insert_before (gsi, copy, GSI_SAME_STMT);
  if (!useless_type_conversion_p (sizetype, TREE_TYPE (len)))
    {
      gassign *conv = gimple_build_assign (make_ssa_name (sizetype),
					   NOP_EXPR, len);
      gsi_insert_before (gsi, conv, GSI_SAME_STMT);
      len = gimple_assign_lhs (conv);
    }
  gassign *end = gimple_build_assign (lhs, POINTER_PLUS_EXPR, tmp, len);
  gimple_set_location (end, gimple_location (call));
  gsi_replace (gsi, end, true);
  return true;
}
