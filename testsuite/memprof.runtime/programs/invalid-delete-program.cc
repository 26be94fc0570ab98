// invalid-free-program.c's double free through operator delete: six
// 100-byte objects from make_block, each written once and deleted, then
// the last one deleted again by bad_free.  Prints the pointer and
// bad_free's address on stderr first; "survived" and exit 3 when
// invalid frees do not abort.

#include <cstdio>

struct Block
{
  int v[25];
};

__attribute__ ((noinline)) static Block *
make_block ()
{
  return new Block;
}

__attribute__ ((noinline)) static void
bad_free (Block *p)
{
  delete p;
}

int
main ()
{
  std::fprintf (stderr, "bad_free at %p\n", (void *) bad_free);
  Block *p = nullptr;
  for (int i = 0; i < 6; i++)
    {
      p = make_block ();
      p->v[0] = i;
      delete p;
    }
  std::fprintf (stderr, "bad pointer %p\n", (void *) p);
  bad_free (p);
  std::printf ("survived\n");
  return 3;
}
