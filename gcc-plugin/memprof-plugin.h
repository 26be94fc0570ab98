/* Declarations shared by the files of the memprof GCC plugin.

   Include this after the GCC headers (gcc-headers.h): it uses GCC's tree
   and gimple types.  */

#ifndef MEMPROF_PLUGIN_H
#define MEMPROF_PLUGIN_H

/* --- options.cc: the -fplugin-arg-memprof-* arguments -------------------- */
struct memprof_options
{
  const char *profile_dir = nullptr; /* dir=DIR, or null: run-time cwd.  */
  bool instrument_stack = false;     /* stack: locals and pointers to them.  */
  bool instrument_globals = false;   /* globals: globals accessed by name.  */
  bool use_callbacks = false;        /* callbacks: call __memprof_load/store.  */
  bool statistics = false;           /* stats: per-function report.  */
  bool type_statistics = false;      /* type-stats: each site's type.  */
  bool redirect_builtins = true;     /* no-builtins turns redirection off.  */
  /* counters=gimple: the portable GIMPLE counter updates even where the
     x86-64 asm blocks are available.  */
  bool gimple_counters = false;
  /* histogram: count 8-byte slots (abi.h's histogram mode).  */
  bool histogram = false;

  /* use=FILE: the -fheapprof-use route: no instrumentation; the
     allocation calls get hints from the indexed profile FILE.  */
  const char *use_profile = nullptr;
  bool use_notes = false;            /* use-notes: a note per classified call.  */
  bool use_stats = false;            /* use-stats: a summary per unit.  */
  bool use_mismatch = false;         /* use-mismatch: stale-profile warnings.  */
  enum { HINT_TCMALLOC, HINT_JEMALLOC, HINT_NONE } use_allocator
    = HINT_TCMALLOC;                 /* use-allocator=tcmalloc|jemalloc|none.  */
  /* The classification thresholds (hint_profile.h, the manual).  */
  double cold_lifetime_percent = 50;
  double cold_min_lifetime_ms = 10;
  double cold_accesses = 2;
  double hot_density = 1000;
};
extern memprof_options memprof_opts;

/* Parse the plugin's arguments; reports every bad one with error ().
   Returns false if any was bad.  */
bool memprof_parse_arguments (int argc, struct plugin_argument *argv);
/* The text of --help for the plugin (PLUGIN_INFO).  */
extern const char memprof_plugin_help[];

/* --- use_pass.cc: -fheapprof-use ---------------------------------------- */
/* Load the profile and register the hinting pass; false (with an error
   reported) when the profile is unusable.  */
bool memprof_use_init (const char *plugin_name);

/* --- use_hints.cc: the allocation calls and their hinted forms --------- */
enum memprof_alloc_kind
{
  MEMPROF_NOT_ALLOC,
  MEMPROF_ALLOC_MALLOC,
  MEMPROF_ALLOC_CALLOC,
  MEMPROF_ALLOC_OTHER_C,   /* realloc, aligned_alloc, strdup...: no hint.  */
  MEMPROF_ALLOC_NEW        /* a replaceable operator new or new[].  */
};
memprof_alloc_kind memprof_allocation_kind (gcall *call);
/* Give the call at GSI the hint COLD (else hot) for the allocator chosen;
   returns false, with *WHY set, when that allocator has no hint for it.  */
bool memprof_apply_hint (gimple_stmt_iterator *gsi, memprof_alloc_kind kind,
			 bool cold, const char **why);
/* GC roots of use_hints.cc.  */
extern const struct ggc_root_tab memprof_use_gc_roots[];

/* An entry of a GC root table: a tree a plugin static holds across
   functions (collected otherwise).  */
#define MEMPROF_ROOT(var) \
  { &var, 1, sizeof (var), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node }

/* --- version_check.cc ---------------------------------------------------- */
/* True if the running GCC is the one the plugin was built for; otherwise
   reports one error line and returns false.  */
bool memprof_gcc_version_ok (const struct plugin_gcc_version *running);

/* --- runtime_decls.cc: trees naming the runtime (GC roots) ------------- */
tree memprof_shadow_base_decl ();     /* extern uintptr_t base.  */
/* The counter type: uint64 (uint32 in histogram mode) with a private
   alias set.  */
tree memprof_counter_type ();
/* Append to SEQ the update of the counter at BASE[INDEX] (BASE the
   shadow base; the counters' private alias set, not trapping) by ADDEND,
   saturating in histogram mode: load, add, store.  The addition, whose
   ADDEND a later access of the same counter may grow.  */
gassign *memprof_counter_add (gimple_seq *seq, tree base, tree index,
			      tree addend);
tree memprof_access_callback (bool is_store); /* __memprof_load/store.  */
tree memprof_range_function (enum built_in_function code); /* mem*, or null.  */
tree memprof_count_strided_function (); /* __memprof_count_strided.  */
/* __memprof_record_access_range (const void *, size_t).  */
tree memprof_count_range_function ();
/* void MEMPROF_LINK_CHECK_SYMBOL (void), or MEMPROF_HISTOGRAM_LINK_CHECK_SYMBOL
   in histogram mode: the one strong reference.  */
