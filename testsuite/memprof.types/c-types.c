/* The allocated type of C allocation sites: a struct from malloc
   (sizeof *p) in a helper, an array of small structs from calloc (the
   element's type and size), a struct through an xmalloc wrapper in
   another function (the wrapper's malloc is untyped: its caller's call
   site names the type), a struct through an allocator with a size
   header (its long long * is not the block's type), a char buffer and a void * cast two ways
   (unknown, no error), posix_memalign into an int *; a struct and a
   string through two char *-returning wrappers, as Tcl's ckalloc
   (the struct typed by the outermost call site's cast, the string
   unknown); an array of structs whose constant size went through a
   variable first (an array, not a header); and a realloc wrapper whose
   call takes a getter's result as an argument, the two calls at one
   source position (duktape's DUK_REALLOC_INDIRECT): the getter's
   unknown verdict does not hide the wrapper's caller's type; scalars
   through typedefs, named by them; a block
   handed out through a void ** parameter (SQLite's mallocWithAlarm
   (n, &p)), typed by the caller's variable or, through a void *
   wrapper, by that wrapper's caller (both were unknown).  */
/* { dg-do run } */

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

struct rec
{
  long key;
  int hot;
  char name[44];
};

struct pair
{
  short a, b;
};

struct other
{
  int x;
};

__attribute__ ((noinline)) static struct rec *
make_rec (void)
{
  struct rec *p = malloc (sizeof *p);
  p->hot = 1;
  return p;
}

__attribute__ ((noinline)) static struct pair *
make_pairs (size_t n)
{
  struct pair *v = calloc (n, sizeof *v);
  v[n - 1].a = 1;
  return v;
}

__attribute__ ((noinline)) void *
xmalloc (size_t n)
{
  void *p = malloc (n);
  if (!p)
    abort ();
  return p;
}

__attribute__ ((noinline)) static struct rec *
rec_through_wrapper (void)
{
  struct rec *r = xmalloc (sizeof *r);
  r->key = 2;
  return r;
}

/* An allocator that keeps the size in a header before the block (as
   SQLite's does): its own conversion describes the header; the block it
   returns is its caller's type.  */
__attribute__ ((noinline)) void *
header_malloc (size_t n)
{
  long long *p = malloc (n + sizeof *p);
  if (!p)
    abort ();
  p[0] = n;
  return p + 1;
}

__attribute__ ((noinline)) static struct pair *
pair_through_header (void)
{
  struct pair *q = header_malloc (sizeof *q);
  q->b = 3;
  return q;
}

__attribute__ ((noinline)) static char *
make_buffer (size_t n)
{
  char *b = malloc (n);
  memset (b, 0, n);
  return b;
}

/* Older C allocators return char * (Tcl_Alloc behind ckalloc).  */
__attribute__ ((noinline)) char *
ck_alloc_inner (size_t n)
{
  return (char *) malloc (n);
}

__attribute__ ((noinline)) char *
ck_alloc (unsigned int n)
{
  return ck_alloc_inner (n);
}

__attribute__ ((noinline)) static struct rec *
rec_through_char_wrapper (void)
{
  struct rec *r = (struct rec *) ck_alloc (sizeof *r);
  r->key = 3;
  return r;
}

__attribute__ ((noinline)) static char *
string_through_char_wrapper (void)
{
  char *s = ck_alloc (8);
  strcpy (s, "abcdefg");
  return s;
}

__attribute__ ((noinline)) static struct rec *
const_in_variable (void)
{
  size_t n = 3 * sizeof (struct rec);
  struct rec *r = malloc (n);
  r[2].key = 1;
  return r;
}

struct heap
{
  void *(*realloc_func) (void *ud, void *p, size_t n);
  void *ud;
  void *block;
};

__attribute__ ((noinline)) static void *
heap_realloc (void *ud, void *p, size_t n)
{
  return realloc (p, n);
}

__attribute__ ((noinline)) static void *
get_block (struct heap *h)
{
  return h->block;
}

