/* The program endings.exp runs: ten blocks from before_end (freed) and
   one from live_site (still live), then the ending named by argv[1].
   (One block of after_event more in thread-overflow.)  A mode
   "small-altstack-MODE" is MODE with a small alternate signal stack of
   the program's.  "term-churn N" frees blocks without end while a
   thread sends the main thread SIGTERM after N microseconds: the signal
   often lands while the runtime records a freed block.  */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile-dir.h"

__attribute__ ((noinline)) void *
before_end (void)
{
  void *p = malloc (100);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

__attribute__ ((noinline)) void *
live_site (void)
{
  void *p = malloc (300);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

__attribute__ ((noinline)) void *
after_event (void)
{
  void *p = malloc (50);
  __asm__ volatile ("" : : "r"(p) : "memory");
  return p;
}

static void
allocate_after (int n)
{
  for (int i = 0; i < n; i++)
    free (after_event ());
}

/* Unbounded recursion that no optimization turns into a loop: the
   frame is used after the call.  */
__attribute__ ((noipa)) static void
touch (volatile char *frame)
{
  frame[0]++;
}

__attribute__ ((noipa)) static int
overflow (int depth)
{
  volatile char frame[1024];
  touch (frame);
  int r = overflow (depth + 1);
  touch (frame);
  return r + depth;
}

static void *
overflow_thread (void *arg)
{
  (void) arg;
  free (after_event ());   /* A thread that has allocated.  */
  return (void *) (long) overflow (0);
}

static volatile sig_atomic_t handled;

static void
on_term (int sig)
{
  handled = sig;
}

static void
on_segv (int sig)
{
  static const char msg[] = "program handler ran\n";
  write (2, msg, sizeof msg - 1);
  signal (sig, SIG_DFL);
  raise (sig);
}

/* A 16 KiB alternate signal stack, as libsigsegv makes (gawk), with a
   guard page below it: a handler needing more faults at once instead of
   writing over whatever lies below.  */
static int
small_alt_stack (void)
{
  size_t page = 4096, size = 16384;
  char *m = mmap (0, page + size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || mprotect (m, page, PROT_NONE))
    return -1;
  stack_t ss = { .ss_sp = m + page, .ss_flags = 0, .ss_size = size };
  return sigaltstack (&ss, 0);
}

static pid_t main_tid;
static long churn_delay_us;

static void *
send_term (void *unused)
{
  (void) unused;
  usleep (churn_delay_us);
  syscall (SYS_tgkill, getpid (), main_tid, SIGTERM);
  return 0;
}

__attribute__ ((noinline)) static void
churn (void)
{
  static void *volatile sink;
  for (;;)
    {
      void *p = malloc (48);
      sink = p;
      free (p);
    }
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp (mode, "after-exec"))
    {
      allocate_after (7);
      return 0;
    }
  for (int i = 0; i < 10; i++)
    free (before_end ());
  void *live = live_site ();
  __asm__ volatile ("" : : "r"(live) : "memory");

  if (!strncmp (mode, "small-altstack-", 15))
    {
      if (small_alt_stack ())
        return 25;
      mode += 15;
    }
  if (!strcmp (mode, "abort"))
    abort ();
  if (!strcmp (mode, "segv"))
    raise (SIGSEGV);
  if (!strcmp (mode, "fault"))
    *(volatile int *) (argc - 2 + (char *) 0) = 1;   /* argc is 2.  */
  if (!strcmp (mode, "term"))
    kill (getpid (), SIGTERM);
  if (!strcmp (mode, "term-churn") && argc > 2)
    {
      pthread_t t;
      main_tid = (pid_t) syscall (SYS_gettid);
      churn_delay_us = atol (argv[2]);
      if (pthread_create (&t, 0, send_term, 0))
        return 26;
      churn ();
    }
  if (!strcmp (mode, "pipe"))
    {
      /* Writing into a pipe nobody reads, as into "| head" once head
         has gone.  */
      int fd[2];
      if (pipe (fd))
        return 29;
      close (fd[0]);
      write (fd[1], "x", 1);
    }
  if (!strcmp (mode, "overflow"))
    return overflow (0);
  if (!strcmp (mode, "thread-overflow"))
    {
      pthread_t t;
      void *r;
      if (pthread_create (&t, 0, overflow_thread, 0) || pthread_join (t, &r))
        return 26;
      return 9;
    }
  if (!strcmp (mode, "term-handler"))
    {
      /* The program sees the default action it left, then its own.  */
      struct sigaction sa, old;
      if (sigaction (SIGTERM, 0, &old) || old.sa_handler != SIG_DFL)
        return 20;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_term;
      if (sigaction (SIGTERM, &sa, &old) || old.sa_handler != SIG_DFL)
        return 21;
      if (sigaction (SIGTERM, 0, &old) || old.sa_handler != on_term)
        return 22;
      kill (getpid (), SIGTERM);
      if (handled != SIGTERM)
        return 23;
      allocate_after (3);
      return 5;
    }
  if (!strcmp (mode, "segv-handler"))
    {
      if (signal (SIGSEGV, on_segv) != SIG_DFL)
        return 24;
      raise (SIGSEGV);
    }
  if (!strcmp (mode, "_exit"))
    _exit (3);
  if (!strcmp (mode, "fork-_exit"))
    {
      /* A forked child ending by _exit, as redis's BGSAVE children do.  */
      pid_t pid = fork ();
      if (pid == 0)
        {
          allocate_after (5);
          _exit (0);
        }
      int st;
      if (pid < 0 || waitpid (pid, &st, 0) != pid || st != 0)
        return 30;
      return 0;
    }
  if (!strcmp (mode, "fork-exec-fails"))
    {
      /* A forked child whose exec fails and which _exits at once, as a
         shell's or Tcl's exec does: it allocated nothing.  */
      pid_t pid = fork ();
      if (pid == 0)
        {
          execl ("/nonexistent/program", "program", (char *) 0);
          _exit (127);
        }
      int st;
      if (pid < 0 || waitpid (pid, &st, 0) != pid || !WIFEXITED (st)
          || WEXITSTATUS (st) != 127)
        return 33;
      return 0;
    }
  if (!strcmp (mode, "vfork-_exit-abort"))
    {
      /* A vfork child's _exit runs on the parent's memory: it writes
         nothing and leaves the runtime's state alone, so the parent's
         abort still writes the profile.  */
      pid_t pid = vfork ();
      if (pid == 0)
        _exit (0);
      int st;
      if (pid < 0 || waitpid (pid, &st, 0) != pid || st != 0)
        return 32;
      abort ();
    }
  if (!strcmp (mode, "exit-then-pipe"))
    {
      /* stdout into a pipe nobody reads, fully buffered: exit's flush,
         after the exit dump, raises SIGPIPE.  */
      int fd[2];
      if (pipe (fd) || dup2 (fd[1], 1) < 0)
        return 31;
      close (fd[0]);
      setvbuf (stdout, 0, _IOFBF, 4096);
      printf ("x\n");
      return 0;
    }
  if (!strcmp (mode, "exec"))
    execl (argv[0], argv[0], "after-exec", (char *) 0);
  if (!strcmp (mode, "vfork"))
    {
      /* The child runs on the parent's memory until its exec: it must not
         take the parent's records into a profile of its own.  */
      pid_t pid = vfork ();
      if (pid == 0)
        {
          execl ("/bin/true", "true", (char *) 0);
          _exit (127);
        }
      int st;
      if (pid < 0 || waitpid (pid, &st, 0) != pid || st != 0)
        return 27;
      return 0;
    }
  if (!strcmp (mode, "system"))
    return system ("exit 0") != 0 ? 28 : 0;
  if (!strcmp (mode, "exec-fails"))
    {
      execlp ("/nonexistent/program", "program", (char *) 0);
      allocate_after (4);
      return 0;
    }
  if (!strcmp (mode, "argv"))
    {
      /* A process title: the strings themselves are overwritten.  */
      for (int i = 0; i < argc; i++)
        memset (argv[i], 'X', strlen (argv[i]));
      return 0;
    }
  if (!strcmp (mode, "dump-signal"))
    {
      raise (SIGUSR2);
      for (int wait = 0; profiles_written () < 1; wait++)
        {
          if (wait == 20000)
            return 25;   /* 20 s without the profile.  */
          usleep (1000);
        }
      allocate_after (7);
      return 0;
    }
  return 9;   /* Not reached for a known mode.  */
}
