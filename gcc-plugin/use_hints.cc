/* -fheapprof-use: which calls allocate, and the hinted forms of those an
   allocator can act on, through the allocators' existing interfaces:

   - tcmalloc: operator new and new[] (plain, nothrow, aligned) become
     the overloads taking a trailing __hot_cold_t (an enum class of
     uint8_t: 0..127 cold, 128..255 hot; we pass LLVM's values, 1 for
     cold and 254 for hot).  libmemprof_hints.a defines them weakly,
     forwarding to the plain operator, so the program links and runs
     with any allocator; TCMalloc's own definitions take over when it is
     linked.
   - jemalloc: a cold malloc (n) becomes mallocx (MAX (n, 1), flags) with
     flags from __memprof_jemalloc_cold_flags () (libmemprof_hints.a),
     which names a dedicated arena created once; a cold calloc and a cold
     plain or nothrow operator new (new[]) call the library's
     __memprof_jemalloc_cold_calloc / _new / _new_nothrow, which
     allocate there too (the aligned operators are left alone); free ()
     and operator delete of such blocks are jemalloc's ordinary ones.
     Hot calls stay as they are.
   - none: nothing changes.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"
#include "tree-into-ssa.h"

static tree cold_flags_fn;
static tree mallocx_fn;
static tree cold_calloc_fn;
static tree cold_new_fn;
static tree cold_new_nothrow_fn;
/* The __hot_cold_t forms made so far, one per operator: a chain of
   TREE_LIST (purpose: the hinted decl).  */
static tree hot_cold_decls;

const struct ggc_root_tab memprof_use_gc_roots[] = {
  MEMPROF_ROOT (cold_flags_fn),
  MEMPROF_ROOT (mallocx_fn),
  MEMPROF_ROOT (cold_calloc_fn),
  MEMPROF_ROOT (cold_new_fn),
  MEMPROF_ROOT (cold_new_nothrow_fn),
  MEMPROF_ROOT (hot_cold_decls),
  LAST_GGC_ROOT_TAB
};

/* LLVM's hint values (-cold-new-hint-value, -hot-new-hint-value).  */
static const int hot_cold_cold = 1;
static const int hot_cold_hot = 254;

/* The suffixes of the replaceable operator new and new[] after _Znwm or
   _Znam: plain, nothrow, aligned, aligned nothrow.  */
static const char *const new_suffixes[]
  = { "", "RKSt9nothrow_t", "St11align_val_t",
      "St11align_val_tRKSt9nothrow_t" };

static bool
replaceable_new_p (const char *name)
{
  if (strncmp (name, "_Znwm", 5) != 0 && strncmp (name, "_Znam", 5) != 0)
    return false;
  for (const char *suffix : new_suffixes)
    if (strcmp (name + 5, suffix) == 0)
      return true;
  return false;
}

memprof_alloc_kind
memprof_allocation_kind (gcall *call)
{
  tree fn = gimple_call_fndecl (call);
  if (!fn)
    return MEMPROF_NOT_ALLOC;
  if (fndecl_built_in_p (fn, BUILT_IN_NORMAL))
    switch (DECL_FUNCTION_CODE (fn))
      {
      case BUILT_IN_MALLOC:
	return MEMPROF_ALLOC_MALLOC;
      case BUILT_IN_CALLOC:
	return MEMPROF_ALLOC_CALLOC;
      case BUILT_IN_REALLOC:
      case BUILT_IN_ALIGNED_ALLOC:
      case BUILT_IN_POSIX_MEMALIGN:
      case BUILT_IN_STRDUP:
      case BUILT_IN_STRNDUP:
	return MEMPROF_ALLOC_OTHER_C;
      default:
	return MEMPROF_NOT_ALLOC;
      }
  if (!TREE_PUBLIC (fn) || !DECL_EXTERNAL (fn))
    return MEMPROF_NOT_ALLOC;
  const char *name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
  if (replaceable_new_p (name))
    return MEMPROF_ALLOC_NEW;
  if (strcmp (name, "memalign") == 0 || strcmp (name, "valloc") == 0
      || strcmp (name, "pvalloc") == 0 || strcmp (name, "reallocarray") == 0)
    return MEMPROF_ALLOC_OTHER_C;
  return MEMPROF_NOT_ALLOC;
}

