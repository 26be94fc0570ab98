/* The memprof GIMPLE pass, read top to bottom: walk every statement,
   decide which of its memory operands may be heap, compute the address
   of each such access's first byte, and insert the shadow-counter
   increment before the statement:

     index = addr >> 6;  ((uint64_t *) base)[index] += 1;

   (the counter of ADDR's 64-byte granule, at ((addr & ~63) >> 3) + base:
   the same address, one instruction fewer).  BASE is loaded from the
   runtime's shadow-base variable once per function, on the edge out of
   the entry block (which dominates every access), and only if the
   function has something to count.  In histogram mode (abi.h) the
   counter is the 4-byte one of ADDR's 8-byte slot, at (addr >> 3) * 4
   + base, and the increment saturates.  The pass
   runs after "optimized", the last GIMPLE pass at every -O level, so it
   sees the code that will run: vectorized loops, masked vector accesses,
   and no accesses that later optimizations would have removed.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

bool memprof_emitting_module_ctor;

namespace {

const pass_data memprof_pass_data = {
  GIMPLE_PASS,
  "memprof",		 /* name; the dump is NNNt.memprof1 */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_ssa | PROP_cfg,	 /* properties_required */
  0,			 /* properties_provided */
  0,			 /* properties_destroyed */
  0,			 /* todo_flags_start */
  0,			 /* todo_flags_finish: decided per function */
};

/* A granule already counted in the current block: the address expression
   of the access, the SSA name holding its granule index, and the
   increment of its counter, which a later access of the same granule may
   add to while no call (which could observe or dump the counters) lies
   between them.  */
struct granule_site
{
  tree address;
  tree index;
  gassign *increment;
  unsigned calls_seen; /* m_calls_seen when INCREMENT was inserted.  */
};

/* One function's instrumentation.  */
class function_instrumenter
{
public:
  explicit function_instrumenter (function *fun)
    : m_fun (fun),
      m_asm_counters (!memprof_opts.gimple_counters
		      && memprof_asm_counters_supported ())
  {
  }
  void walk ();
  unsigned finish ();

private:
  void instrument_statement (gimple_stmt_iterator *gsi);
  void instrument_reference (gimple_stmt_iterator *gsi, tree ref,
			     bool is_store);
  void instrument_pointer (gimple_stmt_iterator *gsi, tree ptr,
			   bool is_store);
  bool counted (memprof_verdict verdict);
  void insert_count (gimple_stmt_iterator *gsi, tree address, bool is_store);
  void insert_range_count (gimple_stmt_iterator *gsi, tree address,
			   tree size);
  struct granule_site *granule (gimple_stmt_iterator *gsi, tree address);
  static tree reuse_conversion (tree *tp, int *walk_subtrees, void *data);
  tree shadow_base ();

  function *m_fun;
  /* Counts go into asm blocks (counter_asm.cc) rather than GIMPLE.  */
  bool m_asm_counters;
  memprof_asm_counter_block m_asm_block;
  memprof_loop_counts m_loop_counts; /* With the asm blocks, when optimizing.  */
  tree m_base = NULL_TREE; /* SSA name: the shadow base, a counter pointer.  */
  basic_block m_sites_block = NULL;
  auto_vec<granule_site, 8> m_sites; /* The granules counted in that block.  */
  struct converted_pointer
  {
    tree pointer;
    tree integer;
  };
  auto_vec<converted_pointer, 8> m_conversions; /* Pointers converted there.  */
  gimple_stmt_iterator *m_gsi = NULL; /* Where reuse_conversion inserts.  */
  unsigned m_calls_seen = 0; /* Calls and asms walked so far.  */
  bool m_changed = false;
  bool m_calls_changed = false;

public:
  memprof_function_stats stats;
};

/* Is T an operand that reads or writes memory (rather than a register,
   a constant or an address)?  */
bool
is_memory_reference (tree t)
{
  if (TREE_CODE (t) == WITH_SIZE_EXPR)
    t = TREE_OPERAND (t, 0);
  if (TREE_CODE (t) == ADDR_EXPR || TREE_CODE (t) == SSA_NAME
      || is_gimple_min_invariant (t) || is_gimple_reg (t))
    return false;
  tree base = get_base_address (t);
  return base && (DECL_P (base) || TREE_CODE (base) == MEM_REF
		  || TREE_CODE (base) == TARGET_MEM_REF
		  || CONSTANT_CLASS_P (base));
}

/* The address of the first byte REF accesses, as a pointer-sized integer
   expression (not yet gimplified), or null if it has none.  Bit-fields
   count in the byte holding their first bit.  */
