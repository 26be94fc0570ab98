/* rusage-run REPORT PROG ARGS...: run PROG and write "wall_s cpu_s
   max_rss_kib" to the file REPORT.  A small C parent keeps the child's
   peak-RSS figure clean: Linux carries the pre-exec high-water mark of
   the forking process into the child's ru_maxrss, so measuring from a
   big interpreter would report the interpreter's size instead.  Exits
   with the child's status (128 + signal if it was killed).  */

#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: rusage-run REPORT PROG [ARGS...]\n");
      return 2;
    }
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("rusage-run: fork");
      return 2;
    }
  if (pid == 0)
    {
      execvp (argv[2], argv + 2);
      fprintf (stderr, "rusage-run: %s: cannot execute\n", argv[2]);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (wait4 (pid, &status, 0, &ru) < 0)
    {
      perror ("rusage-run: wait4");
      return 2;
    }
  clock_gettime (CLOCK_MONOTONIC, &t1);
  double wall = (double) (t1.tv_sec - t0.tv_sec)
		+ (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
  double cpu = (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
	       + (double) ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  FILE *f = fopen (argv[1], "w");
  if (!f)
    {
      perror (argv[1]);
      return 2;
    }
  fprintf (f, "%.6f %.6f %ld\n", wall, cpu, ru.ru_maxrss);
  fclose (f);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return WEXITSTATUS (status);
}
