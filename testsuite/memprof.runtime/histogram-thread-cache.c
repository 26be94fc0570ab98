/* Histogram mode's per-thread caches (histogram_table.h) lose and
   double-count nothing: every thread adds its blocks' slots into its own
   cache, which reaches the shared table on eviction, at the thread's
   exit and at every dump.  Twelve contexts (one busy one, ten of 8 to
   458 slots, one past 512 slots): more than a cache's 8 ways, so
   threads evict too.  The threads:
   - 2 that churn, then stay parked: their counts are dropped by a
     reset (a cache the reset left alone would add them again);
   - 2 that churn and exit before any dump;
   - 2 that churn, stay parked alive through a dump and a fork (the
     child must not write the parent's cached counts), then churn again;
   - 2 that churn and stay parked alive until the process exits, so
     only the exit dump can collect their caches.
   Six threads' churns of ROUNDS rounds count: 8 * ROUNDS rounds in all,
   every slot's total known; the profiles (7 dumps and the child's)
   merged must hold exactly those.  No dump runs during a churn: a dump
   reports a live block with the counts it has so far, and the writes
   after that are in no profile.
   The handshake under way: 2 threads free 40,000 blocks of another
   context (slot 0 written once each) while 5 dumps run.  A block that a
   dump finds live before its write is reported without it (old runtimes
   too lost up to 0.5% so), so the bound below is loose; but no block's
   slots may count twice, nor a cache's.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread -fheapprof-histogram -I%TOP_SRCDIR%/include" } */

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <memprof/memprof_interface.h>

#define ROUNDS 300

/* site_one: 8 slots, 3 blocks a round, slot 0 written once, slot 3
   twice, slot 7 three times.  */
__attribute__ ((noinline, noclone)) volatile long *
site_one (void)
{
  return malloc (64);
}

/* site_K: 8 + 50 K slots, one block a round, slot 0 written once and
   its last slot K + 1 times.  */
#define SITE(K)                                                       \
  __attribute__ ((noinline, noclone)) volatile long *site_##K (void)  \
  {                                                                   \
    return malloc (8 * (8 + 50 * K));                                 \
  }
SITE (0) SITE (1) SITE (2) SITE (3) SITE (4)
SITE (5) SITE (6) SITE (7) SITE (8) SITE (9)

static volatile long *(*const sites[10]) (void)
  = { site_0, site_1, site_2, site_3, site_4,
      site_5, site_6, site_7, site_8, site_9 };

/* site_big: 625 slots, past the histogram's 512: slot 0 written once,
   slot 511 twice, slot 600 five times (in its access counts, not in its
   histogram).  */
__attribute__ ((noinline, noclone)) volatile long *
site_big (void)
{
  return malloc (5000);
}

__attribute__ ((noinline, noclone)) void
churn (void)
{
  for (int r = 0; r < ROUNDS; r++)
    {
      volatile long *one[3];
      for (int i = 0; i < 3; i++)
	{
	  one[i] = site_one ();
	  one[i][0] = r;
	  for (int k = 0; k < 2; k++)
	    one[i][3] = k;
	  for (int k = 0; k < 3; k++)
	    one[i][7] = k;
	}
      for (int i = 0; i < 3; i++)
	free ((void *) one[i]);
      for (int s = 0; s < 10; s++)
	{
	  volatile long *p = sites[s] ();
	  p[0] = r;
	  for (int k = 0; k <= s; k++)
	    p[8 + 50 * s - 1] = k;
	  free ((void *) p);
	}
      volatile long *b = site_big ();
      b[0] = r;
      b[511] = 1;
      b[511] = 2;
      for (int k = 0; k < 5; k++)
	b[600] = k;
      free ((void *) b);
    }
}

enum role { DROPPED, EXITING, ACROSS_DUMP, TO_THE_END };

static int done[4], go, raced;

static void
bump (int *counter)
{
  __atomic_add_fetch (counter, 1, __ATOMIC_SEQ_CST);
}

static void
wait_for (int *counter, int value)
{
  while (__atomic_load_n (counter, __ATOMIC_SEQ_CST) < value)
    sched_yield ();
}

static void
park (void)
{
  for (;;)
    pause ();
}

#define RACE_BLOCKS 20000

__attribute__ ((noinline, noclone)) volatile long *
site_race (void)
{
  return malloc (24);
}

__attribute__ ((noinline, noclone)) void *
racer (void *arg)
{
  (void) arg;
  for (int i = 0; i < RACE_BLOCKS; i++)
    {
      volatile long *p = site_race ();
      p[0] = i;
      free ((void *) p);
      bump (&raced);
    }
  return NULL;
}

