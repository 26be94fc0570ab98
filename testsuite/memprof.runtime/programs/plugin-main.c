/* plugin-main LIB ROUNDS [LIB ROUNDS]...: for each library in turn,
   dlopen it, run its plugin_work (ROUNDS), and dlclose it again.  Says
   when a library was mapped where the previous one had been.  Built
   with -DLINKED, it calls the plugin_work it was linked with instead
   (ROUNDS from argv[2]).  A LIB written +LIB stays open; with
   PLUGIN_MAIN_CHDIR set, the program then changes to that directory
   before it ends.  */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef LINKED
int plugin_work (int rounds);
#endif

int
main (int argc, char **argv)
{
  long sum = 0;
#ifdef LINKED
  sum = plugin_work (argc > 2 ? atoi (argv[2]) : 5);
#else
  void *previous = NULL;
  for (int i = 1; i + 1 < argc; i += 2)
    {
      const char *lib = argv[i] + (argv[i][0] == '+');
      void *h = dlopen (lib, RTLD_NOW | RTLD_LOCAL);
      if (!h)
        {
          fprintf (stderr, "plugin-main: %s\n", dlerror ());
          return 2;
        }
      int (*work) (int) = (int (*) (int)) dlsym (h, "plugin_work");
      Dl_info info;
      if (!work || !dladdr ((void *) work, &info))
        return 3;
      if (info.dli_fbase == previous)
        printf ("plugin-main: %s mapped at the same address\n", argv[i]);
      previous = info.dli_fbase;
      sum += work (atoi (argv[i + 1]));
      if (lib == argv[i] && dlclose (h) != 0)
        return 4;
    }
  const char *dir = getenv ("PLUGIN_MAIN_CHDIR");
  if (dir && chdir (dir) != 0)
    return 5;
#endif
  printf ("plugin-main: sum %ld\n", sum);
  return 0;
}
