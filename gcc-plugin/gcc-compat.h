/* The GCC internals that differ between the GCCs the plugin builds for
   (GCC 11 and 12), in one place.  The plugin's code is written against
   GCC 12's interfaces; for an older GCC this header supplies what it
   lacks, keyed on GCCPLUGIN_VERSION_MAJOR from plugin-version.h.  A port
   to another GCC adds its differences here (HACKING.md, "Porting to
   another GCC").  Included by gcc-headers.h, after GCC's own headers.  */

#ifndef MEMPROF_GCC_COMPAT_H
#define MEMPROF_GCC_COMPAT_H

#if GCCPLUGIN_VERSION_MAJOR < 11
#error "gcc-memprof needs GCC 11 or later"
#endif

/* GCC 12 folds "__atomic_OP_fetch (p, v) == 0" into the internal
   functions IFN_ATOMIC_OP_FETCH_CMP_0, which read and write *p.  GCC 11
   has no such fold: the builtin call stays, and is seen as one.  */
inline bool
memprof_ifn_atomic_fetch_cmp_0_p (internal_fn fn)
{
#if GCCPLUGIN_VERSION_MAJOR >= 12
  switch (fn)
    {
    case IFN_ATOMIC_ADD_FETCH_CMP_0:
    case IFN_ATOMIC_SUB_FETCH_CMP_0:
    case IFN_ATOMIC_AND_FETCH_CMP_0:
    case IFN_ATOMIC_OR_FETCH_CMP_0:
    case IFN_ATOMIC_XOR_FETCH_CMP_0:
      return true;
    default:
      return false;
    }
#else
  (void) fn;
  return false;
#endif
}

/* Set up the loop tree without changing the CFG, with irreducible
   regions marked (BB_IRREDUCIBLE_LOOP).  GCC 12's loop_optimizer_init
   takes both flags; GCC 11's asserts that AVOID_CFG_MODIFICATIONS comes
   alone, so the marking is asked for separately.  */
inline void
memprof_loop_optimizer_init_marked ()
{
#if GCCPLUGIN_VERSION_MAJOR >= 12
  loop_optimizer_init (AVOID_CFG_MODIFICATIONS
		       | LOOPS_HAVE_MARKED_IRREDUCIBLE_REGIONS);
#else
  loop_optimizer_init (AVOID_CFG_MODIFICATIONS);
  mark_irreducible_loops ();
#endif
}

#if GCCPLUGIN_VERSION_MAJOR < 12

/* GCC 12's system.h has startswith.  */
inline bool
startswith (const char *str, const char *prefix)
{
  return strncmp (str, prefix, strlen (prefix)) == 0;
}

/* GCC 12 iterates loops with "for (auto loop : loops_list (fn, flags))";
   GCC 11 has the FOR_EACH_LOOP_FN macro over the same loop_iterator.  */
class loops_list
{
public:
  loops_list (function *fn, unsigned flags)
  {
    class loop *loop;
    FOR_EACH_LOOP_FN (fn, loop, flags)
      m_loops.safe_push (loop);
  }
  class loop **begin () { return m_loops.begin (); }
  class loop **end () { return m_loops.end (); }

private:
  auto_vec<class loop *> m_loops;
};

#endif /* GCCPLUGIN_VERSION_MAJOR < 12 */

#endif /* MEMPROF_GCC_COMPAT_H */
