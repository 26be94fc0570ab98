/* Debug information does not change the instrumented code: GCC compiles
   the unit with and without -g and fails if the two differ.  The counter
   blocks are placed by the accesses and calls they follow, never by
   debug statements.  */
/* { dg-do compile } */
/* { dg-options "-O2 -fcompare-debug" } */

#define VOLATILE volatile
#include "access-kinds.h"
#include "counter-sequence.h"
