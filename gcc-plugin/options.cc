/* The plugin's arguments: -fplugin-arg-memprof-KEY[=VALUE].  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

memprof_options memprof_opts;

const char memprof_plugin_help[] =
  "Instrument heap accesses for the gcc-memprof heap profiler.\n"
  "  -fplugin-arg-memprof-dir=DIR    write profiles into DIR at run time\n"
  "  -fplugin-arg-memprof-stack      also count accesses to locals\n"
  "  -fplugin-arg-memprof-globals    also count globals accessed by name\n"
  "  -fplugin-arg-memprof-callbacks  call __memprof_load/__memprof_store\n"
  "                                  instead of inline counter updates\n"
  "  -fplugin-arg-memprof-no-builtins  leave memcpy/memmove/memset alone\n"
  "  -fplugin-arg-memprof-counters=asm|gimple  inline counter updates as\n"
  "                                  x86-64 asm blocks (the default there)\n"
  "                                  or as GIMPLE (portable, slower to\n"
  "                                  compile)\n"
  "  -fplugin-arg-memprof-histogram  count 8-byte slots (4-byte saturating\n"
  "                                  counters) instead of 64-byte granules\n"
  "  -fplugin-arg-memprof-stats      report per function what was\n"
  "                                  instrumented and what was skipped\n"
  "  -fplugin-arg-memprof-type-stats report each allocation site's type\n"
  "Or, instead of instrumenting, hint allocations from a profile:\n"
  "  -fplugin-arg-memprof-use=FILE   read the indexed profile FILE\n"
  "  -fplugin-arg-memprof-use-allocator=tcmalloc|jemalloc|none\n"
  "                                  the hints to emit (tcmalloc)\n"
  "  -fplugin-arg-memprof-use-notes  a note per classified allocation\n"
  "  -fplugin-arg-memprof-use-stats  a summary per compilation\n"
  "  -fplugin-arg-memprof-use-mismatch  warn where the profile is stale\n"
  "  -fplugin-arg-memprof-use-cold-lifetime=PERCENT  (50)\n"
  "  -fplugin-arg-memprof-use-cold-min-lifetime=MS   (10)\n"
  "  -fplugin-arg-memprof-use-cold-accesses=PER-BYTE (2)\n"
  "  -fplugin-arg-memprof-use-hot-density=PER-BYTE-PER-SECOND (1000)\n";

/* A threshold: a non-negative number.  */
static bool
set_number (const plugin_argument &arg, double *value)
{
  char *end = nullptr;
  double v = arg.value ? strtod (arg.value, &end) : -1;
  if (!arg.value || end == arg.value || *end || !(v >= 0) || v > 1e15)
    {
      error ("memprof: argument %<%s%> takes a non-negative number (got "
	     "%<%s%>)", arg.key, arg.value ? arg.value : "");
      return false;
    }
  *value = v;
  return true;
}

/* A switch takes no value; say so instead of ignoring one.  */
static bool
set_switch (const plugin_argument &arg, bool *flag)
{
  if (arg.value)
    {
      error ("memprof: argument %<%s%> takes no value (got %<%s%>)",
	     arg.key, arg.value);
      return false;
    }
  *flag = true;
  return true;
}

