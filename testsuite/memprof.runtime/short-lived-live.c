/* short-lived needs two blocks freed: blocks still live at the end have
   the time until the dump as their lifetime, which a short run makes
   short too (a stdin buffer, merged over a test suite's 684 runs, read
   "short-lived").  keep_live's 5 blocks are never freed: no flag, and
   no CPU migration (freed on no CPU), though they are allocated on CPU 0
   and the exit's dump runs on CPU 1 where there are two.  churn's 5 are
   freed at once: short-lived.  Nor do two blocks freed among more kept
   to the end (jq's stdin buffers, merged over its test suite: 6 freed,
   161 live at exit, read "short-lived"): mostly_live's 2 freed and 5
   kept are not short-lived; mostly_freed's 5 freed and 2 kept are.  */
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

void *kept_a[5], *kept_b[2];

__attribute__ ((noinline)) static void
mostly_live (void)
{
  for (int i = 0; i < 7; i++)
    {
      char *p = malloc (48);
      *(volatile char *) p = 1;
      if (i < 2)
	free (p);
      else
	kept_a[i - 2] = p;
    }
}

__attribute__ ((noinline)) static void
mostly_freed (void)
{
  for (int i = 0; i < 7; i++)
    {
      char *p = malloc (64);
      *(volatile char *) p = 1;
      if (i < 5)
	free (p);
      else
	kept_b[i - 5] = p;
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
  mostly_live ();
  mostly_freed ();
  run_on (1);
  return 0;
}

/* { dg-final { memprof-record fn=keep_live alloc_count==5 blocks_at_exit==5 num_migrated_cpu==0 } } */
/* { dg-final { memprof-record fn=churn alloc_count==5 blocks_at_exit==0 } } */
/* { dg-final { memprof-record fn=mostly_live alloc_count==7 blocks_at_exit==5 } } */
/* { dg-final { memprof-record fn=mostly_freed alloc_count==7 blocks_at_exit==2 } } */
/* { dg-final { memprof-dump-scan {^flags: +short-lived\nat churn } } } */
/* { dg-final { memprof-dump-scan {^flags: +short-lived\nat mostly_freed } } } */
/* { dg-final { memprof-dump-scan-not {short-lived\nat mostly_live } } } */
/* { dg-final { memprof-dump-scan {^cpus: +0 migrated, [0-9]+ same alloc cpu, [0-9]+ same dealloc cpu\nat keep_live } } } */
