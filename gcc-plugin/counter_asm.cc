/* Counter updates as x86-64 asm blocks.

   The counts of the accesses between two calls of a basic block are
   emitted together, as one volatile asm statement placed after the last
   of them: per granule site

     lea  OFFSET(VAR[,INDEX,SCALE]), TMP    (or mov VAR, TMP)
     shr  $6, TMP
     addq $STEP, (BASE,TMP,8)

   and in histogram mode, per slot site, a saturating 4-byte add (the
   branch is never taken before a counter reaches 2^32 - 1):

     lea  OFFSET(VAR[,INDEX,SCALE]), TMP
     shr  $3, TMP
     addl $STEP, (BASE,TMP,4)
     jnc  1f
     movl $-1, (BASE,TMP,4)
   1:

   Two sites whose pointers were loaded from the same memory (the
   string builder's p[len] = c; p[len + 1] = 0, where the char store
   may have changed p, so p is read again) most often share a granule,
   and two increments of one counter wait for each other: their
   granules are compared and, when equal, counted by one add:

     (address of the first) -> T; shr $6, T
     (address of the second) -> U; shr $6, U
     cmp T, U; jne 1f
     addq $STEP1+STEP2, (BASE,T,8); jmp 2f
   1: addq $STEP1, (BASE,T,8); addq $STEP2, (BASE,U,8)
   2:

   This is the code the GIMPLE form (pass.cc) expands to, but the RTL
   passes see one instruction per block of counts instead of three per
   access, which they could not improve anyway: the shadow is private to
   the runtime.  That cuts the compile-time cost of instrumentation from
   about a third of the compile to 7% (bench/README.md).  Counts stay
   exact: every access of the block between the two calls executes once
   the block is entered, and no call, which could observe or dump the
   counters, runs between an access and its count.  The asm names no
   memory the program sees, so it does not constrain the program's own
   code; it is volatile because its only output, the scratch register,
   is unused (a plain asm would be deleted as dead).  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

bool
memprof_asm_counters_supported ()
{
#ifdef TARGET_64BIT
  return TARGET_64BIT && POINTER_SIZE == 64;
#else
  return false;
#endif
}

namespace {

/* Register operands an asm block may take besides the shadow base and its
   scratch register: enough to count a few structures at once, few enough
   to leave the register allocator room at -O0.  */
const unsigned max_register_operands = 4;
/* Sites per block: keeps the asm short and the live ranges local.  */
const unsigned max_sites = 8;

/* X86-64 displacements are signed 32-bit.  */
bool
fits_displacement (HOST_WIDE_INT offset)
{
  return offset >= -(HOST_WIDE_INT_1 << 31)
	 && offset < (HOST_WIDE_INT_1 << 31);
}

/* Does a conversion from FROM to TO keep an address as it is (both
   pointers or integers of pointer size)?  */
bool
address_conversion_p (tree to, tree from)
{
  return (POINTER_TYPE_P (from) || INTEGRAL_TYPE_P (from))
	 && TYPE_PRECISION (from) == POINTER_SIZE
	 && TYPE_PRECISION (to) == POINTER_SIZE;
}

/* Strip conversions between pointers and pointer-sized integers.  */
tree
strip_address_conversions (tree t)
{
  while (CONVERT_EXPR_P (t)
	 && address_conversion_p (TREE_TYPE (t),
				  TREE_TYPE (TREE_OPERAND (t, 0))))
    t = TREE_OPERAND (t, 0);
  return t;
}

/* An operand the asm can take in a register as it is.  */
bool
register_operand_p (tree t)
{
  return TREE_CODE (t) == SSA_NAME || is_gimple_min_invariant (t);
}

void
append_text (auto_vec<char> *text, const char *s)
{
  while (*s)
    text->safe_push (*s++);
}

/* The memory the pointer V was loaded from if V is such a load (or a
   PHI of loads of one place), plus additions and conversions: for the
   string builder's _55 = p_9 + len and _57 = _56 + len', p_9 a PHI of
   loads of cur._M_p and _56 another load of it, cur._M_p both times.
   Null when V is no such pointer.  */
