/* Access-heavy loops over large heap arrays, few allocations: a 2-D
   5-point stencil over two 2 MiB-per-row-block double grids (vectorised
   streaming), a histogram, and a dependent pointer chase through an array
   of 64-byte nodes.  The chase is written so that its heap accesses can
   be counted exactly (no vectorisation, no store merging possible):
   alloc_chase_nodes's block sees 2 stores per node while it is built and
   2 loads per step of the chase.  The program states that expectation on
   stderr as "memprof-expect:" lines, which run-bench checks the profile
   against.  */

#include "bench-common.h"

struct chase_node
{
  uint64_t next;    /* Index of the next node: a single cycle.  */
  uint64_t weight;
  char cold[48];    /* Never touched: shows up as low utilisation.  */
};

static double *
alloc_grid (size_t n)
{
  return malloc (n * sizeof (double));
}

static void
stencil (double *restrict dst, const double *restrict src, size_t rows,
	 size_t cols)
{
  for (size_t r = 1; r + 1 < rows; r++)
    for (size_t c = 1; c + 1 < cols; c++)
      dst[r * cols + c] = 0.2 * (src[r * cols + c] + src[r * cols + c - 1]
				 + src[r * cols + c + 1]
				 + src[(r - 1) * cols + c]
				 + src[(r + 1) * cols + c]);
}

/* Builds a single cycle visiting every node: node j links to
   (j + stride) mod n with stride coprime to n.  The running X makes each
   store depend on the previous iteration, so the loop stays scalar.  */
static __attribute__ ((noinline)) struct chase_node *
alloc_chase_nodes (size_t n, size_t stride)
{
  struct chase_node *nodes = malloc (n * sizeof *nodes);
  uint64_t x = 0;
  for (size_t j = 0; j < n; j++)
    {
      x += stride;
      if (x >= n)
	x -= n;
      nodes[j].next = x;
      nodes[j].weight = x ^ j;
    }
  return nodes;
}

static __attribute__ ((noinline)) uint64_t
chase (const struct chase_node *nodes, long steps)
{
  uint64_t i = 0, sum = 0;
  for (long s = 0; s < steps; s++)
    {
      sum += nodes[i].weight;
      i = nodes[i].next;
    }
  return sum ^ i;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  size_t rows = 512, cols = 1024;
  long passes = 1 + scale / 4;
  uint64_t h = 0;

  double *a = alloc_grid (rows * cols), *b = alloc_grid (rows * cols);
  for (size_t i = 0; i < rows * cols; i++)
    a[i] = b[i] = (double) (i % 1000);
  for (long p = 0; p < passes; p++)
    {
      stencil (b, a, rows, cols);
      double *t = a;
      a = b;
      b = t;
    }
  for (size_t i = 0; i < rows * cols; i += 977)
    h = bench_mix (h, (uint64_t) a[i]);
  free (a);
  free (b);

  /* Histogram of a byte stream: read-modify-write on a small table.  */
  size_t nbytes = 1 << 20;
  unsigned char *bytes = malloc (nbytes);
  uint64_t rng = 99;
  for (size_t i = 0; i < nbytes; i += 8)
    {
      uint64_t r = bench_rand (&rng);
      for (int k = 0; k < 8; k++)
	bytes[i + k] = (unsigned char) (r >> (8 * k));
    }
  uint32_t *hist = calloc (256, sizeof *hist);
  for (long p = 0; p < 1 + scale / 10; p++)
    for (size_t i = 0; i < nbytes; i++)
      hist[bytes[i]]++;
  for (int i = 0; i < 256; i++)
    h = bench_mix (h, hist[i]);
  free (hist);
  free (bytes);

  size_t n = 1 << 18;          /* 16 MiB of nodes.  */
  size_t stride = 40503;       /* Odd, so coprime to the power of two N.  */
  long steps = 60000L * scale;
  struct chase_node *nodes = alloc_chase_nodes (n, stride);
  h = bench_mix (h, chase (nodes, steps));
  free (nodes);
  fprintf (stderr, "memprof-expect: fn=alloc_chase_nodes alloc_count==1 "
	   "total_size==%zu total_access_count==%zu\n",
	   n * sizeof (struct chase_node), 2 * n + 2 * (size_t) steps);

  printf ("array_sweep checksum=%016llx\n", (unsigned long long) h);
  return 0;
}
