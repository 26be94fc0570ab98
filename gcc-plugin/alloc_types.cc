/* The allocated type of each allocation site, written into the object
   file as the table of memprof/type_table.h (no run-time cost: the type
   is a static property of the call site; memprof-merge joins the table
   with the symbolized stacks).

   The "memprof-types" pass runs right after "ssa", on every function
   before any inlining or copy propagation, so the conversions the
   source wrote are still there as copies into variables of their
   types: "struct rec *p = malloc (...)" is "p_3 = malloc (...)",
   "new Item" is "_1 = operator new (16); D.1_2 = _1" with D.1 an
   "Item *", and std::__new_allocator<T>::allocate's
   "static_cast<T *> (::operator new (n))" is compiled once per T.  The
   keys are the positions the symbolizer reports for the call later,
   whether the function is inlined or not (the call keeps its location
   and an inlined body's frame keeps the name of the function it came
   from), and at -flto the table travels in the bytecode as a toplevel
   asm statement.

   The type of a call's result: follow the result through copies,
   conversions and PHIs (breadth first), collecting the pointer types
   of the names, variables and memory it is stored into, of the
   parameters it is passed as, and of the function's return value when
   it is returned.  void * and the
   character types say nothing (a char * buffer is bytes); the types
   nearest the call win, so "Base *b = new Derived" is a Derived.  One
   type: that type.  Two: ambiguous, recorded unknown.  None: unknown,
   unless the result is returned untyped, as void * or char * (an
   xmalloc), when the caller's
   call site decides and no record is written; the same when it is
   returned a constant past its start (after a size header, whatever
   the header's type), and when it is stored untyped through a pointer
   parameter (SQLite's mallocWithAlarm (n, &p): "*pp = p").  A call
   that passes the address of one local pointer variable and keeps no
   pointer result is then a site like posix_memalign (&p, ...): the
   variable's loads after it decide, and the variable returned untyped
   passes the verdict on again.  */

#define INCLUDE_STRING /* before system.h poisons what <string> uses */
#include <cxxabi.h>
#include "gcc-headers.h"
#include "memprof-plugin.h"
#include "pretty-print.h"
#include "tree-pretty-print.h"
#include "memprof/type_table.h"

namespace {

/* Compiling C++: with -flto, free_lang_data has replaced the names of
   C++ types by their mangled names before "ssa".  */
bool compiling_cxx;

/* The verdict on one call site.  */
struct site_type
{
  bool record = false; /* False: passed on to the caller.  */
  tree type = NULL_TREE; /* Null: unknown.  */
  /* Passed on a constant past the block's start (after a size header):
     the bytes, or 0.  */
  unsigned HOST_WIDE_INT offset = 0;
};

bool
byte_type_p (tree t)
{
  t = TYPE_MAIN_VARIANT (t);
  return t == char_type_node || t == signed_char_type_node
	 || t == unsigned_char_type_node;
}

/* Is TYPE void * or a pointer to a character type: a pointer that says
   nothing of what it points to?  */
bool
untyped_pointer_p (tree type)
{
  return POINTER_TYPE_P (type)
	 && (VOID_TYPE_P (TREE_TYPE (type)) || byte_type_p (TREE_TYPE (type)));
}

/* Is FNDECL an operator new (size_t, void *), which allocates nothing?  */
bool
placement_new_p (tree fndecl)
{
  tree args = TYPE_ARG_TYPES (TREE_TYPE (fndecl));
  if (!args || !TREE_CHAIN (args))
    return false;
  tree second = TREE_VALUE (TREE_CHAIN (args));
  return (TREE_CHAIN (TREE_CHAIN (args)) == void_list_node
	  && POINTER_TYPE_P (second) && VOID_TYPE_P (TREE_TYPE (second)));
}

/* Is CALL's callee an allocation function (declared so, or known)?  */
bool
allocation_function_p (gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);
  if (!fndecl)
    return false;
  if (DECL_IS_OPERATOR_NEW_P (fndecl))
    return !placement_new_p (fndecl);
  if (DECL_IS_MALLOC (fndecl)
      || fndecl_built_in_p (fndecl, BUILT_IN_REALLOC)
      || fndecl_built_in_p (fndecl, BUILT_IN_POSIX_MEMALIGN))
    return true;
  return DECL_NAME (fndecl)
	 && (id_equal (DECL_NAME (fndecl), "realloc")
	     || id_equal (DECL_NAME (fndecl), "reallocarray")
	     || id_equal (DECL_NAME (fndecl), "posix_memalign"));
}

/* Is REF the memory a pointer parameter points to ("*pp")?  */
bool
stored_through_parameter_p (tree ref)
{
  if (TREE_CODE (ref) != MEM_REF || !integer_zerop (TREE_OPERAND (ref, 1)))
    return false;
  tree base = TREE_OPERAND (ref, 0);
  return (TREE_CODE (base) == SSA_NAME && SSA_NAME_IS_DEFAULT_DEF (base)
	  && SSA_NAME_VAR (base)
	  && TREE_CODE (SSA_NAME_VAR (base)) == PARM_DECL);
}