tree
pointer_load_source (tree v)
{
  auto loaded_from = [] (tree name) -> tree {
    gimple *def = SSA_NAME_DEF_STMT (name);
    return gimple_assign_load_p (def) ? gimple_assign_rhs1 (def) : NULL_TREE;
  };
  for (unsigned steps = 0; steps < 4 && TREE_CODE (v) == SSA_NAME; steps++)
    {
      gimple *def = SSA_NAME_DEF_STMT (v);
      if (gphi *phi = dyn_cast<gphi *> (def))
	{
	  tree source = NULL_TREE;
	  for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
	    {
	      tree arg = gimple_phi_arg_def (phi, i);
	      tree from = TREE_CODE (arg) == SSA_NAME ? loaded_from (arg)
						      : NULL_TREE;
	      if (!from || (source && !operand_equal_p (source, from, 0)))
		return NULL_TREE;
	      source = from;
	    }
	  return source;
	}
      if (tree from = loaded_from (v))
	return from;
      gassign *assign = dyn_cast<gassign *> (def);
      if (!assign
	  || (gimple_assign_rhs_code (assign) != POINTER_PLUS_EXPR
	      && !CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (assign))))
	return NULL_TREE;
      v = gimple_assign_rhs1 (assign);
    }
  return NULL_TREE;
}

} // namespace

/* The value of T if it is a constant addend of an address, read in
   address arithmetic (modulo 2^64: sizetype's "huge" addends are
   negative offsets).  */
bool
memprof_address_constant (tree t, HOST_WIDE_INT *value)
{
  if (TREE_CODE (t) != INTEGER_CST)
    return false;
  if (TYPE_PRECISION (TREE_TYPE (t)) == HOST_BITS_PER_WIDE_INT)
    *value = (HOST_WIDE_INT) TREE_INT_CST_LOW (t);
  else if (tree_fits_shwi_p (t))
    *value = tree_to_shwi (t);
  else
    return false;
  return true;
}

/* The pointer ADDRESS is a constant away from, adding the constant to
   *OFFSET: through conversions (also of SSA names: _4 = (void *) iv),
   additions of constants, &MEM[p + C], and SSA names computed as P + C
   for the access alone (p[-1] in GIMPLE is
   _1 = p + -8; *_1): counting at P + C needs nothing computed beforehand,
   P being live anyway.  */
tree
memprof_address_base (tree address, HOST_WIDE_INT *offset)
{
  tree e = strip_address_conversions (address);
  for (;;)
    {
      tree pointer, constant;
      gassign *def = NULL;
      if (TREE_CODE (e) == PLUS_EXPR || TREE_CODE (e) == POINTER_PLUS_EXPR)
	pointer = TREE_OPERAND (e, 0), constant = TREE_OPERAND (e, 1);
      else if (TREE_CODE (e) == ADDR_EXPR
	       && TREE_CODE (TREE_OPERAND (e, 0)) == MEM_REF)
	pointer = TREE_OPERAND (TREE_OPERAND (e, 0), 0),
	constant = TREE_OPERAND (TREE_OPERAND (e, 0), 1);
      else if (TREE_CODE (e) == SSA_NAME
	       && (def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (e)))
	       && TREE_CODE (gimple_assign_rhs1 (def)) == SSA_NAME)
	{
	  tree_code code = gimple_assign_rhs_code (def);
	  if (CONVERT_EXPR_CODE_P (code))
	    {
	      /* _4 = (void *) ivtmp: the integer is the pointer.  */
	      tree from = gimple_assign_rhs1 (def);
	      if (!address_conversion_p (TREE_TYPE (e), TREE_TYPE (from)))
		break;
	      e = from;
	      continue;
	    }
	  if (code != POINTER_PLUS_EXPR)
	    break;
	  pointer = gimple_assign_rhs1 (def), constant = gimple_assign_rhs2 (def);
	}
      else
	break;
      HOST_WIDE_INT addend;
      if (!memprof_address_constant (constant, &addend)
	  || !fits_displacement (addend)
	  || !fits_displacement (*offset + addend))
	break;
      *offset += addend;
      e = strip_address_conversions (pointer);
    }
  return e;
}

/* Split ADDRESS into VAR + INDEX * SCALE + OFFSET, gimplifying what is
   not already an SSA name or invariant before GSI.  */
