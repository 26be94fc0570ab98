/* The executable of fields-modules.exp: uses the library's type only
   through its functions.  */
struct libobj;
struct libobj *lib_new (void);
void lib_bump (struct libobj *o, int n);
void lib_free (struct libobj *o);

int
main (void)
{
  struct libobj *o = lib_new ();
  lib_bump (o, 100);
  lib_free (o);
  return 0;
}
