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

/* Code that becomes LTO bytecode here is compiled to machine code by lto1
   later, where this plugin is not loaded: it would silently run
   uninstrumented, so refuse.  */
static bool
lto_compile_ok ()
{
  bool in_lto1 = strcmp (lang_hooks.name, "GNU GIMPLE") == 0;
  if (in_lto1 || !flag_lto)
    return true;
  error ("memprof: %<-flto%> is not supported: code compiled to LTO "
	 "bytecode would run uninstrumented; drop %<-flto%> (or load the "
	 "plugin at the LTO link instead, see the gcc-memprof manual)");
  return false;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!memprof_gcc_version_ok (version))
    return 0; /* One error line; the compilation then fails.  */
  if (!memprof_parse_arguments (info->argc, info->argv) || !lto_compile_ok ())
    return 0;

  register_callback (info->base_name, PLUGIN_INFO, NULL, &memprof_plugin_info);
  /* The whole-program stage generates no code; the ltrans stage does.  */
  if (flag_wpa)
    return 0;

  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) memprof_gc_roots);
  struct register_pass_info pass_info;
  pass_info.pass = memprof_make_pass (g);
  pass_info.reference_pass_name = "optimized";
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &pass_info);
  register_callback (info->base_name, PLUGIN_FINISH_UNIT,
		     memprof_finish_unit, NULL);
  return 0;
}
