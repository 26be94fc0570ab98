/* The runtime's size classes as tests see them (libmemprof/size_classes.h
   is the one definition): block sizes, a 32-byte header included, in
   32-byte steps from 64 up to 1 KiB, then four classes per power of two
   up to 128 KiB.  */

#ifndef MEMPROF_TEST_SIZE_CLASSES_H
#define MEMPROF_TEST_SIZE_CLASSES_H

#include <stddef.h>

#define FIRST_CLASS_BLOCK 64
#define LAST_CLASS_BLOCK 131072

/* The block size of the class after the one of BLOCK bytes.  */
static inline size_t
next_class_block (size_t block)
{
  if (block < 1024)
    return block + 32;
  size_t pow = 1024;
  while (pow * 2 <= block)
    pow *= 2;
  return block + pow / 4;
}

#endif