tree memprof_link_check_function ();
/* void MEMPROF_SET_PROFILE_DIR_SYMBOL (const char *), weak.  */
tree memprof_set_profile_dir_function ();
/* The root table for PLUGIN_REGISTER_GGC_ROOTS.  */
extern const struct ggc_root_tab memprof_gc_roots[];

/* --- The shadow layout of the mode compiled for (abi.h) ------------------ */
/* log2 of the bytes one counter covers: 6 (64-byte granules) or 3
   (8-byte slots in histogram mode).  */
int memprof_counted_bytes_log2 ();
/* Bytes of one counter: 8, or 4 in histogram mode.  */
int memprof_counter_bytes ();

/* --- classify.cc: is a memory operand possibly heap? ------------------- */
enum memprof_verdict
{
  MEMPROF_INSTRUMENT,
  MEMPROF_SKIP_LOCAL,         /* a local accessed by name */
  MEMPROF_SKIP_GLOBAL,        /* a global accessed by name */
  MEMPROF_SKIP_STACK_POINTER, /* points-to: only this function's locals */
  MEMPROF_SKIP_CONSTANT,      /* string literal or other constant */
  MEMPROF_SKIP_UNSUPPORTED,   /* no addressable first byte */
  MEMPROF_SKIP_ASM,           /* inline asm memory operand */
  MEMPROF_NUM_VERDICTS
};
/* Prepare per-function data (the set of this function's locals).  */
void memprof_classify_begin (function *fun);
void memprof_classify_end ();
/* REF is a memory reference (lhs or operand of a statement).  */
memprof_verdict memprof_classify_reference (tree ref);
/* PTR is the address operand of a call that accesses *PTR.  */
memprof_verdict memprof_classify_pointer (tree ptr);

/* --- builtins.cc: calls that access memory ----------------------------- */
/* If CALL is an atomic builtin or internal function, or a masked, length
   or gather/scatter vector access, return a tree computing the address of
   its (first) accessed byte, and set *IS_STORE; else null.  The tree may
   need gimplification.  */
tree memprof_call_access_address (gcall *call, bool *is_store);
/* If CALL is memcpy/memmove/memset/mempcpy (or the __builtin_ forms),
   redirect it to the runtime's __memprof_ function at *GSI and return
   true.  */
bool memprof_redirect_memory_builtin (gimple_stmt_iterator *gsi);

/* --- counter_asm.cc: counter updates as x86-64 asm blocks -------------- */
/* True if the target is x86-64 with 64-bit pointers.  */
bool memprof_asm_counters_supported ();
/* The pointer ADDRESS is a constant away from, the constant added to
   *OFFSET.  */
tree memprof_address_base (tree address, HOST_WIDE_INT *offset);
/* The value of T if it is an integer constant, read as an addend of an
   address (modulo 2^64).  */
bool memprof_address_constant (tree t, HOST_WIDE_INT *value);

/* A loop exit's count of a run of MADE accesses STRIDE bytes apart from
   FIRST to LAST (its last byte, FIRST + MADE * STRIDE - 1; loop_counts.cc),
   as one asm goto: when the run lies in one granule, or in two and
   STRIDE is a power of two at most a granule, it adds to their counters
   (BASE the shadow base); otherwise it jumps to CALL_LABEL, where
   __memprof_count_strided counts the run.  Its statement must end its
   basic block, with an edge to CALL_LABEL's.  */
gasm *memprof_asm_run_count (tree base, tree first, tree made, tree last,
			     unsigned HOST_WIDE_INT stride, tree call_label);

/* One granule site of a block: the counter of the granule holding
   VAR + INDEX * SCALE + OFFSET gets STEP added.  */
struct memprof_asm_site
{
  tree var;
  tree index; /* Or null.  */
  int scale;
  HOST_WIDE_INT offset;
  unsigned step;
  /* The other site of the block this one is counted with, after a test
     of whether the two share a granule (counter_asm.cc), or -1.  */
  int partner;
};

/* The counts of one basic block since its last call, emitted as one asm
   statement by flush.  */
class memprof_asm_counter_block
{
public:
  /* Count the access whose first byte is at ADDRESS (a pointer or
     pointer-sized integer expression), made by the statement at GSI;
     BASE is the function's shadow base.  */
  void add (gimple_stmt_iterator *gsi, tree address, tree base);
  /* Emit the pending counts; before every call and at the end of every
     block.  */
  void flush ();
  /* Sites counted together with another after a same-granule test.  */
  unsigned paired () const { return m_paired; }

private:
  memprof_asm_site decompose (gimple_stmt_iterator *gsi, tree address);
  bool has_operand (tree op) const;
  unsigned new_operands (const memprof_asm_site &site) const;
  unsigned operand_number (tree op) const;
  int likely_partner (const memprof_asm_site &site) const;
  void append_address (auto_vec<char> *text, const memprof_asm_site &site,
		       unsigned reg) const;
  void append_add (auto_vec<char> *text, unsigned step, unsigned reg) const;
  void append_pair (auto_vec<char> *text, const memprof_asm_site &first,
		    const memprof_asm_site &second) const;
  void append_template (auto_vec<char> *text,
			const memprof_asm_site &site) const;
  gasm *build ();

