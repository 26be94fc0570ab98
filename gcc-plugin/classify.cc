/* Deciding whether a memory operand may touch the heap.

   Heap memory is only ever reached through a pointer.  An access whose
   base is a declaration (a local or a global named directly) is never
   heap and is skipped unless the stack/globals switches ask for it; an
   access through a pointer is counted unless points-to analysis proves
   the pointer can only point to this function's own locals.  Anything
   uncertain is counted: a skipped heap access would corrupt the profile,
   a counted non-heap access only costs time.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

/* DECL_PT_UIDs of the current function's locals and parameters.  */
static bitmap local_uids;

void
memprof_classify_begin (function *fun)
{
  local_uids = BITMAP_ALLOC (NULL);
  unsigned i;
  tree var;
  FOR_EACH_LOCAL_DECL (fun, i, var)
    if (VAR_P (var) && !is_global_var (var))
      bitmap_set_bit (local_uids, DECL_PT_UID (var));
  for (tree parm = DECL_ARGUMENTS (fun->decl); parm; parm = DECL_CHAIN (parm))
    if (!DECL_BY_REFERENCE (parm))
      bitmap_set_bit (local_uids, DECL_PT_UID (parm));
}

void
memprof_classify_end ()
{
  BITMAP_FREE (local_uids);
}

/* A declaration named directly.  */
static memprof_verdict
classify_decl (tree decl)
{
  if (TREE_CODE (decl) == VAR_DECL && DECL_HARD_REGISTER (decl))
    return MEMPROF_SKIP_UNSUPPORTED;
  if (TREE_CODE (decl) == CONST_DECL)
    return MEMPROF_SKIP_CONSTANT;
  if (is_global_var (decl))
    return memprof_opts.instrument_globals ? MEMPROF_INSTRUMENT
					   : MEMPROF_SKIP_GLOBAL;
  /* A RESULT_DECL returned by invisible reference lives in the caller's
     memory, which may be the heap.  */
  if (TREE_CODE (decl) == RESULT_DECL && DECL_BY_REFERENCE (decl))
    return MEMPROF_INSTRUMENT;
  return memprof_opts.instrument_stack ? MEMPROF_INSTRUMENT
				       : MEMPROF_SKIP_LOCAL;
}

/* A pointer SSA name: skip it only if points-to analysis (not run at -O0)
   proves it points to nothing but this function's locals.  */
static memprof_verdict
classify_ssa_pointer (tree ptr)
{
  if (memprof_opts.instrument_stack || !POINTER_TYPE_P (TREE_TYPE (ptr)))
    return MEMPROF_INSTRUMENT;
  struct ptr_info_def *info = SSA_NAME_PTR_INFO (ptr);
  if (!info)
    return MEMPROF_INSTRUMENT;
  const pt_solution &pt = info->pt;
  if (pt.anything || pt.nonlocal || pt.escaped || pt.ipa_escaped
      || pt.vars_contains_nonlocal || pt.vars_contains_escaped_heap
      || pt.vars_contains_restrict || pt.vars_contains_interposable
      || !pt.vars || bitmap_empty_p (pt.vars))
    return MEMPROF_INSTRUMENT;
  /* Heap variables created for malloc results are not local decls, so a
     pointer that may point to one fails this test.  */
  if (!bitmap_intersect_compl_p (pt.vars, local_uids))
    return MEMPROF_SKIP_STACK_POINTER;
  return MEMPROF_INSTRUMENT;
}

/* The verdict for BASE, the base object of an access or of an address
   taken; OTHERWISE for a base that is none of the kinds below.  */

static memprof_verdict
classify_base (tree base, memprof_verdict otherwise)
{
  if (!base)
    return MEMPROF_SKIP_UNSUPPORTED;
  if (DECL_P (base))
    return classify_decl (base);
  if (CONSTANT_CLASS_P (base))
    return MEMPROF_SKIP_CONSTANT;
  /* Operand 0 of a MEM_REF is its pointer, of a TARGET_MEM_REF its
     TMR_BASE (&global with an index, or a pointer).  */
  if (TREE_CODE (base) == MEM_REF || TREE_CODE (base) == TARGET_MEM_REF)
    return memprof_classify_pointer (TREE_OPERAND (base, 0));
  return otherwise;
}

memprof_verdict
memprof_classify_pointer (tree ptr)
{
  STRIP_NOPS (ptr);
  if (TREE_CODE (ptr) == ADDR_EXPR)
    return classify_base (get_base_address (TREE_OPERAND (ptr, 0)),
			  MEMPROF_INSTRUMENT);
  if (TREE_CODE (ptr) == SSA_NAME)
    return classify_ssa_pointer (ptr);
  /* A fixed address or anything else: count what we cannot rule out.  */
  return MEMPROF_INSTRUMENT;
}

memprof_verdict
memprof_classify_reference (tree ref)
{
  return classify_base (get_base_address (ref), MEMPROF_SKIP_UNSUPPORTED);
}
