/* The executable of alloc-before-init.exp: the block its library's
   constructor made is intact, and freeing it works.  */

extern char *early_block;

int
main (void)
{
  if (!early_block)
    return 2;
  for (int i = 0; i < 300; i++)
    if (early_block[i] != 'e')
      return 1;
  __builtin_free (early_block);
  return 0;
}
