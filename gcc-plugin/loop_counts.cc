/* Counting a loop's accesses through a pointer induction variable once,
   when the loop exits.

   A loop that walks a buffer byte by byte adds one to the same counter
   on every iteration, and each of those read-modify-writes waits for the
   previous one's store: mt_stress's consumers run 1.8x slower profiled
   and 1.3x with the updates taken out (bench/README.md).  While the loop
   calls nothing, no one can look at the counters, so its
   accesses at P0 + OFFSET, P0 + STEP + OFFSET, ... can be counted when it
   ends, granule by granule, by __memprof_count_strided (the rule of
   include/memprof/range_access.h): the counts are the same.

   Taken: the innermost natural loops with one latch, one entry, normal
   exits only (and exception edges of calls), no asm, frequent call or
   other statement that may throw, no irreducible region, whose exit
   tests run once per iteration (their blocks
   dominate the latch: for (j = 0; j < n && i + j < len; j++) has two);
   and in them, the accesses that run once per iteration (their block
   dominates the latch) at BASE + IV * SCALE + OFFSET: IV a header PHI
   with the entry value IV0 and the latch value IV + STEP (STEP a
   nonzero constant, negative for a loop that walks down: p--, i--),
   SCALE and OFFSET constants, BASE defined outside the loop.  IV is a
   pointer (BASE absent, SCALE 1: p++) or a pointer-sized integer (a[i],
   which ivopts leaves as a TARGET_MEM_REF of base, index and step).  At
   the exit IV holds the value of the last iteration, so the accesses
   made are (IV - IV0) / STEP, plus one if the access comes before the
   exit's test in an iteration, |STEP| * SCALE bytes apart from BASE +
   IV0 * SCALE + OFFSET, upwards or (STEP negative) downwards; a run
   down is counted as the same addresses taken upwards from its last,
   lowest one.  The blocks of the tests and of the access all dominate
   the latch, so they run in one order in every iteration: each exit
   counts by its own test's place.

   An access at an address the loop does not change (p->len through a
   pointer defined before it, re-read every iteration because a char
   store may alias it) is counted the same way with SCALE 0: as many
   accesses as iterations ran it, by any induction variable of the loop
   with a constant step, added to its one counter at the exit.  Access
   by access those updates were a chain on one counter, each waiting
   for the one before.  (Not in histogram mode, whose strided rule
   needs a step.)

   An access whose block does not dominate the latch is taken when its
   block is entered only from the edge of a test, in a block that does,
   saying (T) IV < BOUND or (T) IV <= BOUND: IV the access's own
   induction variable with step 1, T a signed type (the source's int i,
   which cannot wrap), BOUND the same in every iteration (bignum
   addition's if (i < a.len) s += a.limb[i]).  Those iterations are a
   prefix of the loop's, so the accesses made are the iterations run,
   at most BOUND - (T) IV0 (+ 1).

   A loop may also call functions, when each call's block runs in at
   most half of the iterations by the compiler's profile (a string
   growing its buffer, a tokenizer reporting a word): the counts are
   then made before each call too, so that the callee, which may read,
   dump or free what the loop touched, sees them all, and an exception
   out of the call loses none.  Each access keeps a mark, a local in
   memory holding the value of its IV from which it is not yet counted:
   IV0 on entry; before a call, the accesses from the mark to this
   iteration's (included if the access comes first) are counted and the
   mark moves past them; the exits count from the mark.  An access is
   taken when it comes before each call in every iteration (its block
   dominates the call's) or after it (the call's block cannot be
   reached from the access's within an iteration), is not under a
   guard, and is at most 8 bytes from the previous one (a granule gets
   8 or more: a count before a call is a dozen instructions, and the
   compiler's guess that a call is rare can be wrong).  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

namespace {

/* Largest step taken: beyond a granule each access is its own count and
   the loop gains nothing.  */
const HOST_WIDE_INT max_step = 64;
/* The same in a loop with calls: 8 or more accesses to a granule.  */
const HOST_WIDE_INT max_step_with_calls = 8;