tree
first_byte_address (tree ref)
{
  if (TREE_CODE (ref) == WITH_SIZE_EXPR)
    ref = TREE_OPERAND (ref, 0);
  poly_int64 bitsize, bitpos;
  tree offset;
  machine_mode mode;
  int unsignedp, reversep, volatilep = 0;
  tree inner = get_inner_reference (ref, &bitsize, &bitpos, &offset, &mode,
				    &unsignedp, &reversep, &volatilep);
  HOST_WIDE_INT bits;
  if (!bitpos.is_constant (&bits)
      || (offset && CONTAINS_PLACEHOLDER_P (offset)))
    return NULL_TREE;

  tree address;
  if (TREE_CODE (inner) == TARGET_MEM_REF)
    address = tree_mem_ref_addr (ptr_type_node, unshare_expr (inner));
  else if (TREE_CODE (inner) == MEM_REF)
    address = build_fold_addr_expr (unshare_expr (inner));
  else if (VAR_P (inner) || TREE_CODE (inner) == PARM_DECL
	   || TREE_CODE (inner) == RESULT_DECL)
    {
      /* Only with the stack/globals switches.  */
      TREE_ADDRESSABLE (inner) = 1;
      address = build_fold_addr_expr (inner);
    }
  else
    return NULL_TREE;

  tree uintptr = pointer_sized_int_node;
  tree result = fold_convert (uintptr, address);
  if (offset)
    result = fold_build2 (PLUS_EXPR, uintptr, result,
			  fold_convert (uintptr, unshare_expr (offset)));
  HOST_WIDE_INT bytes = bits >> LOG2_BITS_PER_UNIT;
  if (bytes)
    result = fold_build2 (PLUS_EXPR, uintptr, result,
			  build_int_cst (uintptr, bytes));
  return result;
}

tree
function_instrumenter::shadow_base ()
{
  if (!m_base)
    m_base = make_ssa_name (build_pointer_type (memprof_counter_type ()));
  return m_base;
}

bool
function_instrumenter::counted (memprof_verdict verdict)
{
  if (verdict == MEMPROF_INSTRUMENT)
    {
      stats.instrumented++;
      return true;
    }
  stats.skipped[verdict]++;
  return false;
}

/* walk_tree callback: replace a conversion of a pointer SSA name to an
   integer by an SSA name holding it, one per name and block, so that the
   accesses r->a, r->b, r->c convert r once.  */
tree
function_instrumenter::reuse_conversion (tree *tp, int *walk_subtrees,
					 void *data)
{
  tree t = *tp;
  if (!CONVERT_EXPR_P (t) || TREE_CODE (TREE_OPERAND (t, 0)) != SSA_NAME
      || !POINTER_TYPE_P (TREE_TYPE (TREE_OPERAND (t, 0)))
      || !INTEGRAL_TYPE_P (TREE_TYPE (t))
      || TYPE_PRECISION (TREE_TYPE (t)) != POINTER_SIZE)
    return NULL_TREE;
  *walk_subtrees = 0;
  function_instrumenter *self = static_cast<function_instrumenter *> (data);
  tree pointer = TREE_OPERAND (t, 0);
  for (const converted_pointer &c : self->m_conversions)
    if (c.pointer == pointer)
      {
	*tp = fold_convert (TREE_TYPE (t), c.integer);
	return NULL_TREE;
      }
  gassign *convert
    = gimple_build_assign (make_ssa_name (pointer_sized_int_node), NOP_EXPR,
			   pointer);
  gimple_set_location (convert, gimple_location (gsi_stmt (*self->m_gsi)));
  gsi_insert_before (self->m_gsi, convert, GSI_SAME_STMT);
  if (self->m_conversions.length () == 8)
    self->m_conversions.ordered_remove (0);
  self->m_conversions.quick_push (converted_pointer
				  { pointer, gimple_assign_lhs (convert) });
  *tp = fold_convert (TREE_TYPE (t), gimple_assign_lhs (convert));
  return NULL_TREE;
}

/* The site of the granule holding the byte at ADDRESS, counted before
   GSI: found among those of this block, or new, with the index
   ADDRESS >> log2 (granule) computed before GSI and no increment yet.
   Within a block the same address expression has the same value (its
   operands are SSA names and invariants), so the load and the store of
   r->x += 1 share one index and one increment.  */
