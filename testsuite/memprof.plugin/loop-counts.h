/* Loops whose accesses go through a pointer induction variable, or an
   integer one indexing several arrays (ivopts keeps one index for all
   of them: base + i * scale + offset), each on a
   block from its own allocation function, so each block's access count
   is known exactly.  Included by loop-counts-O0.c and loop-counts-O2.c:
   at -O2 the call-free ones are counted once at their exit
   (loop_counts.cc), at -O0 access by access.
   Blocks come from calloc (its zeroing is not an access) or are filled
   by a loop that calls a function per element (never counted at the
   exit), so every count below is reads plus those writes.  */

#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

/* Blocks whose fields a loop reads and writes at the same address in
   every iteration.  */
struct builder
{
  char *data;
  long len;
};
struct tally
{
  long seen;
};

#define ALLOCATOR(name, size)			\
  NOINLINE void *name (void)			\
  {						\
    void *p = calloc (size, 1);			\
    __asm__ volatile ("" : : "r" (p) : "memory");	\
    return p;					\
  }
ALLOCATOR (alloc_bytes, 1000)
ALLOCATOR (alloc_string, 301)
ALLOCATOR (alloc_ints, 500 * sizeof (int))
ALLOCATOR (alloc_pairs, 300 * sizeof (long))
ALLOCATOR (alloc_zigzag, 401)
ALLOCATOR (alloc_called, 200 * sizeof (int))
ALLOCATOR (alloc_early, 200 * sizeof (int))
ALLOCATOR (alloc_bounded_n, 100 * sizeof (int))
ALLOCATOR (alloc_stop_a, 100 * sizeof (int))
ALLOCATOR (alloc_stop_b, 100 * sizeof (int))
ALLOCATOR (alloc_run_a, 100 * sizeof (int))
ALLOCATOR (alloc_run_b, 100 * sizeof (int))
ALLOCATOR (alloc_bounded_len, 100 * sizeof (int))
ALLOCATOR (alloc_sums, 250 * sizeof (int))
ALLOCATOR (alloc_left, 250 * sizeof (int))
ALLOCATOR (alloc_right, 250 * sizeof (int))
ALLOCATOR (alloc_quads, 100 * 4 * sizeof (int))
ALLOCATOR (alloc_source, 102 * sizeof (int))
ALLOCATOR (alloc_short, 256)
ALLOCATOR (alloc_triples, 100 * 3 * sizeof (long))
ALLOCATOR (alloc_quartets, 100 * 4 * sizeof (long))
ALLOCATOR (alloc_down, 300 * sizeof (int))
ALLOCATOR (alloc_digits_a, 200)
ALLOCATOR (alloc_digits_r, 200)
/* 224 bytes: blocks of 256 with the 32-byte header, so the user area
   starts 32 bytes into a granule and spans 4 granules, whatever was
   allocated before.  */
ALLOCATOR (alloc_back_a, 224)
ALLOCATOR (alloc_back_b, 224)
ALLOCATOR (alloc_builder, sizeof (struct builder))
ALLOCATOR (alloc_builder_data, 300)
ALLOCATOR (alloc_builder_src, 300)
ALLOCATOR (alloc_tally, sizeof (struct tally))
ALLOCATOR (alloc_copy_out, 100)
ALLOCATOR (alloc_copy_in, 100)
ALLOCATOR (alloc_guard_a, 100 * sizeof (int))
ALLOCATOR (alloc_guard_b, 100 * sizeof (int))
ALLOCATOR (alloc_guard_c, 100 * sizeof (int))
ALLOCATOR (alloc_guard_d, 100 * sizeof (int))
ALLOCATOR (alloc_guard_e, 100 * sizeof (int))
ALLOCATOR (alloc_guard_f, 100 * sizeof (int))
ALLOCATOR (alloc_guard_g, 100 * sizeof (int))
ALLOCATOR (alloc_noted, 200 * sizeof (int))
ALLOCATOR (alloc_grown_in, 100 * sizeof (int))
ALLOCATOR (alloc_grown_out, 100 * sizeof (int))
ALLOCATOR (alloc_noted_down, 120 * sizeof (long))

NOINLINE char
letter (int i)
{
  __asm__ volatile ("");
  return (char) ('a' + i % 26);
}

/* N reads, step 1.  */
NOINLINE unsigned long
sum_bytes (const unsigned char *p, size_t n)
{
  unsigned long s = 0;
  for (size_t k = 0; k < n; k++)
    s += p[k];
  return s;
}