/* Does the block BB of LOOP run in at most half of its iterations, as
   far as the compiler's profile (guessed or measured) knows?  */
bool
rarely_run (class loop *loop, basic_block bb)
{
  return bb->count.apply_scale (2, 1) <= loop->header->count;
}

/* Is CALL, in LOOP, one its counts can be made before: it cannot return
   twice, and it runs rarely (a count before it costs more than counting
   access by access).  */
bool
call_allows_counting (class loop *loop, gcall *call)
{
  return !(gimple_call_flags (call) & ECF_RETURNS_TWICE)
	 && rarely_run (loop, gimple_bb (call));
}

/* Does LOOP have the shape described above?  Its entry and latch edges
   are set if so, *HAS_CALLS says whether it calls anything, and its
   exit edges are pushed on EXITS (which may hold some of them when it
   has not).  An exception edge of a call is no exit to count at: the
   counts are made before the call.  */
bool
loop_is_countable (class loop *loop, function *fun, edge *entry, edge *latch,
		   bool *has_calls, vec<edge> *exits)
{
  *has_calls = false;
  if (loop->inner || !loop->latch || loop == loops_for_fn (fun)->tree_root
      || EDGE_COUNT (loop->header->preds) != 2)
    return false;
  *entry = *latch = NULL;
  unsigned first_exit = exits->length ();
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
	  if (gcall *call = dyn_cast<gcall *> (stmt))
	    {
	      ok = call_allows_counting (loop, call);
	      *has_calls = true;
	    }
	  else if (is_a<gasm *> (stmt) || stmt_could_throw_p (fun, stmt))
	    ok = false;
	}
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (ok && !flow_bb_inside_loop_p (loop, e->dest))
	  {
	    gimple *last = last_stmt (bb);
	    if ((e->flags & EDGE_EH) && !(e->flags & EDGE_ABNORMAL) && last
		&& is_a<gcall *> (last))
	      continue;
	    if ((e->flags & (EDGE_ABNORMAL | EDGE_EH))
		|| !dominated_by_p (CDI_DOMINATORS, loop->latch, e->src))
	      ok = false;
	    exits->safe_push (e);
	  }
    }
  free (body);
  return ok && exits->length () > first_exit;
}

/* The step of PHI, a header PHI of a pointer-sized induction variable
   whose value from the LATCH edge is PHI + STEP, STEP a nonzero
   constant read in two's complement (a pointer's p-- adds the sizetype
   constant 2^64 - 1); false when PHI is no such variable.  */
bool
iv_step (gphi *phi, edge latch, HOST_WIDE_INT *step)
{
  tree iv = gimple_phi_result (phi);
  if (virtual_operand_p (iv)
      || (!INTEGRAL_TYPE_P (TREE_TYPE (iv)) && !POINTER_TYPE_P (TREE_TYPE (iv)))
      || TYPE_PRECISION (TREE_TYPE (iv)) != POINTER_SIZE)
    return false;
  tree next = PHI_ARG_DEF_FROM_EDGE (phi, latch);
  gassign *increment = TREE_CODE (next) == SSA_NAME
			 ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (next))
			 : NULL;
  if (!increment
      || (gimple_assign_rhs_code (increment) != POINTER_PLUS_EXPR
	  && gimple_assign_rhs_code (increment) != PLUS_EXPR)
      || gimple_assign_rhs1 (increment) != iv
      || TREE_CODE (gimple_assign_rhs2 (increment)) != INTEGER_CST
      || TYPE_PRECISION (TREE_TYPE (gimple_assign_rhs2 (increment)))
	   != POINTER_SIZE)
    return false;
  *step = (HOST_WIDE_INT) TREE_INT_CST_LOW (gimple_assign_rhs2 (increment));
  return *step != 0;
}

