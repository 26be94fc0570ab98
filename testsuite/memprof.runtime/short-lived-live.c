/* short-lived needs two blocks freed: blocks still live at the end have
   the time until the dump as their lifetime, which a short run makes
   short too (a stdin buffer, merged over a test suite's 684 runs, read
   "short-lived").  keep_live's 5 blocks are never freed: no flag, and
   no CPU migration (freed on no CPU), though they are allocated on CPU 0
   and the exit's dump runs on CPU 1 where there are two.  churn's 5 are
   freed at once: short-lived.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#define keep(p) __asm__ volatile ("" : : "r"(p) : "memory")

void *kept[5];

__attribute__ ((noinline)) static void
keep_live (void)
{
  for (int i = 0; i < 5; i++)
    {
      kept[i] = malloc (32);
      *(volatile char *) kept[i] = 1;
    }
}

__attribute__ ((noinline)) static void
churn (void)
{
  for (int i = 0; i < 5; i++)
    {
      char *p = malloc (16);
      *(volatile char *) p = 1;
      free (p);
    }
}

static void
run_on (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  sched_setaffinity (0, sizeof set, &set);   /* Best effort.  */
}

int
main (void)
{
  run_on (0);
  keep_live ();
  churn ();
  run_on (1);
  return 0;
}

/* { dg-final { memprof-record fn=keep_live alloc_count==5 blocks_at_exit==5 num_migrated_cpu==0 } } */
/* { dg-final { memprof-record fn=churn alloc_count==5 blocks_at_exit==0 } } */
/* { dg-final { memprof-dump-scan {^flags: +short-lived\nat churn } } } */
/* { dg-final { memprof-dump-scan {^cpus: +0 migrated, [0-9]+ same alloc cpu, [0-9]+ same dealloc cpu\nat keep_live } } } */
