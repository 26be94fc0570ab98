"""The benchmark workloads and the scales they run at.

Scale 100 is a full run (about 0.5-2 s uninstrumented on the reference
machine); the DHAT runs use a reduced scale because Valgrind is 20-100x
slower; quick mode shrinks everything."""

from dataclasses import dataclass, field


@dataclass
class Workload:
    name: str
    source: str            # under bench/workloads/
    cxx: bool = False
    libs: list = field(default_factory=list)
    # Whether allocation counts per site are deterministic, so DHAT's and
    # ours must agree exactly.
    deterministic: bool = True
    description: str = ""


WORKLOADS = [
    Workload("churn_tree", "churn_tree.c",
             description="treap insert/delete churn plus a bursty "
                         "linked-list event queue"),
    Workload("hash_strings", "hash_strings.c",
             description="chained hash table of strdup'd strings with "
                         "pruning and rehashing"),
    Workload("array_sweep", "array_sweep.c",
             description="stencil, histogram and pointer chase over large "
                         "heap arrays; exact access counts known"),
    Workload("string_proc", "string_proc.c",
             description="tokenise, normalise, sort and join many short "
                         "strings"),
    Workload("cxx_containers", "cxx_containers.cc", cxx=True,
             description="std::map, std::unordered_map, std::vector and "
                         "std::string in application-style code"),
    Workload("mt_stress", "mt_stress.c", libs=["-pthread"],
             description="3 producer and 2 consumer threads; blocks freed "
                         "by another thread than allocated them"),
    Workload("server_sim", "server_sim.c",
             description="long-lived server: start-up tables live to exit, "
                         "per-request buffers, bounded LRU cache"),
    # Shapes users' programs have and ours above did not (issue 12).
    Workload("bignum_deep", "bignum_deep.c",
             description="26 M 8-32 byte limb arrays made up to 16 "
                         "frames deep by a chain of 15 functions"),
    Workload("rec_tree", "rec_tree.c",
             description="recursive BST insert/erase, two recursive call "
                         "sites each; 500,000 32-byte nodes"),
    Workload("malloc_window", "malloc_window.c", libs=["-pthread"],
             description="malloc micro-benchmark: 3 threads, sliding "
                         "window of 1,024 blocks of 16..4096 bytes"),
    Workload("cxx_index", "cxx_index.cc", cxx=True,
             description="sliding window of documents in std::map, word "
                         "postings in std::unordered_map of std::vector"),
    # Found on duktape: an interpreter's start-up blocks, one of each
    # size, touched by every instruction.
    Workload("interp_vm", "interp_vm.c",
             description="bytecode interpreter: its state in 6 long-lived "
                         "blocks of 6 sizes read by every instruction; "
                         "small arrays made and dropped"),
]


@dataclass
class Scales:
    timing: int        # scale of the timed runs
    runs: int          # timed runs per build
    dhat: int          # reduced scale for DHAT and the fidelity runs
    dhat_runs: int
    large_tu_functions: int
    compile_runs: int
    merge_profiles: int
    scale_levels: int  # tools_scale: 4 ** LEVELS allocation contexts
    scale_runs: int    # tools_scale: timed runs of each tool


FULL = Scales(timing=100, runs=11, dhat=3, dhat_runs=3,
              large_tu_functions=100, compile_runs=3, merge_profiles=100,
              scale_levels=10, scale_runs=3)
QUICK = Scales(timing=10, runs=3, dhat=1, dhat_runs=1,
               large_tu_functions=15, compile_runs=1, merge_profiles=100,
               scale_levels=8, scale_runs=1)
