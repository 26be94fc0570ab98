/* The second unit of histogram-mix-main.c.  */
void
touch (long *p)
{
  p[3] = 2;
}