granule_site *
function_instrumenter::granule (gimple_stmt_iterator *gsi, tree address)
{
  basic_block bb = gsi_bb (*gsi);
  if (bb != m_sites_block)
    {
      m_sites_block = bb;
      m_sites.truncate (0);
      m_conversions.truncate (0);
    }
  for (granule_site &site : m_sites)
    if (operand_equal_p (site.address, address, 0))
      return &site;

  tree uintptr = pointer_sized_int_node;
  /* Gimplifying rewrites the expression in place: keep ADDRESS intact
     for the comparisons.  */
  tree expr = fold_convert (uintptr, unshare_expr (address));
  m_gsi = gsi;
  walk_tree_without_duplicates (&expr, reuse_conversion, this);
  tree addr = force_gimple_operand_gsi (gsi, expr, true, NULL_TREE, true,
					GSI_SAME_STMT);
  gassign *shift
    = gimple_build_assign (make_ssa_name (uintptr), RSHIFT_EXPR, addr,
			   build_int_cst (integer_type_node,
					  memprof_counted_bytes_log2 ()));
  gimple_set_location (shift, gimple_location (gsi_stmt (*gsi)));
  gsi_insert_before (gsi, shift, GSI_SAME_STMT);
  /* A few sites catch the load/store pairs; more only cost search.  */
  if (m_sites.length () == 8)
    m_sites.ordered_remove (0);
  m_sites.quick_push (granule_site { address, gimple_assign_lhs (shift),
				     NULL, 0 });
  return &m_sites.last ();
}

/* Insert, before the statement at GSI, the count of an access whose first
   byte is at ADDRESS (a pointer or pointer-sized integer expression).
   The counter is the TARGET_MEM_REF base[index * 8], so that expand
   produces one scaled-index read-modify-write: four GIMPLE statements
   (shift, load, add, store) and, on x86-64, "shr $6; addq $1,(b,i,8)".
   A second access to the same address in the block, with no call in
   between, adds one to the first one's increment instead: the counter
   holds the same value wherever it can be observed.  */
void
function_instrumenter::insert_count (gimple_stmt_iterator *gsi, tree address,
				     bool is_store)
{
  location_t loc = gimple_location (gsi_stmt (*gsi));
  gimple_seq seq = NULL;
  if (memprof_opts.use_callbacks)
    {
      tree addr = force_gimple_operand_gsi (gsi, fold_convert
						   (pointer_sized_int_node,
						    address),
					    true, NULL_TREE, true,
					    GSI_SAME_STMT);
      gcall *call = gimple_build_call (memprof_access_callback (is_store),
				       1, addr);
      gimple_call_set_nothrow (call, true);
      gimple_seq_add_stmt (&seq, call);
      m_calls_changed = true;
    }
  else if (m_asm_counters)
    {
      if (m_loop_counts.add (gsi_stmt (*gsi), address))
	{
	  stats.at_loop_exits++;
	  m_calls_changed = true;
	}
      else
	m_asm_block.add (gsi, address, shadow_base ());
      m_changed = true;
      return;
    }
  else
    {
      tree counter = memprof_counter_type ();
      granule_site *site = granule (gsi, address);
      if (site->increment && site->calls_seen == m_calls_seen)
	{
	  tree step = gimple_assign_rhs2 (site->increment);
	  gimple_assign_set_rhs2 (site->increment,
				  int_const_binop (PLUS_EXPR, step,
						   build_int_cst (counter, 1)));
	  return;
	}
      site->increment = memprof_counter_add (&seq, shadow_base (),
					     site->index,
					     build_int_cst (counter, 1));
      site->calls_seen = m_calls_seen;
    }
  gimple_seq_set_location (seq, loc);
  gsi_insert_seq_before (gsi, seq, GSI_SAME_STMT);
  m_changed = true;
}