bool
memprof_parse_arguments (int argc, struct plugin_argument *argv)
{
  bool ok = true;
  for (int i = 0; i < argc; i++)
    {
      const plugin_argument &arg = argv[i];
      if (strcmp (arg.key, "dir") == 0)
	{
	  if (!arg.value || !*arg.value)
	    {
	      error ("memprof: argument %<dir%> needs a directory "
		     "(%<-fplugin-arg-memprof-dir=DIR%>)");
	      ok = false;
	    }
	  else
	    memprof_opts.profile_dir = arg.value;
	}
      else if (strcmp (arg.key, "use") == 0)
	{
	  if (!arg.value || !*arg.value)
	    {
	      error ("memprof: argument %<use%> needs a profile "
		     "(%<-fplugin-arg-memprof-use=FILE.memprofdata%>)");
	      ok = false;
	    }
	  else
	    memprof_opts.use_profile = arg.value;
	}
      else if (strcmp (arg.key, "use-notes") == 0)
	ok &= set_switch (arg, &memprof_opts.use_notes);
      else if (strcmp (arg.key, "use-stats") == 0)
	ok &= set_switch (arg, &memprof_opts.use_stats);
      else if (strcmp (arg.key, "use-mismatch") == 0)
	ok &= set_switch (arg, &memprof_opts.use_mismatch);
      else if (strcmp (arg.key, "use-allocator") == 0)
	{
	  const char *v = arg.value ? arg.value : "";
	  if (strcmp (v, "tcmalloc") == 0)
	    memprof_opts.use_allocator = memprof_options::HINT_TCMALLOC;
	  else if (strcmp (v, "jemalloc") == 0)
	    memprof_opts.use_allocator = memprof_options::HINT_JEMALLOC;
	  else if (strcmp (v, "none") == 0)
	    memprof_opts.use_allocator = memprof_options::HINT_NONE;
	  else
	    {
	      error ("memprof: argument %<use-allocator%> takes %<tcmalloc%>, "
		     "%<jemalloc%> or %<none%> (got %<%s%>)", v);
	      ok = false;
	    }
	}
      else if (strcmp (arg.key, "use-cold-lifetime") == 0)
	ok &= set_number (arg, &memprof_opts.cold_lifetime_percent);
      else if (strcmp (arg.key, "use-cold-min-lifetime") == 0)
	ok &= set_number (arg, &memprof_opts.cold_min_lifetime_ms);
      else if (strcmp (arg.key, "use-cold-accesses") == 0)
	ok &= set_number (arg, &memprof_opts.cold_accesses);
      else if (strcmp (arg.key, "use-hot-density") == 0)
	ok &= set_number (arg, &memprof_opts.hot_density);
      else if (strcmp (arg.key, "driver") == 0)
	{
	  /* memprof.specs marks the -fheapprof route with it, for its
	     link-time specs; nothing to do here.  */
	  bool unused;
	  ok &= set_switch (arg, &unused);
	}
      else if (strcmp (arg.key, "stack") == 0)
	ok &= set_switch (arg, &memprof_opts.instrument_stack);
      else if (strcmp (arg.key, "globals") == 0)
	ok &= set_switch (arg, &memprof_opts.instrument_globals);
      else if (strcmp (arg.key, "callbacks") == 0)
	ok &= set_switch (arg, &memprof_opts.use_callbacks);
      else if (strcmp (arg.key, "histogram") == 0)
	ok &= set_switch (arg, &memprof_opts.histogram);
      else if (strcmp (arg.key, "stats") == 0)
	ok &= set_switch (arg, &memprof_opts.statistics);
      else if (strcmp (arg.key, "type-stats") == 0)
	ok &= set_switch (arg, &memprof_opts.type_statistics);
      else if (strcmp (arg.key, "no-builtins") == 0)
	{
	  bool off = false;
	  ok &= set_switch (arg, &off);
	  memprof_opts.redirect_builtins = !off;
	}
      else if (strcmp (arg.key, "counters") == 0)
	{
	  if (arg.value && strcmp (arg.value, "gimple") == 0)
	    memprof_opts.gimple_counters = true;
	  else if (arg.value && strcmp (arg.value, "asm") == 0)
	    {
	      memprof_opts.gimple_counters = false;
	      if (!memprof_asm_counters_supported ())
		{
		  error ("memprof: %<counters=asm%> needs an x86-64 target "
			 "with 64-bit pointers; use %<counters=gimple%>");
		  ok = false;
		}
	    }
	  else
	    {
	      error ("memprof: argument %<counters%> takes %<asm%> or "
		     "%<gimple%> (got %<%s%>)", arg.value ? arg.value : "");
	      ok = false;
	    }
	}
      else
	{
	  error ("memprof: unknown argument %<%s%>; known: %<dir=DIR%>, "
		 "stack, globals, callbacks, no-builtins, "
		 "%<counters=asm|gimple%>, histogram, stats, type-stats, "
		 "%<use=FILE%>, %<use-allocator=tcmalloc|jemalloc|none%>, "
		 "use-notes, use-stats, use-mismatch, "
		 "%<use-cold-lifetime=PERCENT%>, "
		 "%<use-cold-min-lifetime=MS%>, %<use-cold-accesses=PER-BYTE%>, "
		 "%<use-hot-density=PER-BYTE-PER-SECOND%>",
		 arg.key);
	  ok = false;
	}
    }
  return ok;
}

int
memprof_counted_bytes_log2 ()
{
  return exact_log2 (memprof_opts.histogram ? MEMPROF_HISTOGRAM_SLOT_SIZE
					     : MEMPROF_GRANULE_SIZE);
}

int
memprof_counter_bytes ()
{
  return memprof_opts.histogram ? MEMPROF_HISTOGRAM_COUNTER_SIZE
				: MEMPROF_COUNTER_SIZE;
}
