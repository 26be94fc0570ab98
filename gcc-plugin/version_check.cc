/* Refuse, with one clear line, to run inside a GCC other than the one the
   plugin was built for: GCC's internal data structures change between
   releases and configurations, and a mismatch would otherwise end in an
   internal compiler error.  */

#include "gcc-headers.h"
#include "memprof-plugin.h"

/* The test suite builds a copy of this file that pretends to have been
   built for another GCC, to exercise the error.  */
#ifdef MEMPROF_PRETEND_BUILT_FOR
#define MEMPROF_BUILT_FOR_BASEVER MEMPROF_PRETEND_BUILT_FOR
#else
#define MEMPROF_BUILT_FOR_BASEVER basever
#endif

static bool
same (const char *a, const char *b)
{
  return strcmp (a ? a : "", b ? b : "") == 0;
}

bool
memprof_gcc_version_ok (const struct plugin_gcc_version *running)
{
  const char *built_for = MEMPROF_BUILT_FOR_BASEVER;
  const char *what = nullptr;
  if (!same (running->basever, built_for))
    what = "version";
  else if (!same (running->datestamp, gcc_version.datestamp))
    what = "date stamp";
  else if (!same (running->devphase, gcc_version.devphase))
    what = "development phase";
  else if (!same (running->revision, gcc_version.revision))
    what = "revision";
  else if (!same (running->configuration_arguments,
		  gcc_version.configuration_arguments))
    what = "configuration";
  if (!what)
    return true;
  error ("memprof: plugin built for GCC %s (%s) cannot run in GCC %s (%s): "
	 "the %s differs; rebuild gcc-memprof with this compiler",
	 built_for, gcc_version.datestamp, running->basever,
	 running->datestamp, what);
  return false;
}