static inline void *
realloc_indirect (struct heap *h, size_t n)
{
  void *res = h->realloc_func (h->ud, get_block (h), n);
  if (res != NULL || n == 0)
    return res;
  abort ();
}

__attribute__ ((noinline)) static struct rec *
grow_recs (struct heap *h, size_t k)
{
  struct rec *r = (struct rec *) realloc_indirect (h, k * sizeof (struct rec));
  h->block = r;
  return r;
}

__attribute__ ((noinline)) static void *
two_casts (void)
{
  void *v = malloc (16);
  struct rec *r = v;
  struct other *o = v;
  o->x = 1;
  r->hot = 2;
  return v;
}

__attribute__ ((noinline)) static int *
aligned_ints (void)
{
  int *p;
  if (posix_memalign ((void **) &p, 64, 16 * sizeof *p))
    abort ();
  p[0] = 1;
  return p;
}

/* A struct with neither tag nor typedef (gnulib's dfa.c has one): named
   <unnamed struct>, not by its whole declaration.  */
__attribute__ ((noinline)) static void *
unnamed_structs (int n)
{
  struct
  {
    char flag;
    long first, last;
  } *s = malloc (n * sizeof *s);
  for (int i = 0; i < n; i++)
    s[i].first = s[i].last = i;
  return s;
}

/* Arrays of function pointers: named as C writes them, not by GCC's
   internal "void (*<T492>) (void)".  */
void (**handler_table) (void);
int (**printer_table) (const char *, ...);

__attribute__ ((noinline)) static void
make_handlers (int n)
{
  handler_table = malloc (n * sizeof *handler_table);
}

__attribute__ ((noinline)) static void
make_printers (int n)
{
  printer_table = calloc (n, sizeof *printer_table);
}

/* An unnamed struct named by a typedef, allocated through the typedef
   of a pointer to it (a "<unnamed struct>" before).  */
typedef struct
{
  long hot;
  char cold[24];
} state_t, *statep;

__attribute__ ((noinline)) static statep
make_state (void)
{
  statep s = malloc (sizeof *s);
  s->hot = 1;
  return s;
}

/* Only declared here, as a library's opaque handle.  */
struct opaque;

__attribute__ ((noinline, malloc)) static struct opaque *
opaque_new (void)
{
  return (struct opaque *) malloc (40);
}

/* Scalars through typedefs: named by the typedef (they were "long
   unsigned int" and "int"), also one from a system header.  */
typedef unsigned long hash_t;

__attribute__ ((noinline)) static hash_t *
make_hashes (int n)
{
  hash_t *h = malloc (n * sizeof *h);
  h[0] = 1;
  return h;
}

__attribute__ ((noinline)) static wchar_t *
make_wide (int n)
{
  wchar_t *w = malloc (n * sizeof *w);
  w[0] = 1;
  return w;
}

/* Hands its block out through PP, as SQLite's mallocWithAlarm.  */
__attribute__ ((noinline)) static void
alloc_out (size_t n, void **pp)
{
  void *p = malloc (n);
  if (!p)
    abort ();
  *pp = p;
}

__attribute__ ((noinline)) void *
malloc_via_out (size_t n)
{
  void *p;
  alloc_out (n, &p);
  return p;
}

__attribute__ ((noinline)) static struct rec *
rec_via_out (void)
{
  struct rec *r = malloc_via_out (sizeof *r);
  r->key = 4;
  return r;
}

__attribute__ ((noinline)) static struct pair *
pair_direct_out (void)
{
  struct pair *q;
  alloc_out (2 * sizeof *q, (void **) &q);
  q[1].a = 5;
  return q;
}

/* A char buffer through the out parameter: still unknown.  */
__attribute__ ((noinline)) static char *
bytes_via_out (void)
{
  char *b;
  alloc_out (10, (void **) &b);
  memset (b, 0, 10);
  return b;
}

