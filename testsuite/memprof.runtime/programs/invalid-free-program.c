/* Frees a pointer badly, as argv[1] says, after six good blocks from
   make_block (100 bytes each, each written once): "double" frees the
   last block twice, "stack" frees a stack address, "interior" frees a
   pointer into a live block, "realloc" reallocs a freed block.  Each
   prints the bad pointer and bad_free's address on stderr first.  Then
   prints "survived" and exits 3 (when invalid frees do not abort).  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline)) static char *
make_block (void)
{
  return malloc (100);
}

__attribute__ ((noinline)) static void
bad_free (void *p)
{
  free (p);
}

int
main (int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "double";
  char *p = NULL;
  /* Where the reported stack must start.  */
  fprintf (stderr, "bad_free at %p\n", (void *) bad_free);
  for (int i = 0; i < 6; i++)
    {
      p = make_block ();
      p[0] = (char) i;
      free (p);
    }
  if (strcmp (how, "double") == 0)
    {
      fprintf (stderr, "bad pointer %p\n", (void *) p);
      bad_free (p);
    }
  else if (strcmp (how, "stack") == 0)
    {
      char local[64];
      local[0] = 1;
      fprintf (stderr, "bad pointer %p\n", (void *) (local + 32));
      bad_free (local + 32);
    }
  else if (strcmp (how, "interior") == 0)
    {
      char *q = malloc (200);
      fprintf (stderr, "bad pointer %p\n", (void *) (q + 64));
      bad_free (q + 64);
      free (q);
    }
  else if (strcmp (how, "realloc") == 0)
    {
      fprintf (stderr, "bad pointer %p\n", (void *) p);
      if (realloc (p, 50))
        return 4;
    }
  printf ("survived\n");
  return 3;
}
