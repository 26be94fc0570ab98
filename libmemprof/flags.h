// The runtime's options (flags.inc), parsed once at initialisation.

#ifndef MEMPROF_FLAGS_H
#define MEMPROF_FLAGS_H

namespace memprof {

struct Flags
{
#define MEMPROF_FLAG_Bool bool
#define MEMPROF_FLAG_Int int
#define MEMPROF_FLAG_String char
#define MEMPROF_FLAG_Name char
#define MEMPROF_FLAG_Signal char
#define MEMPROF_FLAG(TYPE, NAME, DEFAULT, MIN, MAX, DESC) \
  MEMPROF_FLAG_##TYPE NAME MEMPROF_FLAG_ARRAY_##TYPE;
#define MEMPROF_FLAG_ARRAY_Bool
#define MEMPROF_FLAG_ARRAY_Int
#define MEMPROF_FLAG_ARRAY_String [1024]
#define MEMPROF_FLAG_ARRAY_Name [1024]
#define MEMPROF_FLAG_ARRAY_Signal [1024]
#include "flags.inc"
#undef MEMPROF_FLAG
};

extern Flags flags;

// Set the defaults, then apply OPTIONS ("name=value" items separated by
// ':' or white space; may be null).  Unknown names and bad values are
// reported on stderr, one line each naming what is accepted, and the
// option keeps its default.
void parse_flags (const char *options);
void print_flags_help ();

} // namespace memprof

#endif
