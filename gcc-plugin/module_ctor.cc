/* What every instrumented translation unit adds to the object file:

   - a constructor of priority 1 that calls the link-check function
     (abi.h), which initialises the runtime (so the shadow base is set
     before any other constructor's instrumented code runs; the runtime's
     .preinit_array entry covers executables even earlier).  It is the
     only strong reference to the runtime: linking without the runtime,
     or against one of another ABI version, fails with one undefined
     symbol whose name says what to do.  (GCC has written its .weak
     directives when PLUGIN_FINISH_UNIT runs: a weak reference made here
     would come out strong.)
   - with dir=DIR, a weak __memprof_profile_dir holding DIR, read by the
     runtime when it opens the profile, and a call passing DIR to the
     runtime in the constructor: a program linked with a version script
     that makes its symbols local hides the variable from the runtime
     (Debian's lua5.4 does), and its profile went to the working
     directory instead.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

static void
emit_constructor ()
{
  tree body = NULL_TREE;
  append_to_statement_list
    (build_call_expr (memprof_link_check_function (), 0), &body);
  if (const char *dir = memprof_opts.profile_dir)
    {
      /* if (&__memprof_set_profile_dir) __memprof_set_profile_dir (DIR);
	 a weak reference: linked without the runtime, the link check
	 stays the one undefined symbol.  */
      tree fn = memprof_set_profile_dir_function ();
      tree call = build_call_expr (fn, 1, build_string_literal
						(strlen (dir) + 1, dir));
      tree there = build2 (NE_EXPR, boolean_type_node,
			   build_fold_addr_expr (fn),
			   build_int_cst (build_pointer_type (TREE_TYPE (fn)),
					  0));
      append_to_statement_list (build3 (COND_EXPR, void_type_node, there,
					call, NULL_TREE),
				&body);
      /* GCC has written its .weak directives (the top of the file).  */
      fputs ("\t.weak\t", asm_out_file);
      assemble_name (asm_out_file,
		     IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)));
      putc ('\n', asm_out_file);
    }
  /* The pass runs on the new function at once (the symbol table is
     finished); it has nothing to count, but keep it out all the same.  */
  memprof_emitting_module_ctor = true;
  cgraph_build_static_cdtor ('I', body, 1);
  memprof_emitting_module_ctor = false;
}

/* A read-only artificial variable NAME of TYPE initialised to INIT,
   defined in this unit; the caller finalizes it.  */
static tree
constant_variable (const char *name, tree type, tree init)
{
  tree decl = build_decl (BUILTINS_LOCATION, VAR_DECL,
			  get_identifier (name), type);
  TREE_STATIC (decl) = 1;
  TREE_READONLY (decl) = 1;
  TREE_USED (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  DECL_INITIAL (decl) = init;
  return decl;
}

static void
emit_profile_dir (const char *dir)
{
  size_t len = strlen (dir) + 1;
  tree type = build_array_type (char_type_node, build_index_type (size_int (len - 1)));
  tree init = build_string (len, dir);
  TREE_TYPE (init) = type;
  tree decl = constant_variable (MEMPROF_PROFILE_DIR_SYMBOL, type, init);
  TREE_PUBLIC (decl) = 1;
  /* Every unit of the program carries it; the linker keeps one.  */
  declare_weak (decl);
  varpool_node::finalize_decl (decl);
}

void
memprof_finish_unit (void *, void *)
{
  if (seen_error ())
    return;
  emit_constructor ();
  if (memprof_opts.profile_dir)
    emit_profile_dir (memprof_opts.profile_dir);
}

void
memprof_lto_link_check (void *, void *)
{
  tree fn = memprof_link_check_function ();
  tree decl = constant_variable ("__memprof_lto_link_check",
				 build_pointer_type (TREE_TYPE (fn)),
				 build_fold_addr_expr (fn));
  /* Like __attribute__ ((used)): kept through LTO although unreferenced.  */
  DECL_PRESERVE_P (decl) = 1;
  varpool_node::finalize_decl (decl);
}
