// Poly's key function: its vtable and full description are emitted in
// this unit only (type-layout.exp, layout-types.cc).
struct Poly
{
  virtual void key ();
  long pid;
};

void
Poly::key ()
{
}
