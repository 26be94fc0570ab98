/* Counting a loop's accesses through a pointer induction variable once,
   when the loop exits.

   A loop that walks a buffer byte by byte adds one to the same counter
   on every iteration, and each of those read-modify-writes waits for the
   previous one's store: mt_stress's consumers run 1.8x slower profiled
   and 1.3x with the updates taken out (bench/README.md).  When the loop
   calls nothing, no one can look at the counters while it runs, so its
   accesses at P0 + OFFSET, P0 + STEP + OFFSET, ... can be counted when it
   ends, granule by granule, by __memprof_count_strided (the rule of
   include/memprof/range_access.h): the counts are the same.

   Taken: the innermost natural loops with one latch, one entry, one
   normal exit, and no call, asm, statement that may throw or irreducible
   region, whose exit test runs once per iteration (its block dominates
   the latch); and in them, the accesses that run once per iteration
   (their block dominates the latch) through a pointer that is, up to a
   constant offset, a header PHI with the entry value P0 and the latch
   value PHI + STEP (STEP a positive constant).  At the exit the PHI holds
   the pointer of the last iteration, so the accesses made are
   (PHI - P0) / STEP, plus one if the access comes before the exit test
   in an iteration.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

namespace {

/* Largest step taken: beyond a granule each access is its own count and
   the loop gains nothing.  */
const HOST_WIDE_INT max_step = 64;

/* Does LOOP have the shape described above?  Its entry, latch and exit
   edges are set if so.  */
bool
loop_is_countable (class loop *loop, function *fun, edge *entry, edge *latch,
		   edge *exit)
{
  if (loop->inner || !loop->latch || loop == loops_for_fn (fun)->tree_root
      || EDGE_COUNT (loop->header->preds) != 2)
    return false;
  *entry = *latch = *exit = NULL;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, loop->header->preds)
    if (e->src == loop->latch)
      *latch = e;
    else
      *entry = e;
  if (!*latch || !*entry)
    return false;

  bool ok = true;
  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; ok && i < loop->num_nodes; i++)
    {
      basic_block bb = body[i];
      if (bb->flags & BB_IRREDUCIBLE_LOOP)
	ok = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
	   ok && !gsi_end_p (gsi); gsi_next (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (is_a<gcall *> (stmt) || is_a<gasm *> (stmt)
	      || stmt_could_throw_p (fun, stmt))
	    ok = false;
	}
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (ok && !flow_bb_inside_loop_p (loop, e->dest))
	  {
	    if (*exit || (e->flags & (EDGE_ABNORMAL | EDGE_EH)))
	      ok = false;
	    *exit = e;
	  }
    }
  free (body);
  return ok && *exit
	 && dominated_by_p (CDI_DOMINATORS, loop->latch, (*exit)->src);
}

} // namespace

void
memprof_loop_counts::begin (function *fun)
{
  memprof_loop_optimizer_init_marked ();
  m_active = true;
  m_loops.safe_grow_cleared (number_of_loops (fun));
  for (auto loop : loops_list (fun, LI_ONLY_INNERMOST))
    {
      loop_shape &shape = m_loops[loop->num];
      shape.eligible = loop_is_countable (loop, fun, &shape.entry,
					  &shape.latch, &shape.exit);
    }
}

bool
memprof_loop_counts::add (gimple *stmt, tree address)
{
  basic_block bb = gimple_bb (stmt);
  class loop *loop = bb->loop_father;
  if (!m_active || !loop || loop->num >= (int) m_loops.length ()
      || !m_loops[loop->num].eligible
      || !dominated_by_p (CDI_DOMINATORS, loop->latch, bb))
    return false;
  const loop_shape &shape = m_loops[loop->num];

  HOST_WIDE_INT offset = 0;
  tree pointer = memprof_address_base (address, &offset);
  if (TREE_CODE (pointer) != SSA_NAME || virtual_operand_p (pointer))
    return false;
  gphi *phi = dyn_cast<gphi *> (SSA_NAME_DEF_STMT (pointer));
  if (!phi || gimple_bb (phi) != loop->header)
    return false;
  tree next = PHI_ARG_DEF_FROM_EDGE (phi, shape.latch);
  gassign *increment = TREE_CODE (next) == SSA_NAME
			 ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (next))
			 : NULL;
  HOST_WIDE_INT step;
  if (!increment
      || (gimple_assign_rhs_code (increment) != POINTER_PLUS_EXPR
	  && gimple_assign_rhs_code (increment) != PLUS_EXPR)
      || gimple_assign_rhs1 (increment) != pointer
      || !tree_fits_shwi_p (gimple_assign_rhs2 (increment))
      || (step = tree_to_shwi (gimple_assign_rhs2 (increment))) <= 0
      || step > max_step)
    return false;

  /* The exit test ends its block: an access in that block, or in one it
     dominates, comes before it.  */
  basic_block test = shape.exit->src;
  bool before = bb == test || !dominated_by_p (CDI_DOMINATORS, bb, test);
  m_counts.safe_push (strided_count { shape.exit, pointer,
				       PHI_ARG_DEF_FROM_EDGE (phi, shape.entry),
				       offset, step, before });
  return true;
}

bool
memprof_loop_counts::finish ()
{
  if (!m_active)
    return false;
  tree uintptr = pointer_sized_int_node;
  for (const strided_count &c : m_counts)
    {
      gimple_seq seq = NULL;
      tree start = fold_convert (uintptr, c.start);
      tree made = fold_build2 (MINUS_EXPR, uintptr,
			       fold_convert (uintptr, c.pointer), start);
      made = fold_build2 (EXACT_DIV_EXPR, uintptr, made,
			  build_int_cst (uintptr, c.step));
      if (c.before_exit_test)
	made = fold_build2 (PLUS_EXPR, uintptr, made,
			    build_int_cst (uintptr, 1));
      tree first = fold_build2 (PLUS_EXPR, uintptr, start,
				build_int_cst (uintptr, c.offset));
      gimple_seq made_seq = NULL;
      first = force_gimple_operand (first, &seq, true, NULL_TREE);
      made = force_gimple_operand (made, &made_seq, true, NULL_TREE);
      gimple_seq_add_seq (&seq, made_seq);
      gcall *call = gimple_build_call (memprof_count_strided_function (), 3,
				       first, made,
				       build_int_cst (uintptr, c.step));
      gimple_call_set_nothrow (call, true);
      gimple_seq_add_stmt (&seq, call);
      gsi_insert_seq_on_edge (c.exit, seq);
    }
  bool inserted = !m_counts.is_empty ();
  if (inserted)
    gsi_commit_edge_inserts ();
  loop_optimizer_finalize ();
  m_active = false;
  return inserted;
}
