/* address-limit.c with no room left at all: the records that find no
   memory are lost, and the dump says how many blocks are missing, in
   one line; the program's exit status is its own.  */
/* { dg-do run } */
/* { dg-options "-O0" } */

#define SLACK 0L
#include "address-limit.c"

/* { dg-output "memprof: 100 blocks are missing from this profile: no memory for their records \\(mmap: Cannot allocate memory\\)" } */
/* { dg-final { memprof-profile-count 1 } } */
