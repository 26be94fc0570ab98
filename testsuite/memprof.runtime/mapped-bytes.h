/* The process's mapped bytes, for the tests that set an address-space
   limit above them: read from /proc/self/statm without malloc (no
   stdio).  */

#ifndef MEMPROF_TEST_MAPPED_BYTES_H
#define MEMPROF_TEST_MAPPED_BYTES_H

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static long
mapped_bytes (void)
{
  char buf[64] = { 0 };
  int fd = open ("/proc/self/statm", O_RDONLY);
  if (fd < 0 || read (fd, buf, sizeof buf - 1) <= 0)
    abort ();
  close (fd);
  return atol (buf) * sysconf (_SC_PAGESIZE);
}

#endif