__attribute__ ((noinline, noclone)) void *
worker (void *arg)
{
  enum role role = (enum role) (long) arg;
  /* One call of churn, so that every thread's blocks have one stack.  */
  for (int pass = 0; pass < (role == ACROSS_DUMP ? 2 : 1); pass++)
    {
      if (pass == 1)
	wait_for (&go, 1);
      churn ();
      if (pass == 0)
	bump (&done[role]);
    }
  if (role == DROPPED || role == TO_THE_END)
    park ();
  return NULL;
}

static void
start (pthread_t *t, void *(*fn) (void *), enum role role)
{
  for (int i = 0; i < 2; i++)
    if (pthread_create (&t[i], NULL, fn, (void *) (long) role))
      exit (1);
}

static void
join (pthread_t *t)
{
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
}

int
main (void)
{
  pthread_t dropped[2], exiting[2], across[2], racing[2], to_the_end[2];
  start (dropped, worker, DROPPED);
  wait_for (&done[DROPPED], 2);
  __memprof_profile_reset ();

  start (exiting, worker, EXITING);
  join (exiting);

  start (across, worker, ACROSS_DUMP);
  wait_for (&done[ACROSS_DUMP], 2);
  if (__memprof_profile_dump ())
    return 2;
  pid_t pid = fork ();
  if (pid < 0)
    return 3;
  if (pid == 0)
    exit (0);
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return 4;

  __atomic_store_n (&go, 1, __ATOMIC_SEQ_CST);
  join (across);

  start (racing, racer, 0);
  for (int i = 1; i <= 5; i++)
    {
      wait_for (&raced, i * 2 * RACE_BLOCKS / 6);
      if (__memprof_profile_dump ())
	return 5;
    }
  join (racing);

  start (to_the_end, worker, TO_THE_END);
  wait_for (&done[TO_THE_END], 2);
  return 0;
}

/* 8 * ROUNDS = 2,400 rounds.  */
/* { dg-final { memprof-profile-count 8 } } */
/* { dg-final { memprof-record fn=site_one<churn<worker alloc_count==7200 histogram_slots==8 histogram.0==7200 histogram.1==0 histogram.3==14400 histogram.6==0 histogram.7==21600 total_access_count==43200 } } */
/* { dg-final { memprof-record fn=site_0<churn<worker alloc_count==2400 histogram_slots==8 histogram.0==2400 histogram.1==0 histogram.7==2400 total_access_count==4800 } } */
/* { dg-final { memprof-record fn=site_1<churn<worker alloc_count==2400 histogram_slots==58 histogram.0==2400 histogram.1==0 histogram.57==4800 total_access_count==7200 } } */
/* { dg-final { memprof-record fn=site_2<churn<worker alloc_count==2400 histogram_slots==108 histogram.0==2400 histogram.107==7200 total_access_count==9600 } } */
/* { dg-final { memprof-record fn=site_3<churn<worker alloc_count==2400 histogram_slots==158 histogram.0==2400 histogram.157==9600 total_access_count==12000 } } */
/* { dg-final { memprof-record fn=site_4<churn<worker alloc_count==2400 histogram_slots==208 histogram.0==2400 histogram.207==12000 total_access_count==14400 } } */
/* { dg-final { memprof-record fn=site_5<churn<worker alloc_count==2400 histogram_slots==258 histogram.0==2400 histogram.257==14400 total_access_count==16800 } } */
/* { dg-final { memprof-record fn=site_6<churn<worker alloc_count==2400 histogram_slots==308 histogram.0==2400 histogram.307==16800 total_access_count==19200 } } */
/* { dg-final { memprof-record fn=site_7<churn<worker alloc_count==2400 histogram_slots==358 histogram.0==2400 histogram.357==19200 total_access_count==21600 } } */
/* { dg-final { memprof-record fn=site_8<churn<worker alloc_count==2400 histogram_slots==408 histogram.0==2400 histogram.407==21600 total_access_count==24000 } } */
/* { dg-final { memprof-record fn=site_9<churn<worker alloc_count==2400 histogram_slots==458 histogram.0==2400 histogram.1==0 histogram.456==0 histogram.457==24000 total_access_count==26400 } } */
/* { dg-final { memprof-record fn=site_big<churn<worker alloc_count==2400 histogram_slots==512 histogram.0==2400 histogram.1==0 histogram.510==0 histogram.511==4800 total_access_count==19200 } } */
/* { dg-final { memprof-record fn=site_race<racer alloc_count==40000 histogram_slots==3 histogram.0<=40000 histogram.0>=39000 histogram.1==0 } } */
