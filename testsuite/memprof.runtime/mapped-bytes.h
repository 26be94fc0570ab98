/* The process's mapped and resident bytes, for the tests that set an
   address-space limit above what is mapped or bound what is resident:
   read from /proc/self/statm without malloc (no stdio).  */

#ifndef MEMPROF_TEST_MAPPED_BYTES_H
#define MEMPROF_TEST_MAPPED_BYTES_H

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Field FIELD of /proc/self/statm (0: size, 1: resident), in bytes.  */
static long
statm_bytes (int field)
{
  char buf[128] = { 0 };
  int fd = open ("/proc/self/statm", O_RDONLY);
  if (fd < 0 || read (fd, buf, sizeof buf - 1) <= 0)
    abort ();
  close (fd);
  char *p = buf;
  for (int i = 0; i < field; i++)
    {
      while (*p && *p != ' ')
        p++;
      if (*p)
        p++;
    }
  return atol (p) * sysconf (_SC_PAGESIZE);
}

__attribute__ ((unused)) static long
mapped_bytes (void)
{
  return statm_bytes (0);
}

__attribute__ ((unused)) static long
resident_bytes (void)
{
  return statm_bytes (1);
}

#endif
