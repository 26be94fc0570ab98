// -fheapprof-use in C++: the cold site's operator new and the hot site's
// nothrow operator new get their __hot_cold_t forms (use.exp).
#include <cstdio>
#include <new>

struct Blob { char bytes[4096]; };
struct Cell { unsigned long v[64]; };

static Blob *cold_blobs[64];

__attribute__ ((noinline)) static void
make_cold ()
{
  for (int i = 0; i < 64; i++)
    {
      cold_blobs[i] = new Blob; // cold site
      cold_blobs[i]->bytes[0] = (char) i;
    }
}

__attribute__ ((noinline)) static unsigned long
hot_round (int r)
{
  Cell *c = new (std::nothrow) Cell; // hot site
  for (int i = 0; i < 64; i++)
    c->v[i] = i + r;
  unsigned long s = 0;
  for (int k = 0; k < 200; k++)
    for (int i = 0; i < 64; i++)
      s += c->v[i] * k;
  delete c;
  return s;
}

int
main ()
{
  make_cold ();
  unsigned long sum = 0;
  for (int r = 0; r < 3000; r++)
    sum += hot_round (r);
  std::printf ("sum %lu\n", sum);
  for (int i = 0; i < 64; i++)
    delete cold_blobs[i];
}