memprof_asm_site
memprof_asm_counter_block::decompose (gimple_stmt_iterator *gsi, tree address)
{
  memprof_asm_site site = { NULL_TREE, NULL_TREE, 1, 0, 1, -1 };
  tree e = memprof_address_base (address, &site.offset);
  /* VAR + INDEX * {1,2,4,8}: the lea does the scaling.  */
  if ((TREE_CODE (e) == PLUS_EXPR || TREE_CODE (e) == POINTER_PLUS_EXPR)
      && TREE_CODE (TREE_OPERAND (e, 1)) == MULT_EXPR
      && tree_fits_shwi_p (TREE_OPERAND (TREE_OPERAND (e, 1), 1)))
    {
      HOST_WIDE_INT scale
	= tree_to_shwi (TREE_OPERAND (TREE_OPERAND (e, 1), 1));
      if (scale == 1 || scale == 2 || scale == 4 || scale == 8)
	{
	  site.index = TREE_OPERAND (TREE_OPERAND (e, 1), 0);
	  site.scale = scale;
	  e = memprof_address_base (TREE_OPERAND (e, 0), &site.offset);
	}
    }
  site.var = e;
  tree uintptr = pointer_sized_int_node;
  if (!register_operand_p (site.var))
    site.var = force_gimple_operand_gsi (gsi, fold_convert (uintptr, site.var),
					 true, NULL_TREE, true, GSI_SAME_STMT);
  if (site.index
      && (!register_operand_p (site.index)
	  || TYPE_PRECISION (TREE_TYPE (site.index)) != POINTER_SIZE))
    site.index
      = force_gimple_operand_gsi (gsi, fold_convert (uintptr, site.index),
				  true, NULL_TREE, true, GSI_SAME_STMT);
  return site;
}

/* The register operands SITE adds to the block.  */
unsigned
memprof_asm_counter_block::new_operands (const memprof_asm_site &site) const
{
  unsigned n = 0;
  tree ops[2] = { site.var, site.index };
  for (tree op : ops)
    if (op && !has_operand (op))
      n++;
  return n;
}

bool
memprof_asm_counter_block::has_operand (tree op) const
{
  for (tree known : m_operands)
    if (operand_equal_p (known, op, 0))
      return true;
  return false;
}

void
memprof_asm_counter_block::add (gimple_stmt_iterator *gsi, tree address,
				tree base)
{
  m_base = base;
  memprof_asm_site site = decompose (gsi, address);
  for (memprof_asm_site &known : m_sites)
    if (known.offset == site.offset && known.scale == site.scale
	&& operand_equal_p (known.var, site.var, 0)
	&& (known.index == site.index
	    || (known.index && site.index
		&& operand_equal_p (known.index, site.index, 0))))
      {
	known.step++;
	return;
      }
  if (m_sites.length () == max_sites
      || m_operands.length () + new_operands (site) > max_register_operands)
    flush ();
  tree ops[2] = { site.var, site.index };
  for (tree op : ops)
    if (op && !has_operand (op))
      m_operands.safe_push (op);
  site.partner = likely_partner (site);
  if (site.partner >= 0)
    {
      m_sites[site.partner].partner = m_sites.length ();
      m_paired++;
    }
  m_sites.safe_push (site);
  m_last_access = gsi_stmt (*gsi);
}

/* The site of the block, not yet paired, that SITE most likely shares
   a granule with (see the top of the file), or -1.  Only with 8-byte
   counters: a histogram slot is 8 bytes, two accesses rarely share
   one.  */
int
memprof_asm_counter_block::likely_partner (const memprof_asm_site &site) const
{
  if (memprof_opts.histogram || site.index)
    return -1;
  tree source = pointer_load_source (site.var);
  if (!source)
    return -1;
  const HOST_WIDE_INT granule = HOST_WIDE_INT_1 << memprof_counted_bytes_log2 ();
  for (unsigned i = 0; i < m_sites.length (); i++)
    {
      const memprof_asm_site &known = m_sites[i];
      HOST_WIDE_INT apart = known.offset - site.offset;
      if (known.index || known.partner >= 0
	  || apart <= -granule || apart >= granule
	  || operand_equal_p (known.var, site.var, 0))
	continue;
      tree known_source = pointer_load_source (known.var);
      if (known_source && operand_equal_p (known_source, source, 0))
	return i;
    }
  return -1;
}