  tree m_base = NULL_TREE;
  unsigned m_paired = 0;
  /* Operand numbers of the shadow base and the first register operand
     in the asm being built (after one or two scratch outputs).  */
  unsigned m_base_operand = 1;
  gimple *m_last_access = NULL; /* The statement of the last add.  */
  auto_vec<memprof_asm_site, 8> m_sites;
  auto_vec<tree, 4> m_operands; /* Register operands after the base.  */
};

/* --- loop_counts.cc: a loop's strided accesses, counted at its exits -- */
class memprof_loop_counts
{
public:
  /* Find the loops whose accesses can be counted at their exit.  */
  void begin (function *fun);
  /* Take the count of the access at ADDRESS made by STMT if it can be
     counted at its loop's exit.  */
  bool add (gimple *stmt, tree address);
  /* Whether finish wants the shadow base (the one-granule fast path).  */
  bool needs_shadow_base () const;
  /* Insert the counts on the exit edges, with SHADOW_BASE when
     needs_shadow_base; true if any was.  */
  bool finish (tree shadow_base);

private:
  struct loop_shape
  {
    bool eligible;
    /* It calls functions, rarely: its counts are also made before each
       call, from the iteration of the last count (the access's mark).  */
    bool has_calls;
    edge entry, latch;
    unsigned first_exit, num_exits; /* Its exits in M_EXITS.  */
    /* An induction variable of constant step counting its iterations
       (null: none): what an access at an address the loop does not
       change is counted by.  */
    tree count_iv;
  };
  /* Accesses at BASE + IV * SCALE + OFFSET, IV going from START by STEP
     (BASE null: IV is the pointer and SCALE 1; SCALE 0: at BASE +
     OFFSET in every iteration, IV only counting them).  */
  struct strided_count
  {
    edge exit;
    tree base, iv, start;
    HOST_WIDE_INT scale, offset, step;
    bool before_exit_test;
    /* Non-null: the access runs only while (GUARD_TYPE) IV < GUARD_BOUND
       (<= when GUARD_INCLUSIVE), a prefix of the iterations.  */
    tree guard_bound, guard_type;
    bool guard_inclusive;
    /* In a loop with calls: a local holding the value of IV from which
       the accesses are not yet counted (START on entry), read instead of
       START; the access's statement and loop.  */
    tree mark;
    gimple *access;
    class loop *loop;
  };
  /* A count whose asm goto waits until its computations are in place
     (finish) for its block to end there: the asm (counting a run of one
     or two granules), the label it jumps to for more, and the call.  */
  struct pending_count
  {
    gasm *count;
    tree call_label;
    gcall *call;
  };
  bool build_count (const strided_count &c, tree start, tree shadow_base,
		    gimple_seq *seq, pending_count *p);
  static void branch_to_call (const pending_count &p);
  bool m_active = false;
  auto_vec<loop_shape> m_loops; /* By loop number.  */
  auto_vec<edge> m_exits;
  auto_vec<strided_count> m_counts; /* One per access and exit.  */
  auto_vec<strided_count> m_marked; /* One per access with a mark.  */
};

/* --- statistics.cc ------------------------------------------------------ */
struct memprof_function_stats
{
  unsigned instrumented = 0;
  unsigned skipped[MEMPROF_NUM_VERDICTS] = {};
  unsigned builtins_redirected = 0;
  unsigned at_loop_exits = 0; /* Of the instrumented, counted at exits.  */
  unsigned paired = 0; /* Counted with another after a same-granule test.  */
};
void memprof_report_statistics (function *fun,
				const memprof_function_stats &stats);

/* --- pass.cc ------------------------------------------------------------ */
opt_pass *memprof_make_pass (gcc::context *ctxt);
/* Set while the module constructor is being built, so the pass leaves it
   alone.  */
extern bool memprof_emitting_module_ctor;

/* --- alloc_types.cc: the allocation-site type table -------------------- */
/* The "memprof-types" pass, after "ssa": each allocation site's type
   into the object file's table (memprof/type_table.h).  */
opt_pass *memprof_make_alloc_types_pass (gcc::context *ctxt);

/* --- module_ctor.cc ----------------------------------------------------- */
/* PLUGIN_FINISH_UNIT: the priority-1 constructor and the profile dir.  */
void memprof_finish_unit (void *gcc_data, void *user_data);
/* PLUGIN_START_UNIT when compiling to LTO bytecode: a used static holding
   the address of the link-check function, so that bytecode linked
   without -fheapprof (not instrumented then) fails to link too.  */
void memprof_lto_link_check (void *gcc_data, void *user_data);

#endif /* MEMPROF_PLUGIN_H */
