// fields-cxx.cc at -O2: the same types and cold field, counts left to
// the optimizer.
/* { dg-do run } */
/* { dg-options "-O2 -fheapprof-histogram" } */

#include "fields-cxx.cc"

/* { dg-final { memprof-record fn=_Z9make_manyi<main type.size==64 total_size==640 fields(id).accesses>=10 fields(name).accesses==0 fields(name).cold==1 } } */
/* { dg-final { memprof-fields-scan {^type: +Item, 64 bytes \(from .*fields-cxx-O2\.cc\.exe\)$} --by-type } } */
