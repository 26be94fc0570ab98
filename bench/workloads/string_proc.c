/* String processing: synthesise lines of text, split them into tokens
   (one malloc'd copy per token), normalise each token into a new string,
   sort the tokens, join the unique ones back into a line, and keep a
   bounded history of joined lines.  Exercises strlen, memcpy, strcmp,
   strcpy and many small, short-lived strings of varied sizes.  */

#include <string.h>
#include <ctype.h>
#include "bench-common.h"

#define MAX_TOKENS 64
#define HISTORY 64

static char *
make_line (uint64_t *rng)
{
  static const char *const words[] = {
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
    "Iota", "KAPPA", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho",
    "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "x", "yz"
  };
  char buf[1024];
  size_t len = 0;
  int n = 8 + (int) (bench_rand (rng) % 40);
  for (int i = 0; i < n; i++)
    {
      const char *w = words[bench_rand (rng) % (sizeof words / sizeof *words)];
      size_t wl = strlen (w);
      memcpy (buf + len, w, wl);
      len += wl;
      buf[len++] = (i % 5 == 4) ? ',' : ' ';
    }
  buf[len] = '\0';
  char *line = malloc (len + 1);
  memcpy (line, buf, len + 1);
  return line;
}

static int
split_tokens (const char *line, char **tokens)
{
  int n = 0;
  const char *p = line;
  while (*p && n < MAX_TOKENS)
    {
      while (*p == ' ' || *p == ',')
	p++;
      if (!*p)
	break;
      const char *start = p;
      while (*p && *p != ' ' && *p != ',')
	p++;
      size_t len = (size_t) (p - start);
      char *tok = malloc (len + 1);
      memcpy (tok, start, len);
      tok[len] = '\0';
      tokens[n++] = tok;
    }
  return n;
}

/* Lower-case copy with a length prefix "NN:word".  */
static char *
normalise (const char *tok)
{
  size_t len = strlen (tok);
  char *out = malloc (len + 4);
  out[0] = (char) ('0' + (len / 10) % 10);
  out[1] = (char) ('0' + len % 10);
  out[2] = ':';
  for (size_t i = 0; i <= len; i++)
    out[3 + i] = (char) tolower ((unsigned char) tok[i]);
  return out;
}

static int
compare_strings (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static char *
join_unique (char **toks, int n)
{
  size_t total = 1;
  for (int i = 0; i < n; i++)
    total += strlen (toks[i]) + 1;
  char *out = malloc (total), *p = out;
  for (int i = 0; i < n; i++)
    {
      if (i > 0 && strcmp (toks[i], toks[i - 1]) == 0)
	continue;
      if (p != out)
	*p++ = '|';
      strcpy (p, toks[i]);
      p += strlen (p);
    }
  *p = '\0';
  return out;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long lines = 1800 * scale;
  uint64_t rng = 2024, h = 0;
  char *history[HISTORY] = { 0 };
  char *tokens[MAX_TOKENS], *norm[MAX_TOKENS];

  for (long i = 0; i < lines; i++)
    {
      char *line = make_line (&rng);
      int n = split_tokens (line, tokens);
      for (int k = 0; k < n; k++)
	{
	  norm[k] = normalise (tokens[k]);
	  free (tokens[k]);
	}
      qsort (norm, (size_t) n, sizeof *norm, compare_strings);
      char *joined = join_unique (norm, n);
      for (int k = 0; k < n; k++)
	free (norm[k]);
      free (line);
      h = bench_mix (h, strlen (joined));
      h = bench_mix (h, (unsigned char) joined[strlen (joined) / 2]);
      free (history[i % HISTORY]);
      history[i % HISTORY] = joined;
    }
  for (int i = 0; i < HISTORY; i++)
    free (history[i]);
  printf ("string_proc lines=%ld checksum=%016llx\n", lines,
	  (unsigned long long) h);
  return 0;
}