void
function_instrumenter::instrument_reference (gimple_stmt_iterator *gsi,
					     tree ref, bool is_store)
{
  memprof_verdict verdict = memprof_classify_reference (ref);
  tree type = TREE_TYPE (TREE_CODE (ref) == WITH_SIZE_EXPR
			 ? TREE_OPERAND (ref, 0) : ref);
  if (verdict == MEMPROF_INSTRUMENT && COMPLETE_TYPE_P (type)
      && integer_zerop (TYPE_SIZE (type)))
    verdict = MEMPROF_SKIP_UNSUPPORTED; /* An empty struct: no byte.  */
  tree address = NULL_TREE;
  if (verdict == MEMPROF_INSTRUMENT && !(address = first_byte_address (ref)))
    verdict = MEMPROF_SKIP_UNSUPPORTED;
  if (!counted (verdict))
    return;
  /* In histogram mode an aggregate (a struct copied whole) counts in
     every slot it covers, as a memcpy of it would: once at its first
     byte would give the first field all of it, and the field report
     would call the rest never written.  So does any other access that
     may cross a slot's end: one wider than a slot, or aligned to less
     than its size (the SLP vectorizer stores four adjacent ints as one
     16-byte movups at offset 12).  */
  tree size = TYPE_SIZE_UNIT (type);
  if (memprof_opts.histogram && size && tree_fits_uhwi_p (size)
      && compare_tree_int (size, 1) > 0)
    {
      unsigned HOST_WIDE_INT bytes = tree_to_uhwi (size);
      tree object = TREE_CODE (ref) == WITH_SIZE_EXPR
		    ? TREE_OPERAND (ref, 0) : ref;
      unsigned int align_bits;
      unsigned HOST_WIDE_INT misalign_bits;
      get_object_alignment_1 (object, &align_bits, &misalign_bits);
      unsigned HOST_WIDE_INT align = align_bits / BITS_PER_UNIT;
      bool bit_field = TREE_CODE (object) == BIT_FIELD_REF
		       || (TREE_CODE (object) == COMPONENT_REF
			   && DECL_BIT_FIELD (TREE_OPERAND (object, 1)));
      /* Known: the access's start modulo ALIGN.  An access within one
	 ALIGN unit cannot cross a slot's end when ALIGN divides 8.  */
      unsigned HOST_WIDE_INT unit = align >= 8 ? 8 : align ? align : 1;
      unsigned HOST_WIDE_INT in_slot
	= (misalign_bits / BITS_PER_UNIT) % unit;
      if (AGGREGATE_TYPE_P (type) || (!bit_field && in_slot + bytes > unit))
	{
	  /* Where the access starts within its slot is known when its
	     alignment is a slot's: a count at the first byte and at each
	     slot start after it, inline (in a loop, at its exit like any
	     other access).  Else the call finds the slots at run time.
	     (An aggregate went to the call whatever its alignment: mruby's
	     8-byte mrb_value, a struct, made the call 18% of its run.)  */
	  if (align >= 8 && bytes <= 64)
	    {
	      for (unsigned HOST_WIDE_INT at = 0; at < bytes;
		   at += 8 - (in_slot + at) % 8)
		insert_count (gsi, at ? fold_build2 (PLUS_EXPR,
						     TREE_TYPE (address),
						     unshare_expr (address),
						     build_int_cst
						       (TREE_TYPE (address),
							at))
				      : address, is_store);
	    }
	  else
	    insert_range_count (gsi, address, size);
	  return;
	}
    }
  insert_count (gsi, address, is_store);
}

/* Insert, before the statement at GSI, the count of the SIZE bytes
   (a constant) from ADDRESS by the range rule (range_access.h): a call,
   since the slots an aggregate covers depend on its address.  */
void
function_instrumenter::insert_range_count (gimple_stmt_iterator *gsi,
					   tree address, tree size)
{
  tree addr = force_gimple_operand_gsi (gsi, fold_convert (ptr_type_node,
							   unshare_expr
							     (address)),
					true, NULL_TREE, true, GSI_SAME_STMT);
  gcall *call = gimple_build_call (memprof_count_range_function (), 2, addr,
				   fold_convert (size_type_node, size));
  gimple_call_set_nothrow (call, true);
  gimple_set_location (call, gimple_location (gsi_stmt (*gsi)));
  gsi_insert_before (gsi, call, GSI_SAME_STMT);
  m_changed = m_calls_changed = true;
}

void
function_instrumenter::instrument_pointer (gimple_stmt_iterator *gsi,
					   tree ptr, bool is_store)
{
  if (counted (memprof_classify_pointer (ptr)))
    insert_count (gsi, unshare_expr (ptr), is_store);
}

