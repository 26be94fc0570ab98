/* Types whose DWARF layouts type-layout.exp checks through memprof-dump
   --print-layout: nested structs, a union, bit-fields, padding, an array
   of structs folded per element, a typedef of an anonymous struct, and
   one of a function pointer (mruby's mrb_atexit_func), which has no
   fields.  */
#include <stdlib.h>

struct hdr
{
  unsigned short len;
  unsigned char kind;
};

struct pair
{
  long key;
  long val;
};

struct rec
{
  long hot;
  long warm;
  char payload[104];
  struct hdr hdr;
  union
  {
    int i;
    double d;
  } u;
  unsigned a : 3, b : 5;
  double tail;
};

struct table
{
  int n;
  struct pair items[64];
};

typedef struct
{
  int x;
  char c;
} anon_t;

/* Hot halves of two cache lines: putting them together saves a line.  */
struct spread
{
  char hot1[32];
  char cold1[32];
  char hot2[32];
  char cold2[32];
};

/* The hot line first already: nothing to save.  */
struct front
{
  char hot[64];
  char cold[64];
};

struct rec *volatile rec_sink;
struct table *volatile table_sink;
anon_t *volatile anon_sink;
struct spread *volatile spread_sink;
struct front *volatile front_sink;

typedef void (*callback_t) (void);
callback_t *volatile callback_sink;

int
main (void)
{
  rec_sink = malloc (sizeof *rec_sink);
  table_sink = malloc (sizeof *table_sink);
  anon_sink = malloc (sizeof *anon_sink);
  callback_sink = malloc (4 * sizeof *callback_sink);
  return 0;
}