int
main (void)
{
  for (int i = 0; i < 3; i++)
    {
      free (make_rec ());
      free (make_pairs (10));
      free (rec_through_wrapper ());
      free (rec_through_char_wrapper ());
      free (const_in_variable ());
      struct heap h = { heap_realloc, 0, 0 };
      for (int k = 1; k <= 2; k++)
        grow_recs (&h, k);
      free (h.block);
      free (string_through_char_wrapper ());
      free (make_buffer (100));
      free (two_casts ());
      free (aligned_ints ());
      free (unnamed_structs (4));
      free ((long long *) pair_through_header () - 1);
      free (opaque_new ());
      free (make_state ());
      free (make_hashes (4));
      free (make_wide (5));
      free (rec_via_out ());
      free (pair_direct_out ());
      free (bytes_via_out ());
      make_handlers (4);
      make_printers (2);
      free (handler_table);
      free (printer_table);
    }
  return 0;
}

/* { dg-final { memprof-record fn=make_rec<main alloc_count==3 total_size==168 type=rec type_size==56 type.offset==0 } } */
/* { dg-final { memprof-record fn=make_pairs<main alloc_count==3 total_size==120 type=pair type_size==4 } } */
/* { dg-final { memprof-record fn=xmalloc<rec_through_wrapper<main alloc_count==3 type=rec type_size==56 } } */
/* { dg-final { memprof-record fn=ck_alloc_inner<ck_alloc<rec_through_char_wrapper<main alloc_count==3 type=rec type_size==56 } } */
/* { dg-final { memprof-record fn=ck_alloc_inner<ck_alloc<string_through_char_wrapper<main alloc_count==3 type=null } } */
/* { dg-final { memprof-record fn=const_in_variable<main alloc_count==3 type=rec type.header==0 } } */
/* { dg-final { memprof-record fn=heap_realloc<realloc_indirect<grow_recs<main alloc_count==6 type=rec } } */
/* { dg-final { memprof-record fn=header_malloc<pair_through_header<main alloc_count==3 total_size==36 type=pair type_size==4 type.offset==8 } } */
/* { dg-final { memprof-record fn=make_buffer<main alloc_count==3 type=null } } */
/* { dg-final { memprof-record fn=two_casts<main alloc_count==3 type=null } } */
/* { dg-final { memprof-record fn=aligned_ints<main alloc_count==3 type=int type_size==4 } } */
/* { dg-final { memprof-dump-scan {^type:        rec \(56 bytes\)$} } } */
/* { dg-final { memprof-dump-scan {^type:        pair \(4 bytes\), after an allocator header of 8 bytes$} } } */
/* { dg-final { memprof-record fn=unnamed_structs<main alloc_count==3 total_size==288 type=<unnamedstruct> type_size==24 } } */
/* { dg-final { memprof-dump-scan {^type:        <unnamed struct> \(24 bytes\)$} } } */
/* { dg-final { memprof-record fn=opaque_new<main alloc_count==3 total_size==120 type=opaque type_size==0 } } */
/* { dg-final { memprof-dump-scan {^type:        opaque \(size unknown: incomplete type\)$} } } */
/* { dg-final { memprof-record fn=make_handlers<main alloc_count==3 total_size==96 type_size==8 } } */
/* { dg-final { memprof-dump-scan {^type:        void \(\*\)\(void\) \(8 bytes\)$} } } */
/* { dg-final { memprof-dump-scan {^type:        int \(\*\)\(const char \*, \.\.\.\) \(8 bytes\)$} } } */
/* { dg-final { memprof-record fn=make_state<main alloc_count==3 total_size==96 type=state_t type_size==32 } } */
/* { dg-final { memprof-record fn=alloc_out<malloc_via_out<rec_via_out<main alloc_count==3 total_size==168 type=rec type_size==56 } } */
/* { dg-final { memprof-record fn=alloc_out<pair_direct_out<main alloc_count==3 total_size==24 type=pair type_size==4 } } */
/* { dg-final { memprof-record fn=alloc_out<bytes_via_out<main alloc_count==3 total_size==30 type=null } } */
/* { dg-final { memprof-record fn=make_hashes<main alloc_count==3 total_size==96 type=hash_t type_size==8 } } */
/* { dg-final { memprof-record fn=make_wide<main alloc_count==3 total_size==60 type=wchar_t type_size==4 } } */