/* N writes, each after a call: not counted at the exit.  */
NOINLINE void
fill_letters (char *p, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = letter (i);
}

/* strlen (P) + 1 reads: the first before the loop, the rest through the
   pointer incremented before the read.  */
NOINLINE unsigned long
sum_until (const char *p)
{
  unsigned long s = 0;
  while (*p)
    s += *p++;
  return s;
}

/* N reads, step 4.  */
NOINLINE long
sum_ints (const int *a, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

/* N reads of the odd elements: step 16, offset 8.  */
NOINLINE long
sum_odd (const long *a, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += a[2 * i + 1];
  return s;
}

/* The exit test between two reads: with P[2K] the first zero, K + 1
   reads of P[2I] and K of P[2I + 1].  */
NOINLINE long
sum_zigzag (const unsigned char *p)
{
  long s = 0;
  for (;;)
    {
      if (!p[0])
	break;
      s += p[1];
      p += 2;
    }
  return s;
}

/* N reads in a loop that calls: counted access by access.  */
NOINLINE long
sum_calling (const int *a, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += a[i] + letter ((int) i);
  return s;
}

/* Two exits, the read before both tests: reads up to and including the
   first A[I] == STOP.  */
NOINLINE long
sum_until_value (const int *a, long n, int stop)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    {
      if (a[i] == stop)
	break;
      s += a[i];
    }
  return s;
}

/* Two exits, one read on each side of the first test: stopping at the
   first A[K] == STOP reads A K + 1 times and B K times; running to N,
   N times each.  */
NOINLINE long
sum_pair_until (const int *a, const int *b, long n, int stop)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    {
      if (a[i] == stop)
	break;
      s += b[i];
    }
  return s;
}

/* Two exit tests before the read (bignum multiplication's inner loop):
   N reads, or LEN - OFF when that is fewer.  */
NOINLINE long
sum_bounded (const int *a, int n, int off, int len)
{
  long s = 0;
  for (int j = 0; j < n && off + j < len; j++)
    s += a[j];
  return s;
}

/* One integer index into three blocks: N reads of A, N of B, N writes
   of R, each step 4.  */
NOINLINE void
add_arrays (int *r, const int *a, const int *b, long n)
{
  for (long i = 0; i < n; i++)
    r[i] = a[i] + b[i];
}

/* One integer index, two scales and offsets: N writes of R[I].y (step
   16, offset 4) and N reads of A[I + 2] (step 4, offset 8).  */
struct quad
{
  int x, y, z, w;
};
NOINLINE void
spread (struct quad *r, const int *a, long n)
{
  for (long i = 0; i < n; i++)
    r[i].y = a[i + 2];
}

/* N reads, steps of 24 bytes (no divisor of a granule: the runtime
   divides per granule) and of 32 (a divisor: it does not).  */
struct triple
{
  long a, b, c;
};
struct quartet
{
  long a, b, c, d;
};
NOINLINE long
sum_middles (const struct triple *t, const struct quartet *q, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += t[i].b + q[i].c;
  return s;
}

/* N reads walking down an index (i--).  */
NOINLINE long
sum_down (const int *a, long n)
{
  long s = 0;
  for (long i = n - 1; i >= 0; i--)
    s += a[i];
  return s;
}

/* N reads from P[N - 1] down to P[0].  */
NOINLINE unsigned long
sum_bytes_down (const unsigned char *p, size_t n)
{
  unsigned long s = 0;
  for (size_t k = n; k-- > 0;)
    s += p[k];
  return s;
}

/* A digit string times D (bc's _one_mult): N reads of A and N writes of
   R, through two pointers walking down from their last bytes.  */
NOINLINE void
scale_digits (unsigned char *r, const unsigned char *a, int n, int d)
{
  const unsigned char *ap = a + n - 1;
  unsigned char *rp = r + n - 1;
  int carry = 0;
  while (n-- > 0)
    {
      int v = *ap-- * d + carry;
      *rp-- = (unsigned char) (v % 10);
      carry = v / 10;
    }
}

/* A string builder: N reads of B->data and N reads and N writes of
   B->len at addresses the loop does not move, re-read in every
   iteration since the char store may alias them; N writes of the data
   through the pointer read (access by access); N reads of S.  */
NOINLINE void
append_letters (struct builder *b, const char *s, long n)
{
  for (long i = 0; i < n; i++)
    b->data[b->len++] = s[i];
}

