"""The six ways each workload is built (and one more way to run one),
and building them.

  gcc           gcc -O2 -g                                 (baseline)
  memprof       gcc -O2 -g -specs=BUILD/memprof.specs -fheapprof=DIR
  memprof-hist  the same plus -fheapprof-histogram         (histogram mode)
  memprof-sampled  the memprof binary, run with
                MEMPROF_OPTIONS=sample_interval=SAMPLE_INTERVAL (the
                sampling mode; not a build of its own)
  clang         clang -O2 -g                               (baseline)
  llvm-memprof  clang -O2 -g -fmemory-profile=DIR          (LLVM MemProf)
  llvm-memprof-fp  the same plus LLVM_FRAME_POINTER_FLAGS   (as its docs ask)

Each workload is compiled to an object first (for the code-size figure)
and then linked, with the same driver flags, so the profiling runtime is
linked in exactly as a user would get it."""

import os
import shutil
import subprocess
from dataclasses import dataclass


# LLVM MemProf's documentation asks for these so that its frame-pointer
# unwinder records whole stacks; without them -O2 code omits frame
# pointers and sibling calls cut stacks short.  Both LLVM builds are
# timed: the default is what users get, this one the fair comparison of
# whole-stack profilers (ours always keeps frame pointers, via the specs).
LLVM_FRAME_POINTER_FLAGS = ["-fno-omit-frame-pointer",
                            "-fno-optimize-sibling-calls",
                            "-mno-omit-leaf-frame-pointer"]


# The sampling mode's interval the bench runs (issue 12's target), and
# its seed: fixed, so a run's estimates can be reproduced.
SAMPLE_INTERVAL = 1048576
SAMPLE_SEED = 1


@dataclass
class Build:
    name: str
    label: str
    cc: str
    cxx: str
    flags: list          # compile and link flags before -O2
    profiling: bool
    baseline: str        # the build this one's slowdown is relative to
    prof_flag: str = ""  # "-fheapprof=" or "-fmemory-profile=", DIR appended
    raw_glob: str = ""   # raw profile names in DIR
    # Not built: runs the binary of the build named RUNS_AS with
    # MEMPROF_OPTIONS=OPTIONS (profile_dir set to its own directory).
    runs_as: str = ""
    options: str = ""

    def env(self, prof_dir):
        """The environment of a run (None: inherited)."""
        if not self.options:
            return None
        env = dict(os.environ)
        env["MEMPROF_OPTIONS"] = "%s:profile_dir=%s" % (self.options,
                                                         prof_dir)
        return env

    def driver(self, cxx):
        return self.cxx if cxx else self.cc

    def cflags(self, prof_dir):
        extra = [self.prof_flag + prof_dir] if self.prof_flag else []
        return list(self.flags) + extra + ["-O2", "-g"]


def make_builds(builddir, gcc="gcc", gxx="g++", clang=None, clangxx=None):
    specs = os.path.join(builddir, "memprof.specs")
    builds = [
        Build("gcc", "gcc -O2", gcc, gxx, [], False, "gcc"),
        Build("memprof", "gcc -O2 -fheapprof (gcc-memprof)", gcc, gxx,
              ["-specs=" + specs], True, "gcc", "-fheapprof=",
              "*.memprofraw"),
        Build("memprof-hist", "gcc -O2 -fheapprof -fheapprof-histogram "
              "(gcc-memprof, histogram mode)", gcc, gxx,
              ["-specs=" + specs, "-fheapprof-histogram"], True, "gcc",
              "-fheapprof=", "*.memprofraw"),
        Build("memprof-sampled", "gcc -O2 -fheapprof, MEMPROF_OPTIONS="
              "sample_interval=%d (gcc-memprof sampled)" % SAMPLE_INTERVAL,
              gcc, gxx, ["-specs=" + specs], True, "gcc", "-fheapprof=",
              "*.memprofraw", runs_as="memprof",
              options="sample_interval=%d:sample_seed=%d"
              % (SAMPLE_INTERVAL, SAMPLE_SEED)),
    ]
    if clang and clangxx:
        builds += [
            Build("clang", "clang -O2", clang, clangxx, [], False, "clang"),
            Build("llvm-memprof", "clang -O2 -fmemory-profile (LLVM MemProf)",
                  clang, clangxx, [], True, "clang", "-fmemory-profile=",
                  "memprof.profraw.*"),
            Build("llvm-memprof-fp",
                  "clang -O2 -fmemory-profile " + " ".join(
                      LLVM_FRAME_POINTER_FLAGS) + " (LLVM MemProf, whole "
                  "stacks)", clang, clangxx, LLVM_FRAME_POINTER_FLAGS, True,
                  "clang", "-fmemory-profile=", "memprof.profraw.*"),
        ]
    return builds


def find_clang():
    return shutil.which("clang"), shutil.which("clang++")


def compile_and_link(build, source, cxx, libs, obj, exe, prof_dir, include):
    """Build SOURCE into OBJ and EXE.  Returns None, or the error text."""
    drv = build.driver(cxx)
    flags = build.cflags(prof_dir)
    steps = [
        [drv] + flags + ["-I", include, "-c", source, "-o", obj],
        [drv] + flags + [obj, "-o", exe] + list(libs),
    ]
    for cmd in steps:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            return "%s\n%s" % (" ".join(cmd), proc.stdout.strip()[-1500:])
    return None


def text_size(obj):
    """Bytes in the object's .text sections (all of .text.*, as C++
    objects keep inline functions in their own comdat sections)."""
    out = subprocess.run(["size", "-A", obj], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and (parts[0] == ".text"
                                or parts[0].startswith(".text.")):
            total += int(parts[1])
    return total