void
function_instrumenter::instrument_statement (gimple_stmt_iterator *gsi)
{
  gimple *stmt = gsi_stmt (*gsi);
  if (is_gimple_debug (stmt) || gimple_clobber_p (stmt))
    return;

  if (gassign *assign = dyn_cast<gassign *> (stmt))
    {
      if (!gimple_assign_single_p (assign))
	return;
      /* An aggregate copy *p = *q is a load and a store.  */
      if (is_memory_reference (gimple_assign_rhs1 (assign)))
	instrument_reference (gsi, gimple_assign_rhs1 (assign), false);
      if (is_memory_reference (gimple_assign_lhs (assign)))
	instrument_reference (gsi, gimple_assign_lhs (assign), true);
      return;
    }

  if (gcall *call = dyn_cast<gcall *> (stmt))
    {
      /* Nothing may go before a setjmp-like call in its block.  */
      if (gimple_call_flags (call) & ECF_RETURNS_TWICE)
	return;
      if (memprof_redirect_memory_builtin (gsi))
	{
	  stats.builtins_redirected++;
	  m_changed = m_calls_changed = true;
	  return;
	}
      bool is_store = false;
      if (tree address = memprof_call_access_address (call, &is_store))
	instrument_pointer (gsi, address, is_store);
      /* Aggregates passed by value from memory, results stored to it.  */
      for (unsigned i = 0; i < gimple_call_num_args (call); i++)
	if (is_memory_reference (gimple_call_arg (call, i)))
	  instrument_reference (gsi, gimple_call_arg (call, i), false);
      tree lhs = gimple_call_lhs (call);
      if (lhs && is_memory_reference (lhs))
	instrument_reference (gsi, lhs, true);
      return;
    }

  if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
    {
      /* The compiler cannot see what asm does with its operands.  */
      for (unsigned i = 0; i < gimple_asm_ninputs (asm_stmt); i++)
	if (is_memory_reference (TREE_VALUE (gimple_asm_input_op (asm_stmt, i))))
	  stats.skipped[MEMPROF_SKIP_ASM]++;
      for (unsigned i = 0; i < gimple_asm_noutputs (asm_stmt); i++)
	if (is_memory_reference (TREE_VALUE (gimple_asm_output_op (asm_stmt, i))))
	  stats.skipped[MEMPROF_SKIP_ASM]++;
    }
}

void
function_instrumenter::walk ()
{
  if (m_asm_counters && optimize)
    m_loop_counts.begin (m_fun);
  basic_block bb;
  FOR_EACH_BB_FN (bb, m_fun)
    {
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  /* Decide before instrumenting: a redirected builtin may leave a
	     non-call in the statement's place (mempcpy becomes a call to
	     __memprof_memcpy before it and an addition here), and the call
	     still separates the accesses before it from those after.  */
	  gimple *s = gsi_stmt (gsi);
	  bool call = is_a<gcall *> (s) || is_a<gasm *> (s);
	  /* The accesses before a call are counted before it, and so are
	     the call's own (its arguments and result in memory).  */
	  if (call)
	    m_asm_block.flush ();
	  instrument_statement (&gsi);
	  if (call)
	    {
	      m_asm_block.flush ();
	      m_calls_seen++;
	    }
	}
      m_asm_block.flush ();
    }
  stats.paired = m_asm_block.paired ();
}

/* Load the shadow base once, after the walk so that the load itself is
   never instrumented.  */
unsigned
function_instrumenter::finish ()
{
  m_loop_counts.finish (m_loop_counts.needs_shadow_base () ? shadow_base ()
							 : NULL_TREE);
  if (m_base)
    {
      tree decl = memprof_shadow_base_decl ();
      gimple_seq seq = NULL;
      gassign *load = gimple_build_assign (make_ssa_name (TREE_TYPE (decl)),
					   decl);
      gimple_seq_add_stmt (&seq, load);
      gimple_seq_add_stmt (&seq, gimple_build_assign (m_base, NOP_EXPR,
						      gimple_assign_lhs (load)));
      gsi_insert_seq_on_edge_immediate
	(single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (m_fun)), seq);
    }
  if (m_calls_changed)
    cgraph_edge::rebuild_edges ();
  return m_changed ? TODO_update_ssa : 0;
}

class memprof_pass : public gimple_opt_pass
{
public:
  explicit memprof_pass (gcc::context *ctxt)
    : gimple_opt_pass (memprof_pass_data, ctxt)
  {
  }

  opt_pass *
  clone () final override
  {
    return new memprof_pass (m_ctxt);
  }

  bool
  gate (function *fun) final override
  {
    return !memprof_emitting_module_ctor
	   && !lookup_attribute ("naked", DECL_ATTRIBUTES (fun->decl));
  }

  unsigned
  execute (function *fun) final override
  {
    memprof_classify_begin (fun);
    function_instrumenter instrumenter (fun);
    instrumenter.walk ();
    unsigned todo = instrumenter.finish ();
    memprof_classify_end ();
    if (memprof_opts.statistics)
      memprof_report_statistics (fun, instrumenter.stats);
    return todo;
  }
};

} // namespace

opt_pass *
memprof_make_pass (gcc::context *ctxt)
{
  return new memprof_pass (ctxt);
}