/* T->seen read and written before the exit test, in each of the K + 1
   iterations that run when S[K] is the first STOP; K writes of OUT and
   K + 1 reads of S.  */
NOINLINE long
copy_until (struct tally *t, char *out, const char *s, char stop)
{
  long i;
  for (i = 0;; i++)
    {
      t->seen++;
      if (s[i] == stop)
	break;
      out[i] = s[i];
    }
  return i;
}

/* Bignum addition's shape: A read only while I < ALEN, B in every
   iteration: MIN (N, MAX (ALEN, 0)) reads of A, N of B.  */
NOINLINE long
sum_guarded (const int *a, int alen, const int *b, int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i < alen)
	s += a[i];
      s += b[i];
    }
  return s;
}

/* The same with I <= LAST: MIN (N, MAX (LAST + 1, 0)) reads of A.  */
NOINLINE long
sum_guarded_upto (const int *a, int last, int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i <= last)
	s += a[i];
      s += i;
    }
  return s;
}

/* Loops that call a function now and then (a branch GCC expects to be
   taken rarely): at -O2 their accesses are counted at the exits and
   before each call, from where the count before stopped.  */

/* N reads through a pointer, each before the iteration's call if any:
   a count before the call includes this iteration's read.  A call in
   the last iteration leaves none for the exit (the distance from the
   count's start is then -4 bytes: -1 reads, plus this one).  */
NOINLINE long
sum_noting (const int *a, long n)
{
  long s = 0;
  for (const int *p = a; p != a + n; p++)
    {
      int v = *p;
      s += v;
      if (__builtin_expect (v == 7, 0))
	s += letter (v);
    }
  return s;
}

/* N reads of IN and N writes of OUT, after the call of every 16th
   iteration (which the accesses do not reach: the call comes first).  */
NOINLINE void
copy_noting (int *out, const int *in, long n)
{
  for (long i = 0; i < n; i++)
    {
      if (__builtin_expect ((i & 15) == 0, 0))
	letter ((int) i);
      out[i] = in[i];
    }
}

/* sum_noting walking down over longs.  */
NOINLINE long
sum_noting_down (const long *a, long n)
{
  long s = 0;
  for (long i = n - 1; i >= 0; i--)
    {
      long v = a[i];
      s += v;
      if (__builtin_expect (v == 7, 0))
	s += letter ((int) i);
    }
  return s;
}

