/* The allocation-site type table: written by the GCC plugin into every
   object file it compiles, read by memprof-merge and memprof-dump from
   each module (executable or shared library) of a profile.  This header
   is the only definition of the format.

   The table is the non-allocated ELF section MEMPROF_TYPE_SECTION (the
   linker concatenates the objects' pieces; nothing of it is loaded at
   run time, so it costs the profiled program nothing).  It is a sequence
   of records, each MEMPROF_TYPE_RECORD_FIELDS NUL-terminated strings:

     MEMPROF_TYPE_RECORD_TAG   starts every record (and tells versions
                               apart: a reader skips a record whose tag
                               it does not know, up to the next tag)
     function    the function that contains the call as its DWARF names
                 it: the linkage (assembler) name, or the plain name when
                 that is the same (C); an inlined body keeps the name of
                 the function it was inlined from
     file        the call's source file, absolute
     line        decimal
     column      decimal (0: none)
     type        the allocated type's name, empty when the site's type is
                 unknown (a void * or char * buffer, or two different
                 types: never a guess)
     size        decimal, the type's size in bytes (TYPE_SIZE_UNIT; for
                 new T[n] and calloc (n, sizeof (T)) the element's); 0
                 when unknown or incomplete

   A type record may be followed by a prefix record of
   MEMPROF_TYPE_PREFIX_FIELDS strings:

     MEMPROF_TYPE_PREFIX_TAG   the site's blocks are not arrays of its
                               type (a structure): the call's size is
                               not a constant nor a product by a
                               multiple of the type's size (a parameter,
                               a sum: luaC_newobj's GCObject, a struct
                               with a flexible array member), so the
                               type is the header of larger blocks
     function, file, line, column   as the type record's

   Readers that do not know it skip it (up to the next tag they know).

   A call with no record because its function returns its block a
   constant past the block's start (an allocator keeping a size header
   before the block, as SQLite's sqlite3MemMalloc) has an offset record
   of MEMPROF_TYPE_OFFSET_FIELDS strings instead:

     MEMPROF_TYPE_OFFSET_TAG   the block leaves the function OFFSET
                               bytes past its start: the type the
                               caller's site names starts there
     function, file, line, column   as the type record's
     offset      decimal, bytes (nonzero)

   A reader adds the offsets of the frames it passes on its way out to
   the frame that decides.
   Zero bytes between records (section alignment padding) are skipped.
   A site is a call whose result is an allocated block: a call to an
   allocation function (malloc, calloc, realloc, aligned_alloc,
   posix_memalign, operator new, anything declared with the malloc
   attribute) or to any function returning void * (an allocation wrapper
   such as xmalloc), or a call given the address of one local pointer
   variable that keeps no pointer result (an allocator handing its block
   out through a parameter, as posix_memalign).  A call whose untyped
   result is only returned from its function, or whose result is
   returned a constant past its start (after a size header), or stored
   untyped through a pointer parameter, has no record: its caller's call
   site decides.  A reader
   joins the table with a symbolized stack: the innermost frame that has
   a record decides (type or unknown).  */

#ifndef MEMPROF_TYPE_TABLE_H
#define MEMPROF_TYPE_TABLE_H

#define MEMPROF_TYPE_SECTION ".memprof.types"
#define MEMPROF_TYPE_RECORD_TAG "memprof-type-1"
#define MEMPROF_TYPE_RECORD_FIELDS 7
#define MEMPROF_TYPE_PREFIX_TAG "memprof-type-prefix-1"
#define MEMPROF_TYPE_PREFIX_FIELDS 5
#define MEMPROF_TYPE_OFFSET_TAG "memprof-type-offset-1"
#define MEMPROF_TYPE_OFFSET_FIELDS 6

#endif /* MEMPROF_TYPE_TABLE_H */