/* For a call that may hand a block out through a parameter, as
   SQLite's mallocWithAlarm (n, &p): the argument &p, when it is the
   call's one address of a local pointer variable and the call keeps no
   pointer result (one it keeps is the block, decided from the result)
   and is no C library function; else null.  */
tree
out_parameter_slot (gcall *call)
{
  tree lhs = gimple_call_lhs (call);
  if (lhs && POINTER_TYPE_P (TREE_TYPE (lhs)))
    return NULL_TREE;
  tree fndecl = gimple_call_fndecl (call);
  if (!gimple_call_fntype (call)
      || (fndecl && (DECL_IN_SYSTEM_HEADER (fndecl)
		     || fndecl_built_in_p (fndecl))))
    return NULL_TREE;
  tree slot = NULL_TREE;
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      tree arg = gimple_call_arg (call, i);
      if (TREE_CODE (arg) != ADDR_EXPR)
	continue;
      tree var = TREE_OPERAND (arg, 0);
      if (!VAR_P (var) || is_global_var (var)
	  || !POINTER_TYPE_P (TREE_TYPE (var)))
	continue;
      if (slot)
	return NULL_TREE;
      slot = arg;
    }
  return slot;
}

/* Does CALL return a block whose type is decided here: an allocation
   function's, or any function's returning void * (a wrapper), or
   char * (an older C wrapper: Tcl's ckalloc, xmalloc in older GNU
   code), but not the C library's char * functions (strchr, getenv:
   declared in system headers), which return no new block; or hand one
   out through a pointer it is given (out_parameter_slot).  */
bool
allocation_site_p (gcall *call)
{
  if (allocation_function_p (call) || out_parameter_slot (call))
    return true;
  tree fntype = gimple_call_fntype (call);
  if (!fntype)
    return false; /* An internal function.  */
  tree ret = TREE_TYPE (fntype);
  tree fndecl = gimple_call_fndecl (call);
  if (fndecl && DECL_IS_OPERATOR_NEW_P (fndecl))
    return false; /* Placement new.  */
  if (!untyped_pointer_p (ret))
    return false;
  return VOID_TYPE_P (TREE_TYPE (ret))
	 || !fndecl
	 || !(DECL_IN_SYSTEM_HEADER (fndecl) || fndecl_built_in_p (fndecl));
}

bool
is_posix_memalign (gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);
  return fndecl && (fndecl_built_in_p (fndecl, BUILT_IN_POSIX_MEMALIGN)
		    || (DECL_NAME (fndecl)
			&& id_equal (DECL_NAME (fndecl), "posix_memalign")));
}

bool
is_array_new (gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);
  return fndecl && DECL_IS_OPERATOR_NEW_P (fndecl) && DECL_NAME (fndecl)
	 && id_equal (DECL_NAME (fndecl), "operator new []");
}

/* The breadth-first walk from a call's result.  */
class result_walk
{
public:
  explicit result_walk (bool array_new) : m_array_new (array_new) {}
  void start (tree value);
  void run ();
  site_type verdict () const;

private:
  void note (tree pointer_type, unsigned depth);
  static void add_type (auto_vec<tree, 4> &types, tree type);
  void follow (tree name, unsigned depth);
  void note_parameters (gcall *call, tree name, unsigned depth);
  void visit_use (gimple *use, tree name, unsigned depth);

  bool m_array_new;
  auto_vec<std::pair<tree, unsigned>, 16> m_queue;
  hash_set<tree> m_seen;
  auto_vec<tree, 4> m_types; /* Distinct main variants at M_DEPTH.  */
  /* The classes whose constructor is called on the block (new T (...)
     with a constructor): the object's own type, whatever it is then
     converted to.  */
  auto_vec<tree, 4> m_constructed;
  unsigned m_depth = UINT_MAX;
  bool m_returned_untyped = false;
  /* Stored untyped through a parameter: "*pp = p".  */
  bool m_passed_out = false;
  /* Pointers a constant past the block's start (p + 1 after a header),
     and whether one of them is returned untyped: the function is then
     an allocator wrapper whose own conversion describes its header.  */
  auto_vec<tree, 4> m_offsets;
  hash_set<tree> m_offset_seen;
  bool m_returned_past_header = false;
  /* How far past the start it is returned; 0 when the returned
     pointers disagree.  */
  unsigned HOST_WIDE_INT m_header_bytes = 0;
};

/* The value is held in something of POINTER_TYPE, DEPTH steps from the
   call.  */