int
main (void)
{
  long total = 0;
  unsigned char *bytes = alloc_bytes ();
  total += sum_bytes (bytes, 1000);		/* 1000 */
  char *string = alloc_string ();
  fill_letters (string, 300);
  total += sum_until (string);			/* 300 + 301 (-O0: + 300) */
  int *ints = alloc_ints ();
  total += sum_ints (ints, 500);		/* 500 */
  long *pairs = alloc_pairs ();
  total += sum_odd (pairs, 150);		/* 150 */
  unsigned char *zigzag = alloc_zigzag ();
  fill_letters ((char *) zigzag, 200);
  total += sum_zigzag (zigzag);		/* 200 + 101 + 100 */
  int *called = alloc_called ();
  total += sum_calling (called, 200);		/* 200 */
  int *early = alloc_early ();
  early[120] = 7;
  total += sum_until_value (early, 200, 7);	/* 1 + 121 (-O0: + 120) */
  int *stop_a = alloc_stop_a (), *stop_b = alloc_stop_b ();
  stop_a[40] = 7;				/* 1 */
  total += sum_pair_until (stop_a, stop_b, 100, 7); /* A 41, B 40 */
  int *run_a = alloc_run_a (), *run_b = alloc_run_b ();
  total += sum_pair_until (run_a, run_b, 70, 7);	/* 70 each */
  int *bounded_n = alloc_bounded_n (), *bounded_len = alloc_bounded_len ();
  total += sum_bounded (bounded_n, 60, 0, 100);	/* 60: the first exit */
  total += sum_bounded (bounded_len, 60, 50, 80);	/* 30: the second */
  int *sums = alloc_sums (), *left = alloc_left (), *right = alloc_right ();
  add_arrays (sums, left, right, 250);		/* 250 each */
  total += sums[249];				/* 1 */
  struct quad *quads = alloc_quads ();
  int *source = alloc_source ();
  spread (quads, source, 100);			/* 100 each */
  total += quads[99].y;				/* 1 */
  /* Short runs (the block starts 32 bytes into a granule): 16 reads
     in one granule (added at the exit, no call), 8 across a granule
     boundary (the call), 1, and none.  */
  unsigned char *shorts = alloc_short ();
  total += sum_bytes (shorts + 8, 16);		/* 16 */
  total += sum_bytes (shorts + 60, 8);		/* 8 */
  total += sum_bytes (shorts + 200, 1);		/* 1 */
  total += sum_bytes (shorts + 64, 0);		/* 0 */
  free (shorts);
  struct triple *triples = alloc_triples ();
  struct quartet *quartets = alloc_quartets ();
  total += sum_middles (triples, quartets, 100);	/* 100 each */
  free (triples);
  free (quartets);
  int *down = alloc_down ();
  total += sum_down (down, 300);		/* 300 */
  unsigned char *digits_a = alloc_digits_a (), *digits_r = alloc_digits_r ();
  scale_digits (digits_r, digits_a, 200, 7);	/* 200 each */
  /* Runs down whose lowest byte starts a granule: counted from the
     lowest address up, they touch the granules read and no other
     (A: bytes 24-31, granule 0 of 4; B: bytes 10-39, granules 0 and 1,
     across a boundary, through the call).  */
  unsigned char *back_a = alloc_back_a (), *back_b = alloc_back_b ();
  total += sum_bytes_down (back_a + 24, 8);	/* 8 */
  total += sum_bytes_down (back_b + 10, 30);	/* 30 */
  struct builder *builder = alloc_builder ();
  builder->data = alloc_builder_data ();		/* 1 */
  char *builder_src = alloc_builder_src ();
  fill_letters (builder_src, 300);		/* 300 */
  append_letters (builder, builder_src, 300);	/* 900; data 300, src 300 */
  struct tally *tally = alloc_tally ();
  char *copy_out = alloc_copy_out ();
  char *copy_in = alloc_copy_in ();
  fill_letters (copy_in, 99);			/* 99 */
  copy_in[60] = '!';				/* 1 */
  total += copy_until (tally, copy_out, copy_in, '!'); /* 122; out 60, in 61 */
  int *guard_a = alloc_guard_a (), *guard_b = alloc_guard_b ();
  int *guard_c = alloc_guard_c (), *guard_d = alloc_guard_d ();
  int *guard_e = alloc_guard_e (), *guard_f = alloc_guard_f ();
  int *guard_g = alloc_guard_g ();
  total += sum_guarded (guard_a, 30, guard_b, 80);	/* A 30, B 80 */
  total += sum_guarded (guard_c, 100, guard_d, 40);	/* C 40, D 40 */
  total += sum_guarded (guard_e, -5, guard_f, 20);	/* E 0, F 20 */
  total += sum_guarded_upto (guard_g, 9, 50);	/* 10 */
  total += sum_guarded_upto (guard_g, 70, 50);	/* 50 */
  total += sum_guarded_upto (guard_g, -3, 20);	/* 0 */
  int *noted = alloc_noted ();
  noted[50] = 7;				/* 1 */
  noted[120] = 7;				/* 1 */
  noted[199] = 7;				/* 1 */
  total += sum_noting (noted, 200);		/* 200 */
  int *grown_in = alloc_grown_in (), *grown_out = alloc_grown_out ();
  copy_noting (grown_out, grown_in, 100);	/* 100 each */
  long *noted_down = alloc_noted_down ();
  noted_down[0] = 7;				/* 1 */
  noted_down[60] = 7;				/* 1 */
  total += sum_noting_down (noted_down, 120);	/* 120 */
  free (noted);
  free (grown_in);
  free (grown_out);
  free (noted_down);
  free (guard_a);
  free (guard_b);
  free (guard_c);
  free (guard_d);
  free (guard_e);
  free (guard_f);
  free (guard_g);
  free (builder->data);				/* 1 */
  free (builder);
  free (builder_src);
  free (tally);
  free (copy_out);
  free (copy_in);
  free (down);
  free (digits_a);
  free (digits_r);
  free (back_a);
  free (back_b);
  free (sums);
  free (left);
  free (right);
  free (quads);
  free (source);
  free (bytes);
  free (string);
  free (ints);
  free (pairs);
  free (zigzag);
  free (called);
  free (early);
  free (stop_a);
  free (stop_b);
  free (run_a);
  free (run_b);
  free (bounded_n);
  free (bounded_len);
  return total == 0;
}
