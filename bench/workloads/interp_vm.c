/* A bytecode interpreter: its state lives in a few long-lived heap
   blocks of different sizes, allocated at start-up and touched by every
   instruction (the VM's registers, the value stack, the call frames,
   the globals, the constants, the code), while the program it runs
   makes and drops small array objects.  Stands for duktape, Lua, mujs
   and Tcl: each holds its interpreter state that way, and a profiler's
   allocator that puts those blocks where they evict one another (one
   block of each size class, the classes' regions 64 GiB apart: the
   same cache set) makes every instruction miss.  */

#include "bench-common.h"
#include <string.h>

enum op
{
  OP_PUSHK, OP_PUSHG, OP_SETG, OP_PUSHL, OP_SETL, OP_ADD, OP_SUB, OP_MUL,
  OP_LT, OP_JMPF, OP_JMP, OP_CALL, OP_RET, OP_NEWARR, OP_GETIDX, OP_FREEARR,
  OP_POP, OP_HALT
};

struct array
{
  long len;
  int64_t item[];
};

struct value
{
  int64_t tag;            /* 0: integer, 1: array */
  union
  {
    int64_t i;
    struct array *a;
  } u;
};

struct frame
{
  const int32_t *return_pc;
  struct value *base;     /* its arguments and locals */
  long nlocals;
  long calls;
  int64_t spare[2];
};

/* The interpreter's registers and statistics: one block, read and
   written by every instruction.  */
struct vm
{
  const int32_t *pc;
  struct value *sp, *stack, *stack_end;
  struct frame *fp, *frames;
  struct value *globals, *constants;
  int32_t *code;
  long steps, calls, arrays_made, arrays_freed;
  int64_t scratch[60];
};

#define STACK_VALUES 4096
#define MAX_FRAMES 256
#define NGLOBALS 64
#define NCONSTANTS 96

static int64_t
run (struct vm *vm)
{
  for (;;)
    {
      int32_t op = *vm->pc++;
      vm->steps++;
      switch (op)
	{
	case OP_PUSHK:
	  *vm->sp++ = vm->constants[*vm->pc++];
	  break;
	case OP_PUSHG:
	  *vm->sp++ = vm->globals[*vm->pc++];
	  break;
	case OP_SETG:
	  vm->globals[*vm->pc++] = *--vm->sp;
	  break;
	case OP_PUSHL:
	  *vm->sp++ = vm->fp->base[*vm->pc++];
	  break;
	case OP_SETL:
	  vm->fp->base[*vm->pc++] = *--vm->sp;
	  break;
	case OP_ADD:
	  vm->sp--;
	  vm->sp[-1].u.i += vm->sp[0].u.i;
	  break;
	case OP_SUB:
	  vm->sp--;
	  vm->sp[-1].u.i -= vm->sp[0].u.i;
	  break;
	case OP_MUL:
	  vm->sp--;
	  vm->sp[-1].u.i = (vm->sp[-1].u.i * vm->sp[0].u.i) & 0xffffffffff;
	  break;
	case OP_LT:
	  vm->sp--;
	  vm->sp[-1].u.i = vm->sp[-1].u.i < vm->sp[0].u.i;
	  break;
	case OP_JMPF:
	  {
	    int32_t target = *vm->pc++;
	    if (!(--vm->sp)->u.i)
	      vm->pc = vm->code + target;
	    break;
	  }
	case OP_JMP:
	  vm->pc = vm->code + *vm->pc;
	  break;
	case OP_CALL:
	  {
	    /* CALL target nargs nlocals: the arguments are on the stack.  */
	    int32_t target = vm->pc[0], nargs = vm->pc[1];
	    int32_t nlocals = vm->pc[2];
	    struct frame *f = ++vm->fp;
	    if (f == vm->frames + MAX_FRAMES)
	      abort ();
	    f->return_pc = vm->pc + 3;
	    f->base = vm->sp - nargs;
	    f->nlocals = nlocals;
	    f->calls++;
	    for (int i = nargs; i < nlocals; i++)
	      *vm->sp++ = (struct value) { 0, { 0 } };
	    vm->calls++;
	    vm->pc = vm->code + target;
	    break;
	  }
	case OP_RET:
	  {
	    struct value result = vm->sp[-1];
	    struct frame *f = vm->fp--;
	    vm->sp = f->base;
	    *vm->sp++ = result;
	    vm->pc = f->return_pc;
	    break;
	  }
	case OP_NEWARR:
	  {
	    /* NEWARR n: the top N values become an array.  */
	    int32_t n = *vm->pc++;
	    struct array *a = malloc (sizeof *a + n * sizeof a->item[0]);
	    a->len = n;
	    vm->sp -= n;
	    for (int i = 0; i < n; i++)
	      a->item[i] = vm->sp[i].u.i;
	    vm->arrays_made++;
	    *vm->sp++ = (struct value) { 1, { .a = a } };
	    break;
	  }
	case OP_GETIDX:
	  {
	    /* array index -> item */
	    int64_t i = (--vm->sp)->u.i;
	    struct array *a = vm->sp[-1].u.a;
	    vm->sp[-1] = (struct value) { 0, { a->item[i % a->len] } };
	    break;
	  }
	case OP_FREEARR:
	  {
	    /* FREEARR local: drop the array held in a local.  */
	    struct value *v = &vm->fp->base[*vm->pc++];
	    free (v->u.a);
	    v->tag = 0;
	    v->u.i = 0;
	    vm->arrays_freed++;
	    break;
	  }
	case OP_POP:
	  vm->sp--;
	  break;
	case OP_HALT:
	  return vm->globals[0].u.i;
	default:
	  abort ();
	}
    }
}