void
result_walk::note (tree pointer_type, unsigned depth)
{
  if (!POINTER_TYPE_P (pointer_type))
    return;
  tree t = TREE_TYPE (pointer_type);
  if (VOID_TYPE_P (t) || byte_type_p (t) || TREE_CODE (t) == FUNCTION_TYPE
      || TREE_CODE (t) == METHOD_TYPE || t == error_mark_node)
    return;
  if (depth > m_depth)
    return;
  if (depth < m_depth)
    {
      m_depth = depth;
      m_types.truncate (0);
    }
  add_type (m_types, t);
}

void
result_walk::add_type (auto_vec<tree, 4> &types, tree type)
{
  for (tree seen : types)
    if (TYPE_MAIN_VARIANT (seen) == TYPE_MAIN_VARIANT (type))
      return;
  types.safe_push (type);
}

/* NAME is passed to CALL: the pointer types of the parameters it is
   passed as (void * and char * ones, as free's and memcpy's, say
   nothing; nor do variadic arguments).  */
void
result_walk::note_parameters (gcall *call, tree name, unsigned depth)
{
  tree fntype = gimple_call_fntype (call);
  if (!fntype)
    return;
  tree parm = TYPE_ARG_TYPES (fntype);
  for (unsigned i = 0; i < gimple_call_num_args (call) && parm
		       && TREE_VALUE (parm) != void_type_node;
       i++, parm = TREE_CHAIN (parm))
    if (gimple_call_arg (call, i) == name)
      note (TREE_VALUE (parm), depth);
}

void
result_walk::follow (tree name, unsigned depth)
{
  if (TREE_CODE (name) == SSA_NAME && !m_seen.add (name))
    m_queue.safe_push (std::make_pair (name, depth));
}

void
result_walk::start (tree value)
{
  note (TREE_TYPE (value), 0);
  follow (value, 0);
}

void
result_walk::visit_use (gimple *use, tree name, unsigned depth)
{
  if (gassign *a = dyn_cast<gassign *> (use))
    {
      enum tree_code code = gimple_assign_rhs_code (a);
      if (gimple_assign_rhs1 (a) != name)
	return;
      tree lhs = gimple_assign_lhs (a);
      if (code == SSA_NAME && stored_through_parameter_p (lhs)
	  && untyped_pointer_p (TREE_TYPE (lhs)))
	m_passed_out = true;
      else if (code == SSA_NAME || CONVERT_EXPR_CODE_P (code)
	  || code == VIEW_CONVERT_EXPR)
	{
	  note (TREE_TYPE (lhs), depth + 1);
	  follow (lhs, depth + 1);
	}
      /* new T[n] of a T with a destructor: the array starts after the
	 cookie holding n.  */
      else if (code == POINTER_PLUS_EXPR && m_array_new
	       && TREE_CODE (gimple_assign_rhs2 (a)) == INTEGER_CST)
	{
	  note (TREE_TYPE (lhs), depth + 1);
	  follow (lhs, depth + 1);
	}
      /* A pointer past a header: only whether it is returned matters.  */
      else if (code == POINTER_PLUS_EXPR
	       && TREE_CODE (gimple_assign_rhs2 (a)) == INTEGER_CST
	       && TREE_CODE (lhs) == SSA_NAME && !m_offset_seen.add (lhs))
	m_offsets.safe_push (lhs);
    }
  else if (gphi *phi = dyn_cast<gphi *> (use))
    {
      tree result = gimple_phi_result (phi);
      note (TREE_TYPE (result), depth + 1);
      follow (result, depth + 1);
    }
  else if (gcall *call = dyn_cast<gcall *> (use))
    {
      tree fndecl = gimple_call_fndecl (call);
      /* The same block, said to be aligned.  */
      if (gimple_call_builtin_p (call, BUILT_IN_ASSUME_ALIGNED)
	  && gimple_call_arg (call, 0) == name && gimple_call_lhs (call))
	{
	  note (TREE_TYPE (gimple_call_lhs (call)), depth + 1);
	  follow (gimple_call_lhs (call), depth + 1);
	}
      else if (fndecl && DECL_CXX_CONSTRUCTOR_P (fndecl)
	  && gimple_call_num_args (call) && gimple_call_arg (call, 0) == name
	  && TREE_CODE (TREE_TYPE (fndecl)) == METHOD_TYPE)
	add_type (m_constructed,
		  TYPE_METHOD_BASETYPE (TREE_TYPE (fndecl)));
      /* Passed on as a typed parameter, which GIMPLE converts without a
	 statement: std::unique_ptr<T> (new T) of an aggregate T is
	 "_1 = operator new (24); unique_ptr<T>::unique_ptr (&u, _1)",
	 the T * only in the constructor's parameter list.  */
      else
	note_parameters (call, name, depth + 1);
    }
  else if (greturn *ret = dyn_cast<greturn *> (use))
    {
      if (gimple_return_retval (ret) != name)
	return;
      tree type = TREE_TYPE (TREE_TYPE (current_function_decl));
      if (untyped_pointer_p (type))
	m_returned_untyped = true;
      else
	note (type, depth + 1);
    }
}

/* Is NAME (or a copy or conversion of it) returned from a function
   returning void * or char *?  */
