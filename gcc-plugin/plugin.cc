/* memprof.so: entry point of the GCC plugin.  Checks the GCC it runs in,
   reads its arguments and registers the pass, the module constructor
   and the GC roots.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

int plugin_is_GPL_compatible;

static struct plugin_info memprof_plugin_info = {
  MEMPROF_PACKAGE_VERSION,
  memprof_plugin_help,
};

static bool
in_lto1 ()
{
  return strcmp (lang_hooks.name, "GNU GIMPLE") == 0;
}

/* Where the code of this compilation is generated decides what the plugin
   does (LTO and the plugin: see the manual):
   - cc1 without -flto, or with -ffat-lto-objects for the machine code
     part, and lto1 in its ltrans stage: instrument;
   - lto1's whole-program (WPA) stage generates no code: nothing;
   - cc1 writing slim LTO bytecode: no code either; the code is generated,
     and instrumented, by lto1 at the link if the link loads the plugin
     (-fheapprof on the link line).  */
static bool
generates_code ()
{
  if (in_lto1 ())
    return !flag_wpa;
  return !flag_lto || flag_fat_lto_objects;
}

/* Run PASS after the first instance of the pass called REFERENCE.  */
static void
insert_pass_after (const char *plugin_name, opt_pass *pass,
		   const char *reference)
{
  struct register_pass_info pass_info;
  pass_info.pass = pass;
  pass_info.reference_pass_name = reference;
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &pass_info);
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!memprof_gcc_version_ok (version))
    return 0; /* One error line; the compilation then fails.  */
  if (!memprof_parse_arguments (info->argc, info->argv))
    return 0;
  if (POINTER_SIZE != 64)
    {
      error ("memprof: needs 64-bit code: the shadow mapping of gcc-memprof "
	     "is 64-bit (drop %<-m32%>/%<-mx32%>)");
      return 0;
    }

  register_callback (info->base_name, PLUGIN_INFO, NULL, &memprof_plugin_info);
  /* -fheapprof-use: hints from a profile instead of instrumentation;
     nothing of the profiling side (no runtime, no constructor).  */
  if (memprof_opts.use_profile)
    {
      if (memprof_opts.profile_dir)
	{
	  error ("memprof: %<-fheapprof%> and %<-fheapprof-use%> cannot be "
		 "combined: the profile is read by an uninstrumented build");
	  return 0;
	}
      if (generates_code ())
	memprof_use_init (info->base_name);
      return 0;
    }
  /* Bytecode written here is instrumented only if its link loads the
     plugin: make a link without it fail.  */
  if (flag_lto && !in_lto1 ())
    register_callback (info->base_name, PLUGIN_START_UNIT,
		       memprof_lto_link_check, NULL);
  /* The type table is made where the front end's conversions are still
     visible (memprof-types after "ssa"), so also when writing LTO
     bytecode, which carries it to the link; never in lto1.  */
  if (!in_lto1 ())
    insert_pass_after (info->base_name, memprof_make_alloc_types_pass (g),
		       "ssa");
  if (!generates_code ())
    return 0;

  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) memprof_gc_roots);
  insert_pass_after (info->base_name, memprof_make_pass (g), "optimized");
  register_callback (info->base_name, PLUGIN_FINISH_UNIT,
		     memprof_finish_unit, NULL);
  return 0;
}
