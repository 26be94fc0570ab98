// A block allocated inside libstdc++.so (std::string::reserve's) and
// touched by the program at one byte: its utilisation is what the
// instrumented code did, not the library's own copies, so the flag says
// so, as "never accessed" does for libc's FILE (libsass's
// basic_string::reserve blocks, filled by num_put inside the library,
// read plainly "low utilisation").
/* { dg-do run } */
/* { dg-options "-O2" } */

#include <string>

int
main ()
{
  long n = 0;
  for (int i = 0; i < 3; i++)
    {
      std::string s;
      s.reserve (4000);
      s.push_back ('x');
      n += s.size ();
    }
  return n == 3 ? 0 : 1;
}

/* { dg-final { memprof-dump-scan {^flags: +(short-lived, )?low utilisation by instrumented code \(allocated inside libstdc\+\+\.so\.6\)$} } } */