/* The program, as code emitted into VM->code:

     k(x):    a = [x, x*3, x+7, x*x]; s = a[x] + a[x+1] + a[x+2];
	      drop a; return s
     main:    g0 = 0; i = 0
	      while (i < N) { g0 = g0 + k(i) * k(i + 1); i = i + 1 }
	      halt

   Constants: 0: 0, 1: 1, 2: N, 3: 3, 4: 7, 5: 2.  */
static int32_t
emit (int32_t *code, int32_t *n, int32_t a)
{
  code[(*n)++] = a;
  return *n - 1;
}

static void
compile (struct vm *vm)
{
  int32_t *c = vm->code, n = 0;
  /* main */
  emit (c, &n, OP_JMP);
  int32_t main_at = emit (c, &n, 0);
  /* k: local 0 = x, local 1 = a, local 2 = s */
  int32_t k = n;
  emit (c, &n, OP_PUSHL), emit (c, &n, 0);
  emit (c, &n, OP_PUSHL), emit (c, &n, 0);
  emit (c, &n, OP_PUSHK), emit (c, &n, 3);
  emit (c, &n, OP_MUL);
  emit (c, &n, OP_PUSHL), emit (c, &n, 0);
  emit (c, &n, OP_PUSHK), emit (c, &n, 4);
  emit (c, &n, OP_ADD);
  emit (c, &n, OP_PUSHL), emit (c, &n, 0);
  emit (c, &n, OP_PUSHL), emit (c, &n, 0);
  emit (c, &n, OP_MUL);
  emit (c, &n, OP_NEWARR), emit (c, &n, 4);
  emit (c, &n, OP_SETL), emit (c, &n, 1);
  for (int j = 0; j < 3; j++)
    {
      emit (c, &n, OP_PUSHL), emit (c, &n, 1);
      emit (c, &n, OP_PUSHL), emit (c, &n, 0);
      emit (c, &n, OP_PUSHK), emit (c, &n, j == 0 ? 0 : j == 1 ? 1 : 5);
      emit (c, &n, OP_ADD);
      emit (c, &n, OP_GETIDX);
      if (j > 0)
	emit (c, &n, OP_ADD);
    }
  emit (c, &n, OP_SETL), emit (c, &n, 2);
  emit (c, &n, OP_FREEARR), emit (c, &n, 1);
  emit (c, &n, OP_PUSHL), emit (c, &n, 2);
  emit (c, &n, OP_RET);
  /* main */
  c[main_at] = n;
  emit (c, &n, OP_PUSHK), emit (c, &n, 0);
  emit (c, &n, OP_SETG), emit (c, &n, 0);
  emit (c, &n, OP_PUSHK), emit (c, &n, 0);
  emit (c, &n, OP_SETG), emit (c, &n, 1);
  int32_t loop = n;
  emit (c, &n, OP_PUSHG), emit (c, &n, 1);
  emit (c, &n, OP_PUSHK), emit (c, &n, 2);
  emit (c, &n, OP_LT);
  emit (c, &n, OP_JMPF);
  int32_t exit_at = emit (c, &n, 0);
  emit (c, &n, OP_PUSHG), emit (c, &n, 0);
  emit (c, &n, OP_PUSHG), emit (c, &n, 1);
  emit (c, &n, OP_CALL), emit (c, &n, k), emit (c, &n, 1), emit (c, &n, 3);
  emit (c, &n, OP_PUSHG), emit (c, &n, 1);
  emit (c, &n, OP_PUSHK), emit (c, &n, 1);
  emit (c, &n, OP_ADD);
  emit (c, &n, OP_CALL), emit (c, &n, k), emit (c, &n, 1), emit (c, &n, 3);
  emit (c, &n, OP_MUL);
  emit (c, &n, OP_ADD);
  emit (c, &n, OP_SETG), emit (c, &n, 0);
  emit (c, &n, OP_PUSHG), emit (c, &n, 1);
  emit (c, &n, OP_PUSHK), emit (c, &n, 1);
  emit (c, &n, OP_ADD);
  emit (c, &n, OP_SETG), emit (c, &n, 1);
  emit (c, &n, OP_JMP), emit (c, &n, loop);
  c[exit_at] = n;
  emit (c, &n, OP_HALT);
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  struct vm *vm = calloc (1, sizeof *vm);
  vm->stack = calloc (STACK_VALUES, sizeof *vm->stack);
  vm->stack_end = vm->stack + STACK_VALUES;
  vm->frames = calloc (MAX_FRAMES, sizeof *vm->frames);
  vm->globals = calloc (NGLOBALS, sizeof *vm->globals);
  vm->constants = calloc (NCONSTANTS, sizeof *vm->constants);
  vm->code = calloc (1024, sizeof *vm->code);
  int64_t constants[] = { 0, 1, 15000 * scale, 3, 7, 2 };
  for (int i = 0; i < 6; i++)
    vm->constants[i].u.i = constants[i];
  compile (vm);
  vm->pc = vm->code;
  vm->sp = vm->stack;
  vm->fp = vm->frames;
  vm->fp->base = vm->stack;
  int64_t result = run (vm);
  if (vm->arrays_made != vm->arrays_freed)
    abort ();
  printf ("interp_vm %016llx\n",
	  (unsigned long long) bench_mix (bench_mix ((uint64_t) result,
						     (uint64_t) vm->steps),
					  (uint64_t) vm->calls));
  free (vm->code);
  free (vm->constants);
  free (vm->globals);
  free (vm->frames);
  free (vm->stack);
  free (vm);
  return 0;
}