/* The operand number of OP in the asm: %0 is the scratch register (%1
   a second one when the block has a pair), then the shadow base, then
   the block's operands in order.  */
unsigned
memprof_asm_counter_block::operand_number (tree op) const
{
  for (unsigned i = 0; i < m_operands.length (); i++)
    if (operand_equal_p (m_operands[i], op, 0))
      return m_base_operand + 1 + i;
  gcc_unreachable ();
}

/* Append to TEXT the line putting SITE's address in operand REG, in
   both of GCC's x86 assembler dialects ({AT&T|Intel}).  */
void
memprof_asm_counter_block::append_address (auto_vec<char> *text,
					   const memprof_asm_site &site,
					   unsigned reg) const
{
  char line[256];
  unsigned v = operand_number (site.var);
  if (site.offset == 0 && !site.index)
    snprintf (line, sizeof line, "{movq\t%%%u, %%%u|mov\t%%%u, %%%u}\n\t", v,
	      reg, reg, v);
  else if (!site.index)
    snprintf (line, sizeof line,
	      "{leaq\t" HOST_WIDE_INT_PRINT_DEC "(%%%u), %%%u"
	      "|lea\t%%%u, [%%%u%+" HOST_WIDE_INT_PRINT "d]}\n\t",
	      site.offset, v, reg, reg, v, site.offset);
  else
    {
      /* With an index, a zero offset is left out.  */
      unsigned i = operand_number (site.index);
      char att[32] = "", intel[32] = "";
      if (site.offset)
	{
	  snprintf (att, sizeof att, HOST_WIDE_INT_PRINT_DEC, site.offset);
	  snprintf (intel, sizeof intel, "%+" HOST_WIDE_INT_PRINT "d",
		    site.offset);
	}
      snprintf (line, sizeof line,
		"{leaq\t%s(%%%u,%%%u,%d), %%%u|lea\t%%%u, [%%%u+%%%u*%d%s]}\n\t",
		att, v, i, site.scale, reg, reg, v, i, site.scale, intel);
    }
  append_text (text, line);
}

/* Append the lines turning the address in operand REG into its
   granule's index and adding STEP to the granule's counter.  */
void
memprof_asm_counter_block::append_add (auto_vec<char> *text, unsigned step,
				       unsigned reg) const
{
  char line[256];
  unsigned b = m_base_operand;
  snprintf (line, sizeof line,
	    "{addq\t$%u, (%%%u,%%%u,8)|add\tQWORD PTR [%%%u+%%%u*8], %u}\n\t",
	    step, b, reg, b, reg, step);
  append_text (text, line);
}

/* Append the lines of SITE, its counter's index computed in %0.  */
void
memprof_asm_counter_block::append_template (auto_vec<char> *text,
					    const memprof_asm_site &site) const
{
  char line[256];
  unsigned b = m_base_operand;
  append_address (text, site, 0);
  if (memprof_opts.histogram)
    {
      snprintf (line, sizeof line,
		"{shrq\t$3, %%0|shr\t%%0, 3}\n\t"
		"{addl\t$%u, (%%%u,%%0,4)|add\tDWORD PTR [%%%u+%%0*4], %u}\n\t"
		"jnc\t1f\n\t"
		"{movl\t$-1, (%%%u,%%0,4)|mov\tDWORD PTR [%%%u+%%0*4], -1}\n"
		"1:\n\t",
		site.step, b, b, site.step, b, b);
      append_text (text, line);
      return;
    }
  append_text (text, "{shrq\t$6, %0|shr\t%0, 6}\n\t");
  append_add (text, site.step, 0);
}

/* Append the lines of the pair FIRST and SECOND (the top of the file):
   their granules' indexes in %0 and %1, one add when they are equal.  */
void
memprof_asm_counter_block::append_pair (auto_vec<char> *text,
					const memprof_asm_site &first,
					const memprof_asm_site &second) const
{
  append_address (text, first, 0);
  append_text (text, "{shrq\t$6, %0|shr\t%0, 6}\n\t");
  append_address (text, second, 1);
  append_text (text, "{shrq\t$6, %1|shr\t%1, 6}\n\t"
		     "{cmpq\t%0, %1|cmp\t%1, %0}\n\t"
		     "jne\t1f\n\t");
  append_add (text, first.step + second.step, 0);
  append_text (text, "jmp\t2f\n1:\n\t");
  append_add (text, first.step, 0);
  append_add (text, second.step, 1);
  append_text (text, "2:\n\t");
}