/* Read T, an offset in address arithmetic (modulo 2^64), as
   *X * *SCALE + *ADD with *X an SSA name: through conversions between
   pointer-sized types, additions of constants and products by them
   (ivopts' base + (i + 4) * 4 for base + i * 4 + 16).  */
bool
linear_offset (tree t, tree *x, unsigned HOST_WIDE_INT *scale,
	       unsigned HOST_WIDE_INT *add)
{
  while (CONVERT_EXPR_P (t)
	 && TYPE_PRECISION (TREE_TYPE (t)) == POINTER_SIZE
	 && TYPE_PRECISION (TREE_TYPE (TREE_OPERAND (t, 0))) == POINTER_SIZE)
    t = TREE_OPERAND (t, 0);
  tree_code code = TREE_CODE (t);
  tree op0 = NULL_TREE, op1 = NULL_TREE;
  if (code == SSA_NAME)
    {
      /* Through the statements computing T (_22 = (sizetype) i_20;
	 _5 = _22 * 4): X is where they end.  */
      gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (t));
      code = def ? gimple_assign_rhs_code (def) : ERROR_MARK;
      if (CONVERT_EXPR_CODE_P (code)
	  && TYPE_PRECISION (TREE_TYPE (gimple_assign_rhs1 (def)))
	       == POINTER_SIZE)
	return linear_offset (gimple_assign_rhs1 (def), x, scale, add);
      if (code == PLUS_EXPR || code == MULT_EXPR)
	op0 = gimple_assign_rhs1 (def), op1 = gimple_assign_rhs2 (def);
      else
	{
	  *x = t, *scale = 1, *add = 0;
	  return true;
	}
    }
  else if (code == PLUS_EXPR || code == MULT_EXPR)
    op0 = TREE_OPERAND (t, 0), op1 = TREE_OPERAND (t, 1);
  else
    return false;
  HOST_WIDE_INT c;
  if (!memprof_address_constant (op1, &c)
      || !linear_offset (op0, x, scale, add))
    return false;
  if (code == PLUS_EXPR)
    *add += (unsigned HOST_WIDE_INT) c;
  else
    *scale *= (unsigned HOST_WIDE_INT) c, *add *= (unsigned HOST_WIDE_INT) c;
  return true;
}

/* Is T, a base address, the same in every iteration of LOOP?  */
bool
loop_invariant_address_p (class loop *loop, tree t)
{
  if (is_gimple_min_invariant (t))
    return true;
  if (TREE_CODE (t) != SSA_NAME || virtual_operand_p (t))
    return false;
  basic_block bb = gimple_bb (SSA_NAME_DEF_STMT (t));
  return !bb || !flow_bb_inside_loop_p (loop, bb);
}

/* BB's block is entered only by the edge of a test (T) X < BOUND or
   (T) X <= BOUND (*INCLUSIVE) in a block of LOOP that dominates its
   latch, X a header PHI of LOOP (returned), T a signed integral type
   at least as wide as int, BOUND invariant in LOOP; null otherwise.  */