/* An external function NAME (an assembler name, not mangled again) of
   TYPE.  */
static tree
external_fn (const char *name, tree type)
{
  tree decl = build_fn_decl (name, type);
  SET_DECL_ASSEMBLER_NAME (decl, get_identifier (name));
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  return decl;
}

/* The __hot_cold_t form of the operator new OLD.  */
static tree
hot_cold_decl (tree old)
{
  char name[64];
  snprintf (name, sizeof name, "%s12__hot_cold_t",
	    IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (old)));
  for (tree t = hot_cold_decls; t; t = TREE_CHAIN (t))
    if (strcmp (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (TREE_PURPOSE (t))),
		name) == 0)
      return TREE_PURPOSE (t);
  auto_vec<tree, 4> args;
  for (tree a = TYPE_ARG_TYPES (TREE_TYPE (old)); a && a != void_list_node;
       a = TREE_CHAIN (a))
    args.safe_push (TREE_VALUE (a));
  args.safe_push (unsigned_char_type_node);
  tree type = build_function_type_array (TREE_TYPE (TREE_TYPE (old)),
					 args.length (), args.address ());
  tree decl = external_fn (name, type);
  TREE_NOTHROW (decl) = TREE_NOTHROW (old);
  DECL_IS_MALLOC (decl) = DECL_IS_MALLOC (old);
  hot_cold_decls = tree_cons (decl, NULL_TREE, hot_cold_decls);
  return decl;
}

/* Replace the call at GSI by CALL with the same result, position, block,
   virtual operands and EH region.  */
static void
replace_call (gimple_stmt_iterator *gsi, gcall *call)
{
  gcall *old = as_a<gcall *> (gsi_stmt (*gsi));
  gimple_set_location (call, gimple_location (old));
  gimple_set_block (call, gimple_block (old));
  gimple_call_set_nothrow (call, gimple_call_nothrow_p (old));
  if (tree lhs = gimple_call_lhs (old))
    gimple_call_set_lhs (call, lhs);
  gimple_move_vops (call, old);
  gsi_replace (gsi, call, true);
}

static bool
hint_new (gimple_stmt_iterator *gsi, bool cold)
{
  gcall *old = as_a<gcall *> (gsi_stmt (*gsi));
  tree fn = hot_cold_decl (gimple_call_fndecl (old));
  auto_vec<tree, 4> args;
  for (unsigned i = 0; i < gimple_call_num_args (old); i++)
    args.safe_push (gimple_call_arg (old, i));
  args.safe_push (build_int_cst (unsigned_char_type_node,
				 cold ? hot_cold_cold : hot_cold_hot));
  replace_call (gsi, gimple_build_call_vec (fn, args));
  return true;
}

static bool
hint_malloc_jemalloc (gimple_stmt_iterator *gsi)
{
  if (!cold_flags_fn)
    {
      cold_flags_fn
	= external_fn ("__memprof_jemalloc_cold_flags",
		       build_function_type_list (integer_type_node,
						 NULL_TREE));
      TREE_NOTHROW (cold_flags_fn) = 1;
      DECL_PURE_P (cold_flags_fn) = 0;
      mallocx_fn
	= external_fn ("mallocx",
		       build_function_type_list (ptr_type_node, size_type_node,
						 integer_type_node, NULL_TREE));
      TREE_NOTHROW (mallocx_fn) = 1;
      DECL_IS_MALLOC (mallocx_fn) = 1;
    }
  gcall *old = as_a<gcall *> (gsi_stmt (*gsi));
  location_t loc = gimple_location (old);
  /* mallocx (0, ...) is undefined where malloc (0) is not: ask for 1.  */
  tree size = gimple_call_arg (old, 0);
  tree one = build_int_cst (TREE_TYPE (size), 1);
  gassign *at_least_one
    = gimple_build_assign (make_ssa_name (TREE_TYPE (size)), MAX_EXPR, size,
			   one);
  gimple_set_location (at_least_one, loc);
  gsi_insert_before (gsi, at_least_one, GSI_SAME_STMT);
  gcall *flags = gimple_build_call (cold_flags_fn, 0);
  gimple_call_set_lhs (flags, make_ssa_name (integer_type_node));
  gimple_set_location (flags, loc);
  gimple_set_block (flags, gimple_block (old));
  gsi_insert_before (gsi, flags, GSI_SAME_STMT);
  gcall *call = gimple_build_call (mallocx_fn, 2,
				   gimple_assign_lhs (at_least_one),
				   gimple_call_lhs (flags));
  replace_call (gsi, call);
  /* The flags call may create the arena: it reads and writes memory,
     and its virtual operands come from the renaming the pass asks for.  */
  mark_virtual_operands_for_renaming (cfun);
  return true;
}