/* The asm goto of memprof_asm_run_count, %0 and %1 scratch, %2 the
   shadow base, %3 FIRST, %4 MADE, %5 LAST, %l6 the call's label:

     movq  %3, %1;  shrq $6, %1          the first granule's index
     movq  %5, %0;  xorq %3, %0
     cmpq  $63, %0;  jbe 2f              one granule?
     movq  %5, %0;  shrq $6, %0;  subq %1, %0
     cmpq  $1, %0;  jne %l6              two, STRIDE a power of two
                                         (else jmp %l6):
     movq  %3, %0;  orq $63, %0;  subq %3, %0
     shrq  $LOG2_STRIDE, %0;  addq $1, %0    N1 in the first,
     addq  %0, (%2,%1,8)
     negq  %0;  addq %4, %0;  addq %0, 8(%2,%1,8)   the rest in the second
     jmp   3f
   2:
     addq  %4, (%2,%1,8)                 one granule: all of them
   3:

   (A run of none, MADE 0, adds 0 or takes the call, which counts
   nothing.)  */
gasm *
memprof_asm_run_count (tree base, tree first, tree made, tree last,
		       unsigned HOST_WIDE_INT stride, tree call_label)
{
  const int log2_granule = memprof_counted_bytes_log2 ();
  const unsigned HOST_WIDE_INT granule = HOST_WIDE_INT_1U << log2_granule;
  gcc_checking_assert (!memprof_opts.histogram && stride > 0);
  auto_vec<char> text;
  char line[1024];
  snprintf (line, sizeof line,
	    "{movq\t%%3, %%1|mov\t%%1, %%3}\n\t"
	    "{shrq\t$%d, %%1|shr\t%%1, %d}\n\t"
	    "{movq\t%%5, %%0|mov\t%%0, %%5}\n\t"
	    "{xorq\t%%3, %%0|xor\t%%0, %%3}\n\t"
	    "{cmpq\t$" HOST_WIDE_INT_PRINT_UNSIGNED ", %%0"
	    "|cmp\t%%0, " HOST_WIDE_INT_PRINT_UNSIGNED "}\n\t"
	    "jbe\t2f\n\t",
	    log2_granule, log2_granule, granule - 1, granule - 1);
  append_text (&text, line);
  if (pow2p_hwi (stride) && stride <= granule)
    {
      int log2_stride = exact_log2 (stride);
      snprintf (line, sizeof line,
		"{movq\t%%5, %%0|mov\t%%0, %%5}\n\t"
		"{shrq\t$%d, %%0|shr\t%%0, %d}\n\t"
		"{subq\t%%1, %%0|sub\t%%0, %%1}\n\t"
		"{cmpq\t$1, %%0|cmp\t%%0, 1}\n\t"
		"jne\t%%l6\n\t"
		"{movq\t%%3, %%0|mov\t%%0, %%3}\n\t"
		"{orq\t$" HOST_WIDE_INT_PRINT_UNSIGNED ", %%0"
		"|or\t%%0, " HOST_WIDE_INT_PRINT_UNSIGNED "}\n\t"
		"{subq\t%%3, %%0|sub\t%%0, %%3}\n\t"
		"{shrq\t$%d, %%0|shr\t%%0, %d}\n\t"
		"{addq\t$1, %%0|add\t%%0, 1}\n\t"
		"{addq\t%%0, (%%2,%%1,8)|add\tQWORD PTR [%%2+%%1*8], %%0}\n\t"
		"{negq\t%%0|neg\t%%0}\n\t"
		"{addq\t%%4, %%0|add\t%%0, %%4}\n\t"
		"{addq\t%%0, 8(%%2,%%1,8)|add\tQWORD PTR [%%2+%%1*8+8], %%0}\n\t"
		"jmp\t3f\n",
		log2_granule, log2_granule, granule - 1, granule - 1,
		log2_stride, log2_stride);
      append_text (&text, line);
    }
  else
    append_text (&text, "jmp\t%l6\n");
  append_text (&text,
	       "2:\n\t"
	       "{addq\t%4, (%2,%1,8)|add\tQWORD PTR [%2+%1*8], %4}\n"
	       "3:");
  text.safe_push ('\0');

  vec<tree, va_gc> *outputs = NULL, *inputs = NULL, *clobbers = NULL;
  vec<tree, va_gc> *labels = NULL;
  auto operand = [] (const char *c, tree value) {
    return build_tree_list (build_tree_list (NULL_TREE,
					     build_string (strlen (c) + 1, c)),
			    value);
  };
  tree uintptr = pointer_sized_int_node;
  tree scratch = make_ssa_name (uintptr), index = make_ssa_name (uintptr);
  vec_safe_push (outputs, operand ("=&r", scratch));
  vec_safe_push (outputs, operand ("=&r", index));
  vec_safe_push (inputs, operand ("r", base));
  vec_safe_push (inputs, operand ("r", first));
  vec_safe_push (inputs, operand ("r", made));
  vec_safe_push (inputs, operand ("r", last));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE, build_string (3, "cc")));
  vec_safe_push (labels, build_tree_list (NULL_TREE, call_label));
  gasm *stmt = gimple_build_asm_vec (ggc_strdup (text.address ()), inputs,
				     outputs, clobbers, labels);
  SSA_NAME_DEF_STMT (scratch) = stmt;
  SSA_NAME_DEF_STMT (index) = stmt;
  /* Volatile (as every asm goto is): it writes counters the compiler
     does not see, so it must neither move nor merge with another.  */
  gimple_asm_set_volatile (stmt, true);
  return stmt;
}

