// Blocks of 8 + 3 * 16 bytes, two ways: new Owned[3] of a class with a
// destructor (8 bytes of array cookie, then three objects) and a C-style
// 16-byte header type allocated at 56 bytes (no cookie: the rest lies
// past the type's end).  fields-cookie.exp reads them from the indexed
// profile, binaries gone.
#include <cstdlib>

struct Owned
{
  long id;
  long score;
  ~Owned () { id = 0; }
};

extern "C" {
struct header
{
  struct header *next;
  unsigned char tt, marked;
};
}

__attribute__ ((noinline)) Owned *
make_owned ()
{
  return new Owned[3];
}

__attribute__ ((noinline)) header *
make_header ()
{
  return static_cast<header *> (std::malloc (56));
}

int
main ()
{
  for (int i = 0; i < 10; i++)
    {
      Owned *o = make_owned ();
      o[0].id = i;
      delete[] o;
      header *h = make_header ();
      h->next = nullptr;
      std::free (h);
    }
  return 0;
}
