// new Holder (n) calls operator new and then Holder's constructor from
// one source position; the constructor's own allocations (a
// std::string's buffer, made inside libstdc++.so, which has no type
// table) must not take Holder's record: a constructor returns no block,
// so the walk out from their frames stops there (type unknown).  Only
// the new-expression's own block is a Holder.  The same through a
// template constructor: new std::wstring (L"...")'s character buffer,
// made in frames inlined from the template constructor
// basic_string<std::allocator<wchar_t> > (const wchar_t *, ...), was
// typed std::wstring.
/* { dg-do run } */

#include <string>
#include <memory>

struct Holder
{
  std::string name;
  long values[20];
  explicit Holder (int n) : name (n, 'x') { values[0] = n; }
};

__attribute__ ((noinline)) Holder *
make (int n)
{
  return new Holder (n);
}

__attribute__ ((noinline)) std::wstring *
make_wide ()
{
  return new std::wstring (L"wider than the short string buffer");
}

int
main ()
{
  std::unique_ptr<std::wstring> w (make_wide ());
  long sum = 0;
  for (int i = 0; i < 10; i++)
    {
      Holder *h = make (100 + i);
      sum += h->values[0] + (long) h->name.size ();
      delete h;
    }
  return sum == 2 * (100 * 10 + 45) ? 0 : 1;
}

// { dg-final { memprof-record fn=_Z4makei<main alloc_count==10 type=Holder } }
// Every other record: no type Holder (its frame 0 is not make).
// { dg-final { memprof-dump-scan-not {type: +Holder[^\n]*\n(?:[^-\n][^\n]*\n)*at (?!make)} } }
// { dg-final { memprof-dump-scan {type: +Holder[^\n]*\n(?:[^-\n][^\n]*\n)*at make\(int\)} } }
// { dg-final { memprof-record fn=_Z9make_wideB5cxx11v<main alloc_count==1 type=std::__cxx11::basic_string<wchar_t,std::char_traits<wchar_t>,std::allocator<wchar_t>> } }
// { dg-final { memprof-dump-scan-not {type: +std::wstring[^\n]*\n(?:[^-\n][^\n]*\n)*at [^\n]*_M_construct} } }