/* A cold calloc or operator new at GSI becomes a call to the hint
   library's cold-arena function.  */
static bool
hint_jemalloc_call (gimple_stmt_iterator *gsi, memprof_alloc_kind kind,
		    const char **why)
{
  gcall *old = as_a<gcall *> (gsi_stmt (*gsi));
  if (kind == MEMPROF_ALLOC_CALLOC)
    {
      if (!cold_calloc_fn)
	{
	  cold_calloc_fn
	    = external_fn ("__memprof_jemalloc_cold_calloc",
			   build_function_type_list (ptr_type_node,
						     size_type_node,
						     size_type_node,
						     NULL_TREE));
	  TREE_NOTHROW (cold_calloc_fn) = 1;
	  DECL_IS_MALLOC (cold_calloc_fn) = 1;
	}
      replace_call (gsi, gimple_build_call (cold_calloc_fn, 2,
					    gimple_call_arg (old, 0),
					    gimple_call_arg (old, 1)));
      return true;
    }
  const char *name
    = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (gimple_call_fndecl (old)));
  bool nothrow = strcmp (name + 5, "RKSt9nothrow_t") == 0;
  if (!nothrow && name[5])
    {
      *why = "the jemalloc hints leave the aligned operator new alone";
      return false;
    }
  tree &fn = nothrow ? cold_new_nothrow_fn : cold_new_fn;
  if (!fn)
    {
      fn = external_fn (nothrow ? "__memprof_jemalloc_cold_new_nothrow"
				: "__memprof_jemalloc_cold_new",
			build_function_type_list (ptr_type_node,
						  size_type_node, NULL_TREE));
      /* The plain one throws std::bad_alloc as operator new does.  */
      TREE_NOTHROW (fn) = nothrow;
      DECL_IS_MALLOC (fn) = 1;
    }
  replace_call (gsi, gimple_build_call (fn, 1, gimple_call_arg (old, 0)));
  return true;
}

bool
memprof_apply_hint (gimple_stmt_iterator *gsi, memprof_alloc_kind kind,
		    bool cold, const char **why)
{
  switch (memprof_opts.use_allocator)
    {
    case memprof_options::HINT_NONE:
      *why = "use-allocator=none";
      return false;
    case memprof_options::HINT_TCMALLOC:
      if (kind == MEMPROF_ALLOC_NEW)
	return hint_new (gsi, cold);
      *why = "tcmalloc hints operator new only";
      return false;
    case memprof_options::HINT_JEMALLOC:
      if (!cold)
	{
	  *why = "jemalloc keeps hot blocks in its default arena";
	  return false;
	}
      if (kind == MEMPROF_ALLOC_MALLOC)
	return hint_malloc_jemalloc (gsi);
      if (kind == MEMPROF_ALLOC_CALLOC || kind == MEMPROF_ALLOC_NEW)
	return hint_jemalloc_call (gsi, kind, why);
      *why = "the jemalloc hints are for malloc, calloc and operator new";
      return false;
    }
  return false;
}