static bool
returned_untyped (tree name, hash_set<tree> &seen)
{
  tree type = TREE_TYPE (TREE_TYPE (current_function_decl));
  if (!untyped_pointer_p (type))
    return false;
  auto_vec<tree, 8> work;
  work.safe_push (name);
  while (!work.is_empty ())
    {
      tree n = work.pop ();
      imm_use_iterator it;
      gimple *use;
      FOR_EACH_IMM_USE_STMT (use, it, n)
	if (greturn *ret = dyn_cast<greturn *> (use))
	  {
	    if (gimple_return_retval (ret) == n)
	      return true;
	  }
	else if (gassign *a = dyn_cast<gassign *> (use))
	  {
	    enum tree_code code = gimple_assign_rhs_code (a);
	    tree lhs = gimple_assign_lhs (a);
	    if (gimple_assign_rhs1 (a) == n && TREE_CODE (lhs) == SSA_NAME
		&& (code == SSA_NAME || CONVERT_EXPR_CODE_P (code))
		&& !seen.add (lhs))
	      work.safe_push (lhs);
	  }
	else if (gphi *phi = dyn_cast<gphi *> (use))
	  if (!seen.add (gimple_phi_result (phi)))
	    work.safe_push (gimple_phi_result (phi));
    }
  return false;
}

void
result_walk::run ()
{
  for (unsigned i = 0; i < m_queue.length (); i++)
    {
      tree name = m_queue[i].first;
      unsigned depth = m_queue[i].second;
      /* Past the nearest type only a constructor call could change the
	 verdict, and that comes right after the allocation.  */
      if (depth >= m_depth && depth > 2)
	continue;
      imm_use_iterator it;
      gimple *use;
      FOR_EACH_IMM_USE_STMT (use, it, name)
	visit_use (use, name, depth);
    }
  hash_set<tree> seen;
  for (tree offset : m_offsets)
    if (returned_untyped (offset, seen))
      {
	tree bytes = gimple_assign_rhs2 (SSA_NAME_DEF_STMT (offset));
	unsigned HOST_WIDE_INT n
	  = tree_fits_uhwi_p (bytes) ? tree_to_uhwi (bytes) : 0;
	/* A header is small; a "negative" constant is none.  */
	if (n > 4096)
	  n = 0;
	m_header_bytes = !m_returned_past_header || m_header_bytes == n
			   ? n : 0;
	m_returned_past_header = true;
      }
}

site_type
result_walk::verdict () const
{
  site_type v;
  if (m_returned_past_header)
    {
      v.offset = m_header_bytes;
      return v; /* The wrapper's caller decides.  */
    }
  if (m_constructed.length ())
    {
      v.record = true;
      if (m_constructed.length () == 1)
	v.type = m_constructed[0];
    }
  else if (m_types.length () == 1)
    {
      v.record = true;
      v.type = m_types[0];
    }
  else
    v.record = m_types.length () > 1
	       || !(m_returned_untyped || m_passed_out);
  return v;
}

/* The site type of a block the call stores into *SLOT (&p), read from
   the loads of p after it.  At -O1 and above GCC stores posix_memalign's
   result into a temporary and loads it after the call (to add
   __builtin_assume_aligned): the loads anywhere in the function are
   followed.  */
site_type
slot_type (tree slot)
{
  result_walk w (false);
  tree var = TREE_OPERAND (slot, 0);
  w.start (var);
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gimple_assign_single_p (gsi_stmt (gsi))
	  && gimple_assign_rhs1 (gsi_stmt (gsi)) == var)
	w.start (gimple_assign_lhs (gsi_stmt (gsi)));
  w.run ();
  return w.verdict ();
}

site_type
call_site_type (gcall *call)
{
  /* posix_memalign (&p, ...): the type of p.  */
  if (is_posix_memalign (call))
    {
      tree slot = gimple_call_num_args (call) ? gimple_call_arg (call, 0)
					      : NULL_TREE;
      if (slot && TREE_CODE (slot) == ADDR_EXPR && DECL_P (TREE_OPERAND (slot, 0)))
	return slot_type (slot);
      site_type v;
      v.record = true;
      return v;
    }
  if (tree slot = out_parameter_slot (call))
    return slot_type (slot);
  tree lhs = gimple_call_lhs (call);
  if (!lhs)
    {
      /* An allocation whose block is not kept: unknown; anything else
	 (memset's result ignored) is no allocation site.  */
      site_type v;
      v.record = allocation_function_p (call);
      return v;
    }
  result_walk w (is_array_new (call));
  w.start (lhs);
  w.run ();
  return w.verdict ();
}

/* The argument of CALL that gives the block's size in bytes, or null
   when none does alone: malloc's and operator new's first, realloc's and
   aligned_alloc's second, the one of an alloc_size attribute with one
   position; for a wrapper returning void * or char *, its one argument of an
   integer type as wide as a pointer, if it has just one, else its one
   argument of an int type at least.  (calloc, new[]
   and reallocarray are arrays by construction.)  */
