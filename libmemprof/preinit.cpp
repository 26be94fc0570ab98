// A .preinit_array entry that initialises the runtime before any
// constructor of the executable, so the shadow base is published before
// instrumented code can run.  .preinit_array is honoured in executables
// only, so this is compiled into libmemprof_preinit.o (linked into
// executables using libmemprof.so) and into libmemprof.a's static object
// (libtool defines PIC only for the shared library's objects).

#if !defined(PIC) || defined(MEMPROF_PREINIT_OBJECT)

extern "C" void __memprof_preinit (int argc, char **argv, char **envp);

__attribute__ ((section (".preinit_array"), used)) static void (
  *memprof_preinit_entry) (int, char **, char **)
  = __memprof_preinit;

#endif
