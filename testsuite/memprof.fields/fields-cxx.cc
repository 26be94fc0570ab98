// C++ field reports: new Item (one object), new Item[n] and a
// std::vector<Item>'s storage (arrays: slots folded per Item), each with
// a hot id, a warm score and a never-touched name; and new Owned[n] of a
// class with a destructor, whose block starts with the 8-byte array
// cookie (the element count) before the objects.
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

#include <vector>

struct Item
{
  long id;
  double score;
  char name[48];
};

Item *
make_one ()
{
  Item *p = new Item;
  p->id = 0;
  return p;
}

Item *
make_many (int n)
{
  Item *p = new Item[n];
  for (int i = 0; i < n; i++)
    p[i].id = 0;
  return p;
}

struct Owned
{
  long id;
  double score;
  char name[48];
  ~Owned () {}
};

long
use_owned (int n)
{
  Owned *p = new Owned[n];
  for (int i = 0; i < n; i++)
    p[i].id = i;
  long sum = 0;
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < n; i++)
      sum += p[i].id;
  for (int i = 0; i < n; i++)
    p[i].score = 1.0;
  delete[] p;
  return sum;
}

long
use (Item *items, int n, int rounds)
{
  long sum = 0;
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < n; i++)
      sum += items[i].id;
  for (int i = 0; i < n; i++)
    items[i].score = 1.0;
  return sum;
}

int
main ()
{
  Item *one = make_one ();
  Item *many = make_many (10);
  std::vector<Item> v (20);
  long sum = use (one, 1, 100) + use (many, 10, 10) + use (v.data (), 20, 5);
  delete one;
  delete[] many;
  return sum == 0 && use_owned (10) == 135 ? 0 : 1;
}

// new Item: id set once and read 100 times, score written once; new
// Item[10]: each id set once and read 10 times; the vector's 20 Items
// are value-initialised by the library (its own accesses), then each id
// read 5 times and each score written once.
/* { dg-final { memprof-record fn=_Z8make_onev<main type.size==64 total_size==64 fields(id).accesses==101 fields(score).accesses==1 fields(name).accesses==0 fields(name).cold==1 } } */
/* { dg-final { memprof-record fn=_Z9make_manyi<main type.size==64 total_size==640 fields(id).accesses==110 fields(score).accesses==10 fields(name).accesses==0 fields(name).cold==1 } } */
/* { dg-final { memprof-record file=new_allocator.h type.size==64 total_size==1280 fields(id).accesses>=100 fields(score).accesses>=20 } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(name: 48 bytes\) out of Item: its hot fields would take 16 bytes of cache lines per object instead of 64 \(48 saved per object, 480 over its 10 objects\)$} --function=make_many } } */
// new Owned[10]: 8 + 640 bytes, the cookie written by new[] and read
// twice by delete[] at -O0 (the destructor loop's count and operator
// delete[]'s size); each id set once and read 3 times, each score
// written once.
/* { dg-final { memprof-record fn=_Z9use_ownedi<main type.size==64 total_size==648 fields.0.size==8 fields.0.accesses==3 fields(id).accesses==40 fields(score).accesses==10 fields(name).accesses==0 fields(name).cold==1 } } */
/* { dg-final { memprof-fields-scan {^objects: +10 in 1 block \(arrays: slots folded per object\)$} --function=use_owned } } */
/* { dg-final { memprof-fields-scan {^ +- +8 +3 +[0-9.]+%  \(array cookie: new\[\]'s element count, before the first object\)$} } } */
/* { dg-final { memprof-fields-scan {^type: +Item, 64 bytes \(from .*fields-cxx\.cc\.exe\)$} --by-type } } */
/* { dg-final { memprof-fields-scan {^objects: +31 in 3 blocks \(arrays: slots folded per object\) from 3 contexts$} --by-type } } */