tree
block_size_argument (gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);
  tree fntype = gimple_call_fntype (call);
  if (fndecl && DECL_NAME (fndecl))
    {
      const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
      if (fndecl_built_in_p (fndecl, BUILT_IN_MALLOC)
	  || (DECL_IS_OPERATOR_NEW_P (fndecl) && !is_array_new (call)))
	return gimple_call_num_args (call) ? gimple_call_arg (call, 0)
					   : NULL_TREE;
      if (fndecl_built_in_p (fndecl, BUILT_IN_REALLOC)
	  || fndecl_built_in_p (fndecl, BUILT_IN_ALIGNED_ALLOC)
	  || !strcmp (name, "realloc") || !strcmp (name, "memalign"))
	return gimple_call_num_args (call) > 1 ? gimple_call_arg (call, 1)
					       : NULL_TREE;
      if (DECL_IS_OPERATOR_NEW_P (fndecl) || !strcmp (name, "calloc")
	  || !strcmp (name, "reallocarray")
	  || fndecl_built_in_p (fndecl, BUILT_IN_CALLOC))
	return NULL_TREE;
    }
  if (fntype)
    if (tree attr = lookup_attribute ("alloc_size", TYPE_ATTRIBUTES (fntype)))
      {
	tree args = TREE_VALUE (attr);
	if (!args || TREE_CHAIN (args))
	  return NULL_TREE;   /* (count, size): an array.  */
	unsigned pos = tree_to_uhwi (TREE_VALUE (args)) - 1;
	return pos < gimple_call_num_args (call) ? gimple_call_arg (call, pos)
						 : NULL_TREE;
      }
  /* Else the one argument as wide as a pointer; without one, the one of
     an int type at least (mujs's js_realloc (J, p, int size)).  */
  tree only = NULL_TREE, narrow = NULL_TREE;
  unsigned narrow_count = 0;
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      tree arg = gimple_call_arg (call, i);
      tree t = TREE_TYPE (arg);
      if (!INTEGRAL_TYPE_P (t) || TREE_CODE (t) == BOOLEAN_TYPE)
	continue;
      if (TYPE_PRECISION (t) != TYPE_PRECISION (size_type_node))
	{
	  if (TYPE_PRECISION (t) >= TYPE_PRECISION (integer_type_node))
	    {
	      narrow = arg;
	      narrow_count++;
	    }
	  continue;
	}
      if (only)
	return NULL_TREE;
      only = arg;
    }
  if (only)
    return only;
  return narrow_count == 1 ? narrow : NULL_TREE;
}

/* Whether SIZE, the block's size in bytes, is one the source computed as
   a multiple of ELEMENT bytes: a constant, or a product or shift by a
   constant multiple of it (n * sizeof (T)), through conversions.
   Anything else (a parameter, a sum, a load) gives blocks of other
   sizes than whole arrays of the type the result is converted to: the
   type is the header of a larger object (luaC_newobj's GCObject,
   expat's NAMED, a structure with a flexible array member).  */
bool
array_sized_p (tree size, uint64_t element)
{
  for (int steps = 0; steps < 8; steps++)
    {
      if (TREE_CODE (size) == INTEGER_CST)
	return true;
      if (TREE_CODE (size) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (size))
	return false;
      gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (size));
      if (!def)
	return false;
      enum tree_code code = gimple_assign_rhs_code (def);
      /* A copy or conversion, or a constant put in a variable first
	 ("size_t n = sizeof *p; malloc (n)": at this pass, before
	 constant propagation, n_1 = 16).  */
      if (CONVERT_EXPR_CODE_P (code) || code == SSA_NAME
	  || code == INTEGER_CST)
	{
	  size = gimple_assign_rhs1 (def);
	  continue;
	}
      if (code != MULT_EXPR && code != LSHIFT_EXPR)
	return false;
      for (unsigned i = 1; i <= 2; i++)
	{
	  tree c = gimple_op (def, i);
	  if (TREE_CODE (c) != INTEGER_CST || !tree_fits_uhwi_p (c))
	    continue;
	  uint64_t v = tree_to_uhwi (c);
	  if (code == LSHIFT_EXPR)
	    {
	      if (i != 2 || v >= 63)
		continue;
	      v = (uint64_t) 1 << v;
	    }
	  if (element && v % element == 0)
	    return true;
	}
      return false;
    }
  return false;
}

/* Whether TYPE, a structure, ends in a flexible array member (or
   GNU's zero-length array): C has no arrays of it, so a block of it is
   one object, its array running to the block's end, whatever the size
   (mruby's heap page, sizeof (mrb_heap_page) + 1024 * sizeof (RVALUE),
   is 1,025 times the 48-byte page).  */
