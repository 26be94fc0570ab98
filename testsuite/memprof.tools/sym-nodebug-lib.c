/* Library for symbolize.exp: nodebug_twice, a function written in asm
   with call frame information but no debug information, calls its
   argument twice, from two call sites: two contexts, which its lack of
   lines made one (pigz's five calls of malloc in zlib's deflateInit2_,
   a library without debug information).  */

__asm__ (".text\n"
	 "\t.globl nodebug_twice\n"
	 "\t.type nodebug_twice, @function\n"
	 "nodebug_twice:\n"
	 "\t.cfi_startproc\n"
	 "\tpushq %rbx\n"
	 "\t.cfi_def_cfa_offset 16\n"
	 "\t.cfi_offset 3, -16\n"
	 "\tmovq %rdi, %rbx\n"
	 "\tcall *%rbx\n"
	 "\tcall *%rbx\n"
	 "\tpopq %rbx\n"
	 "\t.cfi_def_cfa_offset 8\n"
	 "\tret\n"
	 "\t.cfi_endproc\n"
	 "\t.size nodebug_twice, .-nodebug_twice\n");
