/* The GCC plugin headers (GCC 11 and 12), in the one order that
   compiles, then gcc-compat.h for what differs between those GCCs.
   Every source file of the plugin includes this first: GCC's system.h
   poisons malloc and friends, so standard headers must come before it.  */

#ifndef MEMPROF_GCC_HEADERS_H
#define MEMPROF_GCC_HEADERS_H

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "cgraph.h"
#include "fold-const.h"
#include "gimplify.h"
#include "gimple-iterator.h"
#include "gimplify-me.h"
#include "tree-cfg.h"
#include "stringpool.h"
#include "varasm.h"
#include "tree-iterator.h"
#include "stor-layout.h"
#include "diagnostic-core.h"
#include "alias.h"
#include "context.h"
#include "tree-ssa-address.h"
#include "internal-fn.h"
#include "attribs.h"
#include "toplev.h"
#include "langhooks.h"
#include "ggc.h"
#include "tree-ssa-alias.h"
#include "cfgloop.h"
#include "tree-eh.h"
#include "asan.h"
#include "builtins.h"
#include "output.h"

#include "gcc-compat.h"

#define MEMPROF_NO_ABI_DECLS
#include "memprof/abi.h"

#endif /* MEMPROF_GCC_HEADERS_H */