bool
ends_in_flexible_array (tree type)
{
  if (TREE_CODE (type) != RECORD_TYPE)
    return false;
  tree last = NULL_TREE;
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    if (TREE_CODE (f) == FIELD_DECL)
      last = f;
  if (!last || TREE_CODE (TREE_TYPE (last)) != ARRAY_TYPE)
    return false;
  tree domain = TYPE_DOMAIN (TREE_TYPE (last));
  tree size = TYPE_SIZE (TREE_TYPE (last));
  return !domain || !TYPE_MAX_VALUE (domain) || !size || integer_zerop (size);
}

std::string type_decl_name (tree decl);

/* The "A::B::" before the name of a type declared in CONTEXT, as the
   tools qualify a DWARF name: namespaces ("{anonymous}" for an unnamed
   one, inline ones included) and classes; nothing at file scope or in a
   function (a local type goes by its bare name).  */
std::string
scope_prefix (tree context)
{
  if (!context || TREE_CODE (context) == TRANSLATION_UNIT_DECL
      || TREE_CODE (context) == FUNCTION_DECL)
    return "";
  if (TYPE_P (context))
    {
      tree decl = TYPE_NAME (context);
      if (!decl || TREE_CODE (decl) != TYPE_DECL || !DECL_NAME (decl))
	return "";
      return type_decl_name (decl) + "::";
    }
  if (TREE_CODE (context) != NAMESPACE_DECL)
    return "";
  tree id = DECL_NAME (context);
  const char *name = id ? IDENTIFIER_POINTER (id) : NULL;
  if (!DECL_CONTEXT (context) || (name && strcmp (name, "::") == 0))
    return ""; /* The global namespace.  */
  if (!name || startswith (name, "_GLOBAL__N"))
    name = "{anonymous}";
  return scope_prefix (DECL_CONTEXT (context)) + name + "::";
}

/* MANGLED, the name free_lang_data gives a C++ type ("N2ns4ItemIiEE"),
   as the front end would have named it ("ns::Item<int>"; template
   arguments are all in the mangling, as in DWARF), or "" when it does
   not demangle.  */
std::string
demangled_type_name (const char *mangled)
{
  int status = 0;
  char *d = abi::__cxa_demangle (mangled, NULL, NULL, &status);
  if (status != 0 || !d)
    return "";
  std::string r (d);
  free (d);
  const std::string anon = "(anonymous namespace)";
  for (size_t at; (at = r.find (anon)) != std::string::npos;)
    r.replace (at, anon.size (), "{anonymous}");
  return r;
}

/* The name of TYPE, a struct, union or enum that has none a user wrote
   or the debug information keeps.  */
const char *
unnamed_type_name (tree type)
{
  return TREE_CODE (type) == UNION_TYPE ? "<unnamed union>"
	 : TREE_CODE (type) == ENUMERAL_TYPE ? "<unnamed enum>"
	 : "<unnamed struct>";
}

/* The qualified name of the type DECL names (a TYPE_DECL with a name).
   The C++ front end's names are gone once free_lang_data has run (with
   -flto, before "ssa"): then a type with linkage has its mangled name
   (all template arguments), one without (in an anonymous namespace) its
   plain name in its scope.  */
std::string
type_decl_name (tree decl)
{
  if (compiling_cxx && (flag_generate_lto || flag_generate_offload))
    {
      if (DECL_ASSEMBLER_NAME_SET_P (decl))
	{
	  std::string d
	    = demangled_type_name (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME_RAW (decl)));
	  if (!d.empty ())
	    return d;
	}
      const char *id = IDENTIFIER_POINTER (DECL_NAME (decl));
      if (id[0] == '.')
	/* An anonymous name ("._anon_3": a lambda's closure or an unnamed
	   struct), which means nothing to a user.  */
	id = unnamed_type_name (TREE_TYPE (decl));
      return scope_prefix (DECL_CONTEXT (decl)) + id;
    }
  /* A typedef, or the typedef naming an unnamed C++ struct: its own
     name (the C++ front end's DWARF name of one is its whole
     declaration, "typedef void (* fn)()", "typedef point_t point_t").  */
  const char *dwarf = lang_hooks.dwarf_name (decl, 2);
  if (DECL_ORIGINAL_TYPE (decl)
      || (dwarf && strncmp (dwarf, "typedef ", 8) == 0))
    return scope_prefix (DECL_CONTEXT (decl))
	   + IDENTIFIER_POINTER (DECL_NAME (decl));
  if (!dwarf || !*dwarf)
    /* A lambda's closure or an unnamed struct: DWARF names it not at
       all, the front end as "f()::<lambda(int)>" or "<unnamed struct>",
       already qualified.  */
    return lang_hooks.decl_printable_name (decl, 2);
  return scope_prefix (DECL_CONTEXT (decl)) + dwarf;
}

std::string type_name (tree type);

/* A pointer to function type FN as C and C++ write it:
   "void (*)(void)", "int (*)(int, char *)", "void (*)()" (C++, or an
   unprototyped C function), "int (*)(const char *, ...)".  */