gasm *
memprof_asm_counter_block::build ()
{
  bool has_pair = false;
  for (const memprof_asm_site &site : m_sites)
    has_pair |= site.partner >= 0;
  m_base_operand = has_pair ? 2 : 1;
  auto_vec<char> template_text;
  for (unsigned i = 0; i < m_sites.length (); i++)
    {
      const memprof_asm_site &site = m_sites[i];
      if (site.partner < 0)
	append_template (&template_text, site);
      else if ((unsigned) site.partner > i)
	append_pair (&template_text, site, m_sites[site.partner]);
    }
  /* No separator after the last line.  */
  template_text.truncate (template_text.length () - 2);
  template_text.safe_push ('\0');
  const char *text = ggc_strdup (template_text.address ());

  vec<tree, va_gc> *outputs = NULL, *inputs = NULL, *clobbers = NULL;
  auto constraint = [] (const char *c) {
    return build_tree_list (NULL_TREE, build_string (strlen (c) + 1, c));
  };
  tree scratch = make_ssa_name (pointer_sized_int_node);
  vec_safe_push (outputs, build_tree_list (constraint ("=&r"), scratch));
  tree second_scratch = NULL_TREE;
  if (has_pair)
    {
      second_scratch = make_ssa_name (pointer_sized_int_node);
      vec_safe_push (outputs, build_tree_list (constraint ("=&r"),
					       second_scratch));
    }
  vec_safe_push (inputs, build_tree_list (constraint ("r"), m_base));
  for (tree op : m_operands)
    vec_safe_push (inputs, build_tree_list (constraint ("r"), op));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
					    build_string (3, "cc")));
  gasm *stmt = gimple_build_asm_vec (text, inputs, outputs, clobbers, NULL);
  SSA_NAME_DEF_STMT (scratch) = stmt;
  if (second_scratch)
    SSA_NAME_DEF_STMT (second_scratch) = stmt;
  gimple_asm_set_volatile (stmt, true);
  gimple_set_location (stmt, gimple_location (m_last_access));
  m_sites.truncate (0);
  m_operands.truncate (0);
  return stmt;
}

/* Right after the block's last access, so that no operand lives longer
   than it must; before it if it is a call (its arguments and result in
   memory count before the callee runs) or ends its basic block.  */
void
memprof_asm_counter_block::flush ()
{
  if (m_sites.is_empty ())
    return;
  gimple_stmt_iterator gsi = gsi_for_stmt (m_last_access);
  if (is_a<gcall *> (m_last_access) || is_a<gasm *> (m_last_access)
      || stmt_ends_bb_p (m_last_access))
    gsi_insert_before (&gsi, build (), GSI_SAME_STMT);
  else
    gsi_insert_after (&gsi, build (), GSI_NEW_STMT);
}