tree
iv_guard (class loop *loop, basic_block bb, tree *bound, tree *type,
	  bool *inclusive)
{
  if (!single_pred_p (bb))
    return NULL_TREE;
  edge e = single_pred_edge (bb);
  basic_block test = e->src;
  gcond *cond = safe_dyn_cast<gcond *> (last_stmt (test));
  if (!cond || !(e->flags & (EDGE_TRUE_VALUE | EDGE_FALSE_VALUE))
      || !flow_bb_inside_loop_p (loop, test)
      || !dominated_by_p (CDI_DOMINATORS, loop->latch, test))
    return NULL_TREE;
  tree_code code = gimple_cond_code (cond);
  tree x = gimple_cond_lhs (cond), limit = gimple_cond_rhs (cond);
  if (e->flags & EDGE_FALSE_VALUE)
    code = invert_tree_comparison (code, false);
  if (TREE_CODE (x) != SSA_NAME
      || (TREE_CODE (limit) == SSA_NAME
	  && !loop_invariant_address_p (loop, limit)))
    {
      std::swap (x, limit);
      code = swap_tree_comparison (code);
    }
  if ((code != LT_EXPR && code != LE_EXPR) || TREE_CODE (x) != SSA_NAME
      || !INTEGRAL_TYPE_P (TREE_TYPE (x)) || TYPE_UNSIGNED (TREE_TYPE (x))
      /* Not short or char: their i++ goes through int and wraps
	 without undefined behaviour, so the iterations that pass the
	 test need not be a prefix.  */
      || TYPE_PRECISION (TREE_TYPE (x)) < TYPE_PRECISION (integer_type_node)
      || TYPE_PRECISION (TREE_TYPE (x)) > POINTER_SIZE
      || !(is_gimple_min_invariant (limit)
	   || (TREE_CODE (limit) == SSA_NAME
	       && loop_invariant_address_p (loop, limit))))
    return NULL_TREE;
  *type = TREE_TYPE (x);
  /* X is the PHI, or a conversion of it (i = (int) ivtmp).  */
  gimple *def = SSA_NAME_DEF_STMT (x);
  if (is_gimple_assign (def)
      && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))
      && TREE_CODE (gimple_assign_rhs1 (def)) == SSA_NAME)
    x = gimple_assign_rhs1 (def), def = SSA_NAME_DEF_STMT (x);
  if (!is_a<gphi *> (def) || gimple_bb (def) != loop->header)
    return NULL_TREE;
  *bound = limit;
  *inclusive = code == LE_EXPR;
  return x;
}

/* Can TO be reached from FROM, blocks of LOOP (innermost, reducible),
   within one iteration: by edges inside the loop other than those back
   to its header?  */
bool
reaches_in_iteration (class loop *loop, basic_block from, basic_block to)
{
  auto_vec<basic_block, 16> work;
  auto_bitmap seen;
  work.safe_push (from);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->dest != loop->header && flow_bb_inside_loop_p (loop, e->dest)
	    && bitmap_set_bit (seen, e->dest->index))
	  {
	    if (e->dest == to)
	      return true;
	    work.safe_push (e->dest);
	  }
    }
  return false;
}

/* Whether ACCESS, which runs in every iteration of its loop that gets
   to the latch, comes before CALL (in the same loop): *BEFORE is set.
   Before, when ACCESS's block dominates CALL's (or they share one and
   ACCESS comes first); after, when CALL's block cannot be reached from
   ACCESS's in an iteration (the body is acyclic but for the latch, so
   CALL comes first in any iteration running both, and in one leaving
   the loop after CALL ACCESS does not run).  False for the rest: CALL
   reached both after ACCESS and without it.  */