std::string
function_pointer_name (tree fn)
{
  std::string r = type_name (TREE_TYPE (fn)) + " (*)(";
  tree arg = TYPE_ARG_TYPES (fn);
  bool first = true;
  for (; arg && TREE_VALUE (arg) != void_type_node; arg = TREE_CHAIN (arg))
    {
      tree t = TREE_VALUE (arg);
      /* type_name drops qualifiers; a parameter's const char * keeps
	 its const.  */
      bool pointee_const = POINTER_TYPE_P (t) && TYPE_READONLY (TREE_TYPE (t));
      r += (first ? "" : ", ") + std::string (pointee_const ? "const " : "")
	   + type_name (t);
      first = false;
    }
  if (TYPE_ARG_TYPES (fn) && !arg)
    r += first ? "..." : ", ...";
  else if (first && TYPE_ARG_TYPES (fn) && !compiling_cxx)
    r += "void";
  return r + ")";
}

/* A type named as its DWARF names it, qualified by its scope: a C struct
   by its tag ("rec"), an unnamed struct by its typedef ("point_t"), a C++
   class with its namespaces and template arguments, defaults included
   ("ns::Item<int>", "std::vector<int, std::allocator<int> >"), so the
   tools find its layout by that name; a pointer as its target's name
   and " *"; anything else as GCC prints it ("int").  */
std::string
type_name (tree type)
{
  tree main = TYPE_MAIN_VARIANT (type);
  /* A typedef of a scalar or pointer at file or namespace scope, as the
     source wrote it (wchar_t, uint64_t, hash_t: the main variant is
     only "int" or "long unsigned int").  Not of a struct or union,
     whose layout the tools look up by its own name; not a member
     typedef (std::vector<T>::value_type), which only renames T.  */
  tree td = TYPE_NAME (type);
  if (td && TREE_CODE (td) == TYPE_DECL && DECL_NAME (td)
      && DECL_ORIGINAL_TYPE (td) && !DECL_ARTIFICIAL (td)
      && !RECORD_OR_UNION_TYPE_P (main)
      && (!DECL_CONTEXT (td) || !TYPE_P (DECL_CONTEXT (td))))
    return type_decl_name (td);
  if (POINTER_TYPE_P (main) && !VOID_TYPE_P (TREE_TYPE (main))
      && TREE_CODE (TREE_TYPE (main)) != FUNCTION_TYPE
      && TREE_CODE (TREE_TYPE (main)) != METHOD_TYPE)
    {
      std::string target = type_name (TREE_TYPE (main));
      return target.empty () ? target : target + " *";
    }
  tree name = TYPE_NAME (main);
  if (!name)
    name = TYPE_NAME (type);
  if (name && TREE_CODE (name) == TYPE_DECL && DECL_NAME (name))
    return type_decl_name (name);
  if (name && TREE_CODE (name) == IDENTIFIER_NODE)
    return IDENTIFIER_POINTER (name);
  if (TREE_CODE (main) == RECORD_TYPE || TREE_CODE (main) == UNION_TYPE
      || TREE_CODE (main) == ENUMERAL_TYPE)
    {
      /* An unnamed C struct reached through another typedef than its
	 own ("typedef struct { ... } state_t, *statep;" and a statep
	 p = malloc (...)): the name is its typedef variant's, the first
	 declared (variants are chained newest first).  */
      tree named = NULL_TREE;
      for (tree v = TYPE_NEXT_VARIANT (main); v; v = TYPE_NEXT_VARIANT (v))
	if (TYPE_NAME (v) && TREE_CODE (TYPE_NAME (v)) == TYPE_DECL
	    && DECL_NAME (TYPE_NAME (v)))
	  named = TYPE_NAME (v);
      if (named)
	return type_decl_name (named);
      /* Without a typedef: GCC would print its whole declaration.  */
      return unnamed_type_name (main);
    }
  /* A function pointer without a typedef: GCC would print its pointer
     type's internal number, "void (*<T492>) (void)".  */
  if (TREE_CODE (main) == POINTER_TYPE
      && TREE_CODE (TREE_TYPE (main)) == FUNCTION_TYPE)
    return function_pointer_name (TREE_TYPE (main));
  char *s = print_generic_expr_to_str (main);
  std::string r (s);
  free (s);
  return r;
}

uint64_t
type_size (tree type)
{
  tree size = COMPLETE_TYPE_P (type) ? TYPE_SIZE_UNIT (type) : NULL_TREE;
  return size && tree_fits_uhwi_p (size) ? tree_to_uhwi (size) : 0;
}

/* S as the operand of an assembler .string directive.  */
void
append_asm_string (std::string &out, const std::string &s)
{
  out += "\t.string \"";
  for (unsigned char c : s)
    {
      if (c == '"' || c == '\\')
	{
	  out += '\\';
	  out += c;
	}
      else if (c < 0x20 || c >= 0x7f)
	{
	  char oct[8];
	  snprintf (oct, sizeof oct, "\\%03o", c);
	  out += oct;
	}
      else
	out += c;
    }
  out += "\"\n";
}

