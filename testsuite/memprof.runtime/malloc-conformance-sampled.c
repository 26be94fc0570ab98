/* malloc-conformance.c in the sampling mode, at an interval that mixes
   the kinds (sampling_heap.h): glibc's blocks and the runtime's, freed
   by other threads, reallocated from one kind to the other.  */
/* { dg-do run } */
/* { dg-options "-O2 -pthread" } */
/* { dg-set-target-env-var MEMPROF_OPTIONS "sample_interval=4096:sample_seed=7" } */

#include "malloc-conformance.c"

/* { dg-output "malloc conformance: ok" } */