bool
order_in_iteration (class loop *loop, gimple *access, gimple *call,
		    bool *before)
{
  basic_block a = gimple_bb (access), c = gimple_bb (call);
  if (a == c)
    {
      *before = false;
      for (gimple_stmt_iterator gsi = gsi_for_stmt (access); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (gsi_stmt (gsi) == call)
	  *before = true;
      return true;
    }
  if (dominated_by_p (CDI_DOMINATORS, c, a))
    return *before = true;
  *before = false;
  return !reaches_in_iteration (loop, a, c);
}

/* Push the calls of LOOP on CALLS.  (Not an auto_vec returned: GCC 11's
   has no move constructor.)  */
void
loop_calls (class loop *loop, vec<gcall *> *calls)
{
  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
	calls->safe_push (call);
  free (body);
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
      shape.first_exit = m_exits.length ();
      shape.eligible = loop_is_countable (loop, fun, &shape.entry,
					  &shape.latch, &shape.has_calls,
					  &m_exits);
      if (!shape.eligible)
	m_exits.truncate (shape.first_exit);
      shape.num_exits = m_exits.length () - shape.first_exit;
      shape.count_iv = NULL_TREE;
      HOST_WIDE_INT step;
      for (gphi_iterator gsi = gsi_start_phis (loop->header);
	   shape.eligible && !shape.count_iv && !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (iv_step (gsi.phi (), shape.latch, &step))
	  shape.count_iv = gimple_phi_result (gsi.phi ());
    }
}

bool
memprof_loop_counts::add (gimple *stmt, tree address)
{
  basic_block bb = gimple_bb (stmt);
  class loop *loop = bb->loop_father;
  if (!m_active || !loop || loop->num >= (int) m_loops.length ()
      || !m_loops[loop->num].eligible)
    return false;
  const loop_shape &shape = m_loops[loop->num];
  tree guard_iv = NULL_TREE, guard_bound = NULL_TREE, guard_type = NULL_TREE;
  bool guard_inclusive = false;
  if (!dominated_by_p (CDI_DOMINATORS, loop->latch, bb)
      && !(guard_iv = iv_guard (loop, bb, &guard_bound, &guard_type,
				&guard_inclusive)))
    return false;

  /* ADDRESS = BASE + IV * SCALE + OFFSET.  */
  HOST_WIDE_INT offset = 0;
  tree iv = memprof_address_base (address, &offset), base = NULL_TREE;
  unsigned HOST_WIDE_INT scale = 1;
  if (TREE_CODE (iv) == POINTER_PLUS_EXPR || TREE_CODE (iv) == PLUS_EXPR)
    {
      unsigned HOST_WIDE_INT add;
      base = memprof_address_base (TREE_OPERAND (iv, 0), &offset);
      if (!linear_offset (TREE_OPERAND (iv, 1), &iv, &scale, &add)
	  || !loop_invariant_address_p (loop, base))
	return false;
      offset = (HOST_WIDE_INT) ((unsigned HOST_WIDE_INT) offset + add);
    }
  else if (TREE_CODE (iv) == SSA_NAME && !virtual_operand_p (iv)
	   && loop_invariant_address_p (loop, iv))
    {
      /* The same address in every iteration, counted by the loop's
	 counting variable.  */
      if (!shape.count_iv || memprof_opts.histogram)
	return false;
      base = iv, iv = shape.count_iv, scale = 0;
    }
  if (TREE_CODE (iv) != SSA_NAME || virtual_operand_p (iv))
    return false;
  gphi *phi = dyn_cast<gphi *> (SSA_NAME_DEF_STMT (iv));
  HOST_WIDE_INT step;
  if (!phi || gimple_bb (phi) != loop->header
      || !iv_step (phi, shape.latch, &step))
    return false;
  unsigned HOST_WIDE_INT distance
    = step < 0 ? -(unsigned HOST_WIDE_INT) step : (unsigned HOST_WIDE_INT) step;
  if (scale != 0
      && (distance > (unsigned) max_step || scale > (unsigned) max_step
	  || distance * scale > (unsigned) max_step))
    return false;
  if (guard_iv && (guard_iv != iv || step != 1))
    return false;

  /* With calls, each must come before the access in every iteration or
     after it; no guard (its prefix rule needs IV0).  And only accesses
     close together (or at one address), of which a granule has many,
     each of whose updates would wait for the one before: a count before
     a call costs a dozen instructions, and the profile's guess that the
     call is rare can be wrong (moving short strings, libstdc++'s
     relocation loop calls memcpy for every one).  */
  tree mark = NULL_TREE;
  if (shape.has_calls)
    {
      bool before;
      if (guard_iv || is_a<gcall *> (stmt)
	  || distance * scale > (unsigned) max_step_with_calls)
	return false;
      auto_vec<gcall *> calls;
      loop_calls (loop, &calls);
      for (gcall *call : calls)
	if (!order_in_iteration (loop, stmt, call, &before))
	  return false;
      mark = create_tmp_var (pointer_sized_int_node, "memprof_mark");
      /* In memory: its value changes on the paths through the calls,
	 which are few.  */
      TREE_ADDRESSABLE (mark) = 1;
    }

  /* One count per exit, each with its own exit and order; the marked
     access once more, for the counts before its loop's calls (mark
     implies no guard).  */
  strided_count c = { NULL, base, iv, PHI_ARG_DEF_FROM_EDGE (phi, shape.entry),
		      (HOST_WIDE_INT) scale, offset, step, false,
		      guard_bound, guard_type, guard_inclusive, mark, stmt,
		      loop };
  if (mark)
    m_marked.safe_push (c);
  /* An exit test ends its block: an access in that block, or in one
     that dominates it, comes before it.  */
  for (unsigned i = 0; i < shape.num_exits; i++)
    {
      c.exit = m_exits[shape.first_exit + i];
      basic_block test = c.exit->src;
      c.before_exit_test
	= bb == test || !dominated_by_p (CDI_DOMINATORS, bb, test);
      m_counts.safe_push (c);
    }
  return true;
}

bool
memprof_loop_counts::needs_shadow_base () const
{
  return m_active && !m_counts.is_empty () && !memprof_opts.histogram;
}

/* The count of C's accesses made while its induction variable went from
   START (a pointer-sized integer) to its value where the code runs:
   FIRST (the first access's address), MADE (the accesses made, plus the
   current iteration's when C.before_exit_test) and the call
   __memprof_count_strided (FIRST, MADE, STRIDE).  A loop's run usually
   lies in one granule (short loops, short strings), often in two (a
   short string crossing a boundary): one asm goto
   (memprof_asm_run_count) adds to their counters right there, and jumps
   to the call only for a run across more:

     asm goto (counter[FIRST >> 6] += MADE, or the two granules' shares,
               else goto CALL);
     ...
   CALL:
     __memprof_count_strided (FIRST, MADE, STRIDE);  (then back)

   The test and the adds are one instruction for the RTL passes: as
   GIMPLE (an if, an else and a nested if per count, at every exit of
   every counted loop) they took about a quarter of the compile time
   the instrumentation costs (bench/README.md, "Targets").  Histogram
   mode's saturating 8-byte slots always take the call.  The
   computations are appended to *SEQ, and so is the whole count when it
   needs no test; else true, with the asm goto (appended too), its label
   and the call in *P (branch_to_call ends the asm's block once SEQ is
   in place).  */
bool
memprof_loop_counts::build_count (const strided_count &c, tree start,
				  tree shadow_base, gimple_seq *seq,
				  pending_count *p)
{
  tree uintptr = pointer_sized_int_node;
  /* force_gimple_operand starts a new sequence: append each.  */
  auto gimplify = [seq] (tree e) {
    gimple_seq part = NULL;
    tree value = force_gimple_operand (e, &part, true, NULL_TREE);
    gimple_seq_add_seq (seq, part);
    return value;
  };
  /* MADE = (IV - START) / STEP: the distance walked over |STEP|, the
     difference taken in unsigned arithmetic and divided as signed (a
     mark moved past this iteration's access makes it -|STEP|, and MADE
     then 0 with this iteration's access added).  */
  bool down = c.step < 0;
  tree now = fold_convert (uintptr, c.iv);
  tree made = down ? fold_build2 (MINUS_EXPR, uintptr, start, now)
		   : fold_build2 (MINUS_EXPR, uintptr, now, start);
  unsigned HOST_WIDE_INT distance
    = down ? -(unsigned HOST_WIDE_INT) c.step : c.step;
  tree signed_ptr = signed_type_for (uintptr);
  made = fold_convert (uintptr,
		       fold_build2 (EXACT_DIV_EXPR, signed_ptr,
				    fold_convert (signed_ptr, made),
				    build_int_cst (signed_ptr, distance)));
  if (c.before_exit_test)
    made = fold_build2 (PLUS_EXPR, uintptr, made, build_int_cst (uintptr, 1));
  if (c.guard_bound)
    {
      /* At most ROOM = MAX (BOUND, X0) - X0 of them, X0 = (T) IV0, plus
	 one for <= when BOUND >= X0: signed for the MAX and the compare,
	 unsigned for the sums (nothing overflows, not even at a BOUND of
	 LONG_MAX).  (Never with a mark: START is IV0.)  */
      tree x0 = fold_convert (signed_ptr, fold_convert (c.guard_type, start));
      tree limit = fold_convert (signed_ptr, unshare_expr (c.guard_bound));
      tree top = fold_build2 (MAX_EXPR, signed_ptr, limit, x0);
      tree room = fold_build2 (MINUS_EXPR, uintptr,
			       fold_convert (uintptr, top),
			       fold_convert (uintptr, x0));
      if (c.guard_inclusive)
	room = fold_build2 (PLUS_EXPR, uintptr, room,
			    fold_convert (uintptr,
					  fold_build2 (GE_EXPR,
						       boolean_type_node,
						       limit, x0)));
      made = fold_build2 (MIN_EXPR, uintptr, made, room);
    }
  made = gimplify (made);
  tree stride = build_int_cst (uintptr, distance * c.scale);
  tree first = fold_build2 (MULT_EXPR, uintptr, start,
			    build_int_cst (uintptr, c.scale));
  if (c.base)
    first = fold_build2 (PLUS_EXPR, uintptr,
			 fold_convert (uintptr, unshare_expr (c.base)), first);
  first = fold_build2 (PLUS_EXPR, uintptr, first,
		       build_int_cst (uintptr, c.offset));
  /* A run down starts at its lowest address, MADE - 1 strides below the
     first access (for MADE 0 anywhere: nothing is counted).  */
  if (down)
    first = fold_build2 (MINUS_EXPR, uintptr,
			 fold_build2 (PLUS_EXPR, uintptr, first, stride),
			 fold_build2 (MULT_EXPR, uintptr, made, stride));
  first = gimplify (first);
  auto counter_index = [&] () {
    return gimplify (fold_build2 (RSHIFT_EXPR, uintptr, first,
				  build_int_cst (integer_type_node,
						 memprof_counted_bytes_log2 ())));
  };
  if (c.scale == 0)
    {
      /* One counter gets them all: no call (add never takes these in
	 histogram mode, where SHADOW_BASE is null).  */
      tree addend = gimplify (fold_convert (memprof_counter_type (), made));
      memprof_counter_add (seq, shadow_base, counter_index (), addend);
      return false;
    }
  gcall *call = gimple_build_call (memprof_count_strided_function (), 3,
				   first, made, stride);
  gimple_call_set_nothrow (call, true);
  if (!shadow_base)
    {
      gimple_seq_add_stmt (seq, call);
      return false;
    }
  /* The run's last byte: computed here, where the compiler folds it
     with the induction variable's own arithmetic.  */
  tree last = gimplify (fold_build2 (MINUS_EXPR, uintptr,
				     fold_build2 (PLUS_EXPR, uintptr, first,
						  fold_build2 (MULT_EXPR,
							       uintptr, made,
							       stride)),
				     build_int_cst (uintptr, 1)));
  p->call_label = create_artificial_label (UNKNOWN_LOCATION);
  p->count = memprof_asm_run_count (shadow_base, first, made, last,
				    distance * c.scale, p->call_label);
  gimple_seq_add_stmt (seq, p->count);
  p->call = call;
  return true;
}

/* End the block of P's asm goto after it, and give it the block of the
   call, which the asm jumps to for a run across more granules than it
   counts (rarely) and which then falls through to the rest.  */
void
memprof_loop_counts::branch_to_call (const pending_count &p)
{
  basic_block bb = gimple_bb (p.count);
  edge fall = split_block (bb, p.count);
  basic_block call_bb = create_empty_bb (bb);
  add_bb_to_loop (call_bb, bb->loop_father);
  gimple_stmt_iterator gsi = gsi_start_bb (call_bb);
  gsi_insert_after (&gsi, gimple_build_label (p.call_label), GSI_NEW_STMT);
  gsi_insert_after (&gsi, p.call, GSI_NEW_STMT);
  edge to_call = make_edge (bb, call_bb, 0);
  to_call->probability = profile_probability::very_unlikely ();
  fall->probability = to_call->probability.invert ();
  call_bb->count = bb->count.apply_probability (to_call->probability);
  make_single_succ_edge (call_bb, fall->dest, EDGE_FALLTHRU);
  if (dom_info_available_p (CDI_DOMINATORS))
    set_immediate_dominator (CDI_DOMINATORS, call_bb, bb);
}

/* Append to *SEQ a read of MARK, returning the value.  */
static tree
read_mark (gimple_seq *seq, tree mark)
{
  tree value = make_ssa_name (pointer_sized_int_node);
  gimple_seq_add_stmt (seq, gimple_build_assign (value, mark));
  return value;
}

/* Insert the counts: on the exit edges, and in a loop with calls, before
   each call (from the access's mark, which then moves past the accesses
   counted) and on the entry edge the mark's first value.  With
   SHADOW_BASE when needs_shadow_base.  True if any was inserted.  */
bool
memprof_loop_counts::finish (tree shadow_base)
{
  if (!m_active)
    return false;
  tree uintptr = pointer_sized_int_node;
  auto_vec<pending_count> pending;
  pending_count p;

  /* The counts before calls: where, and whether the access comes before
     the call, found while the statements are where the walk left them
     (a redirected builtin is a call in its statement's place: the same
     order) and before any count is inserted (no call of ours is one
     to count before).  */
  struct flush
  {
    gcall *call;
    strided_count count;
  };
  auto_vec<flush> flushes;
  for (const strided_count &m : m_marked)
    {
      auto_vec<gcall *> calls;
      loop_calls (m.loop, &calls);
      for (gcall *call : calls)
	{
	  flush f = { call, m };
	  if (!order_in_iteration (m.loop, m.access, call,
				   &f.count.before_exit_test))
	    gcc_unreachable (); /* add checked every call.  */
	  flushes.safe_push (f);
	}
    }
  for (const strided_count &m : m_marked)
    {
      gimple_seq init = NULL;
      tree start = force_gimple_operand (fold_convert (uintptr, m.start),
					 &init, true, NULL_TREE);
      gimple_seq_add_stmt (&init, gimple_build_assign (m.mark, start));
      gsi_insert_seq_on_edge (m_loops[m.loop->num].entry, init);
    }
  for (const flush &f : flushes)
    {
      const strided_count &c = f.count;
      gimple_seq seq = NULL;
      bool branch = build_count (c, read_mark (&seq, c.mark), shadow_base,
				 &seq, &p);
      /* The next access not counted: this iteration's or the next.  */
      tree next = fold_convert (uintptr, c.iv);
      if (c.before_exit_test)
	next = fold_build2 (PLUS_EXPR, uintptr, next,
			    build_int_cst (uintptr, c.step));
      gimple_seq part = NULL;
      next = force_gimple_operand (next, &part, true, NULL_TREE);
      gimple_seq_add_seq (&seq, part);
      gimple_seq_add_stmt (&seq, gimple_build_assign (c.mark, next));
      gimple_stmt_iterator gsi = gsi_for_stmt (f.call);
      gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
      if (branch)
	pending.safe_push (p);
    }

  for (const strided_count &c : m_counts)
    {
      gimple_seq seq = NULL;
      tree start = c.mark ? read_mark (&seq, c.mark)
			  : fold_convert (uintptr, c.start);
      if (build_count (c, start, shadow_base, &seq, &p))
	pending.safe_push (p);
      gsi_insert_seq_on_edge (c.exit, seq);
    }
  bool inserted = !m_counts.is_empty ();
  if (inserted)
    gsi_commit_edge_inserts ();
  /* Now that the computations are in blocks, end each asm goto's block
     and give it the call's.  */
  for (const pending_count &p : pending)
    branch_to_call (p);
  loop_optimizer_finalize ();
  m_active = false;
  return inserted;
}