std::string
absolute_file (const char *file)
{
  if (!file || !*file)
    return "";
  if (file[0] == '/')
    return file;
  const char *pwd = getpwd ();
  return std::string (pwd ? pwd : "") + "/" + file;
}

const pass_data alloc_types_pass_data = {
  GIMPLE_PASS,
  "memprof-types",
  OPTGROUP_NONE,
  TV_NONE,
  PROP_ssa | PROP_cfg,
  0,
  0,
  0,
  0,
};

class alloc_types_pass : public gimple_opt_pass
{
public:
  explicit alloc_types_pass (gcc::context *ctxt)
    : gimple_opt_pass (alloc_types_pass_data, ctxt)
  {
  }

  unsigned
  execute (function *fun) final override
  {
    std::string records;
    const char *fn_name
      = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
    /* Decide every site first: the front end may give a call in another
       call's arguments the outer call's location ("res = realloc_fn
       (ud, getptr (h, ud), n)": both at res's column), and the two
       sites then share one position in the table.  */
    struct decided
    {
      gcall *call;
      expanded_location xloc;
      site_type v;
      bool allocates;	/* An allocation function's call.  */
    };
    auto_vec<decided> sites;
    basic_block bb;
    FOR_EACH_BB_FN (bb, fun)
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	  if (!call || !allocation_site_p (call))
	    continue;
	  location_t loc = gimple_location (call);
	  if (loc == UNKNOWN_LOCATION)
	    continue;
	  decided d = { call, expand_location (loc), call_site_type (call),
			allocation_function_p (call) };
	  sites.safe_push (d);
	}
    for (const decided &d : sites)
      {
	const site_type &v = d.v;
	const expanded_location &xloc = d.xloc;
	/* A record's tag and its site's function and position.  */
	auto site_key = [&] (const char *tag) {
	  append_asm_string (records, tag);
	  append_asm_string (records, fn_name);
	  append_asm_string (records, absolute_file (xloc.file));
	  append_asm_string (records, std::to_string (xloc.line));
	  append_asm_string (records, std::to_string (xloc.column));
	};
	if (!v.record)
	  {
	    /* Passed on past a header: where the caller's type starts.  */
	    if (v.offset)
	      {
		site_key (MEMPROF_TYPE_OFFSET_TAG);
		append_asm_string (records, std::to_string (v.offset));
	      }
	    continue;
	  }
	/* An unknown verdict of a call that allocates nothing itself, at
	   the position of another that allocates or passes its block to
	   the caller: the frame there is the other's, so this one says
	   nothing of its block.  */
	if (!v.type && !d.allocates)
	  {
	    bool other = false;
	    for (const decided &e : sites)
	      if (&e != &d && e.xloc.line == d.xloc.line
		  && e.xloc.column == d.xloc.column
		  && strcmp (e.xloc.file, d.xloc.file) == 0
		  && (e.allocates || !e.v.record))
		other = true;
	    if (other)
	      continue;
	  }
	gcall *call = d.call;
	std::string name = v.type ? type_name (v.type) : "";
	site_key (MEMPROF_TYPE_RECORD_TAG);
	append_asm_string (records, name);
	append_asm_string (records,
			   std::to_string (name.empty () ? 0 : type_size (v.type)));
	/* A structure at the start of blocks sized otherwise than as
	   arrays of it, or one that cannot make arrays: its header.  */
	tree size_arg = v.type ? block_size_argument (call) : NULL_TREE;
	tree main_type = v.type ? TYPE_MAIN_VARIANT (v.type) : NULL_TREE;
	/* (A flexible array needs no size argument: mruby's pages come
	   through mrb_calloc (mrb, 1, size), whose two sizes name none.)  */
	if (main_type && RECORD_OR_UNION_TYPE_P (main_type)
	    && ((size_arg && !array_sized_p (size_arg, type_size (v.type)))
		|| ends_in_flexible_array (main_type)))
	  site_key (MEMPROF_TYPE_PREFIX_TAG);
	if (memprof_opts.type_statistics)
	  fprintf (stderr, "memprof: %s: %s:%d:%d allocates %s\n",
		   function_name (fun), xloc.file, xloc.line, xloc.column,
		   name.empty () ? "an unknown type" : name.c_str ());
      }
    if (!records.empty ())
      {
	std::string text = "\t.pushsection " MEMPROF_TYPE_SECTION ",\"\",@progbits\n";
	text += records;
	text += "\t.popsection";
	symtab->finalize_toplevel_asm (build_string (text.size (),
						     text.c_str ()));
      }
    return 0;
  }
};

} // namespace

opt_pass *
memprof_make_alloc_types_pass (gcc::context *ctxt)
{
  compiling_cxx = startswith (lang_hooks.name, "GNU C++");
  return new alloc_types_pass (ctxt);
}
