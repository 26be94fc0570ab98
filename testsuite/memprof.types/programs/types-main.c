/* Links types-lib.c's library: its blocks are typed by the library's
   table, the blocks of the program's own type allocated through the
   library's wrapper by the program's.  */
#include <stdlib.h>

struct lib_node;
struct lib_node *lib_make (int id);
void *lib_alloc (size_t n);

struct app_rec
{
  char tag[20];
};

__attribute__ ((noinline)) static struct app_rec *
app_make (void)
{
  struct app_rec *r = lib_alloc (sizeof *r);
  r->tag[0] = 'a';
  return r;
}

int
main (void)
{
  for (int i = 0; i < 4; i++)
    free (lib_make (i));
  for (int i = 0; i < 2; i++)
    free (app_make ());
  return 0;
}
