/* The interceptors' counts in blocks of both kinds (programs/
   interceptor-ranges.h says which and how many).  */
/* { dg-do run } */
/* { dg-options "-O2" } */

#include "programs/interceptor-ranges.h"

/* { dg-final { memprof-profile-count 1 } } */
/* { dg-final { memprof-record fn=site_big<main alloc_count==12 total_access_count==198144 min_access_count==16512 max_access_count==16512 } } */
/* { dg-final { memprof-record fn=site_small<main alloc_count==1 total_access_count==126 } } */
