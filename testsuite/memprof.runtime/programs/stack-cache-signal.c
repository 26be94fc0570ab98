/* Allocations of a deep chain (13 levels, each allocating) interrupted
   inside the runtime's stack capture by a signal handler that allocates
   too.  The handler allocates only when the interrupted instruction lies
   in one of the ranges of libmemprof.so given as arguments (offsets from
   its load address: the stack capture's functions, which hold no lock
   and are not the allocator, so allocating there is safe); elsewhere it
   does nothing.  Usage: PROG ROUNDS MIN_HITS START-END...  (hex).  Runs
   at least ROUNDS rounds, and on until MIN_HITS allocations were made
   mid-capture (at most 100 times ROUNDS), then prints
   "rounds R mid-capture H".  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

static uintptr_t base, range_start[8], range_end[8];
static int ranges;
static volatile sig_atomic_t hits;

__attribute__ ((noinline)) static void
handler_alloc (void)
{
  char *p = malloc (777);
  keep (p);
  free (p);
}

static void
on_alarm (int sig, siginfo_t *info, void *context)
{
  ucontext_t *uc = context;
  uintptr_t off = (uintptr_t) uc->uc_mcontext.gregs[REG_RIP] - base;
  (void) sig;
  (void) info;
  for (int i = 0; i < ranges; i++)
    if (off >= range_start[i] && off < range_end[i])
      {
        int saved = errno;
        handler_alloc ();
        hits++;
        errno = saved;
        return;
      }
}

#include "stack-chain.h"

int
main (int argc, char **argv)
{
  if (argc < 4)
    return 2;
  long rounds = atol (argv[1]);
  long min_hits = atol (argv[2]);
  for (int i = 3; i < argc && ranges < 8; i++, ranges++)
    if (sscanf (argv[i], "%lx-%lx", &range_start[ranges],
                &range_end[ranges]) != 2)
      return 2;
  Dl_info dl;
  if (!dladdr ((void *) malloc, &dl) || !strstr (dl.dli_fname, "libmemprof"))
    return 3;
  base = (uintptr_t) dl.dli_fbase;

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_alarm;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval every = { { 0, 100 }, { 0, 100 } };
  setitimer (ITIMER_REAL, &every, NULL);

  long r = 0;
  while (r < rounds || (hits < min_hits && r < 100 * rounds))
    {
      level_12 ();
      r++;
    }

  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  char line[80];
  int len = snprintf (line, sizeof line, "rounds %ld mid-capture %ld\n", r,
                      (long) hits);
  return write (1, line, len) == len ? 0 : 1;
}
