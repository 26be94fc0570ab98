// C++ field reports of a class with a base and a vtable: the vtable
// pointer is never cold (the ABI places it; constructors write it and
// only virtual calls read it), and the suggestion says which cold field
// moves out of the class and which out of its base.  1000 objects, each
// constructed (the vtable pointer written by both constructors), its
// cold fields written once, its hot fields read 100 times, destroyed
// through the base (one virtual call reads the vtable pointer, the two
// destructors write it again).
/* { dg-do run } */
/* { dg-options "-O0 -fheapprof-histogram" } */

struct Base
{
  long hot_b;
  long cold_b[6];
  virtual ~Base () {}
};

struct Derived : Base
{
  long hot_d;
  long cold_d[6];
};

// Only Base (no cold field of its own): the suggestion names the base.
struct OnlyBaseCold : Base
{
  long hot_o;
};

Base *keep[1000];

long
walk (int rounds)
{
  long s = 0;
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < 1000; i++)
      s += keep[i]->hot_b + static_cast<Derived *> (keep[i])->hot_d;
  return s;
}

Derived *
make_derived ()
{
  Derived *d = new Derived;
  d->hot_b = 1;
  d->hot_d = 2;
  d->cold_b[0] = 0;
  d->cold_d[0] = 0;
  return d;
}

OnlyBaseCold *
make_only ()
{
  OnlyBaseCold *o = new OnlyBaseCold;
  o->hot_b = 1;
  o->hot_o = 2;
  o->cold_b[0] = 0;
  return o;
}

int
main ()
{
  for (int i = 0; i < 1000; i++)
    keep[i] = make_derived ();
  long s = walk (100);
  for (int i = 0; i < 1000; i++)
    delete keep[i];
  for (int i = 0; i < 1000; i++)
    keep[i] = make_only ();
  for (int r = 0; r < 100; r++)
    for (int i = 0; i < 1000; i++)
      s += keep[i]->hot_b + static_cast<OnlyBaseCold *> (keep[i])->hot_o;
  for (int i = 0; i < 1000; i++)
    delete keep[i];
  return s == 42;
}

/* Derived: the vptr row has 1% exactly (4,000 of ...) or less: no [cold]. */
/* { dg-final { memprof-fields-scan {^\s+0\s+8\s+\d+\s+\S+%  Base::_vptr\.Base$} --function=make_derived } } */
/* { dg-final { memprof-fields-scan {^\s+16\s+48\s+1000\s+\S+%  Base::cold_b  \[cold\]$} --function=make_derived } } */
/* { dg-final { memprof-fields-scan {^\s+72\s+48\s+1000\s+\S+%  cold_d  \[cold\]$} --function=make_derived } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(cold_d: 48 bytes\) out of Derived and \(Base::cold_b: 48 bytes\) out of its base class Base: Derived's hot fields would take 24 bytes of cache lines per object instead of 120 \(96 saved per object, 96000 over its 1000 objects\)$} --function=make_derived } } */
/* { dg-final { memprof-fields-scan {^suggestion: move the cold fields \(Base::cold_b: 48 bytes\) out of OnlyBaseCold's base class Base: OnlyBaseCold's hot fields would take 24 bytes of cache lines per object instead of 72 \(48 saved per object, 48000 over its 1000 objects\)$} --function=make_only } } */
/* { dg-final { memprof-fields-scan-not {_vptr[^\n]*\[cold\]} } } */
