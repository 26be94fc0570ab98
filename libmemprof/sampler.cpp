// Sampling mode: the per-thread Poisson process on allocated bytes and
// the weights of sampled blocks (see sampler.h).  Freestanding: the
// logarithm and exponential it needs are computed here, no libm.

#include "sampler.h"
#include "flags.h"
#include "sampling_heap.h"

#include <unistd.h>

namespace memprof {

uint64_t sample_interval;
MEMPROF_TLS int64_t sample_bytes_left;

namespace {

MEMPROF_TLS uint64_t rng_state;
MEMPROF_TLS bool rng_seeded;
uint32_t threads_seeded;   // Ordinal of the next thread to seed.
uint64_t blocks_sampled;   // Counted on the slow path only.

uint64_t
splitmix64 (uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// sample_seed=S (non-zero) gives the Nth thread to sample the seed
// derived from (S, N): runs of a deterministic program repeat exactly.
// Otherwise the time stamp counter, pid and thread id make the seed.
void
seed_thread (uint64_t salt)
{
  uint32_t ordinal = __atomic_fetch_add (&threads_seeded, 1, __ATOMIC_RELAXED);
  uint64_t s = flags.sample_seed
                 ? splitmix64 ((uint64_t) flags.sample_seed) ^ ordinal
                 : __builtin_ia32_rdtsc () ^ ((uint64_t) sys_gettid () << 32);
  rng_state = splitmix64 (s ^ salt);
  if (!rng_state)
    rng_state = 1;
  rng_seeded = true;
}

// xorshift64*: the thread's next 64 random bits.
uint64_t
next_random ()
{
  if (UNLIKELY (!rng_seeded))
    seed_thread (0);
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545f4914f6cdd1dULL;
}

// Uniform in (0, 1]: 53 random bits.
double
unit_random ()
{
  return (double) ((next_random () >> 11) + 1) * (1.0 / 9007199254740992.0);
}

union DoubleBits
{
  double d;
  uint64_t u;
};

constexpr double kLn2 = 0.693147180559945309417;

// ln X for X in (0, 1]: X = M * 2^E with M in [sqrt(1/2), sqrt(2)),
// ln M = 2 atanh (T), T = (M - 1) / (M + 1), |T| < 0.172; the series to
// T^11 is exact to about 1e-10, far below what sampling needs.
double
log_unit (double x)
{
  DoubleBits b;
  b.d = x;
  int e = (int) ((b.u >> 52) & 0x7ff) - 1023;
  b.u = (b.u & ((UINT64_C (1) << 52) - 1)) | (UINT64_C (1023) << 52);
  double m = b.d;
  if (m > 1.41421356237309504880)
    {
      m *= 0.5;
      e++;
    }
  double t = (m - 1) / (m + 1), t2 = t * t;
  double s = 1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7
             + t2 * (1.0 / 9 + t2 * (1.0 / 11)))));
  return e * kLn2 + 2 * t * s;
}

// 1 - exp (-X) for X >= 0, without cancellation for small X.
double
one_minus_exp_neg (double x)
{
  if (x < 0.25)
    {
      // x - x^2/2! + x^3/3! - ...: the terms past x^9 are below 1e-12.
      double term = x, sum = 0;
      for (int k = 1; k <= 10; k++)
        {
          sum += term;
          term *= -x / (k + 1);
        }
      return sum;
    }
  if (x > 40)
    return 1;
  // exp (-x) = 2^-K * exp (-R), X = K ln 2 + R, |R| <= ln 2 / 2.
  int k = (int) (x / kLn2 + 0.5);
  double r = x - k * kLn2;
  double term = 1, e = 0;
  for (int i = 1; i <= 14; i++)
    {
      e += term;
      term *= -r / i;
    }
  DoubleBits scale;
  scale.u = (uint64_t) (1023 - k) << 52;
  return 1 - e * scale.d;
}

// The probability that a block of SIZE bytes is sampled.
double
sample_probability (uint64_t size)
{
  return one_minus_exp_neg ((double) (size ? size : 1)
                            / (double) sample_interval);
}

// Bytes to the next sampling point: exponential with mean
// sample_interval, at least 1.
int64_t
draw_interval ()
{
  double bytes = -log_unit (unit_random ()) * (double) sample_interval;
  if (bytes >= 9.0e18)
    return INT64_MAX;
  return bytes < 1 ? 1 : (int64_t) bytes + 1;
}

} // namespace

bool
sample_point_reached (size_t size)
{
  int64_t bytes = (int64_t) (size ? size : 1);
  if (UNLIKELY (!rng_seeded || sample_bytes_left <= 0))
    {
      // The thread's first allocation: its first point is drawn now,
      // and this block has not been tested against it yet.
      if (!rng_seeded)
        seed_thread (0);
      if (sample_bytes_left <= 0)
        sample_bytes_left = draw_interval ();
      if (sample_bytes_left > bytes)
        {
          sample_bytes_left -= bytes;
          return false;
        }
    }
  // A point falls inside this block.  Further points inside it do not
  // matter; by memorylessness the next one lies an exponential distance
  // past the block's end.
  sample_bytes_left = draw_interval ();
  __atomic_add_fetch (&blocks_sampled, 1, __ATOMIC_RELAXED);
  return true;
}

LiveAmount
sampled_live_amount (uint64_t size)
{
  double w = 1 / sample_probability (size);
  return { (uint64_t) ((double) size * w + 0.5),
           (uint64_t) ((double) kLiveBlockUnit * w + 0.5) };
}

uint64_t
sampled_record_weight (uint64_t size)
{
  double w = 1 / sample_probability (size);
  uint64_t whole = (uint64_t) w;
  return whole + (unit_random () <= w - (double) whole ? 1 : 0);
}

bool
sampling_stopped_slow ()
{
  static SpinLock lock;
  LockGuard g (lock);
  if (sample_interval)
    report ("memprof: sample_interval=%lu is ignored: the histogram mode "
            "(-fheapprof-histogram) profiles every allocation",
            (unsigned long) sample_interval);
  sample_interval = 0;
  return true;
}

void
sampler_init ()
{
  if (!flags.sample_interval)
    return;
  // Unsampled blocks are the C library's: without its malloc there is
  // nowhere to put them, and the run stays exact.
  if (!sampling_heap_init ())
    {
      report ("memprof: sample_interval=%lu is ignored: the C library's "
              "malloc was not found", (unsigned long) flags.sample_interval);
      return;
    }
  sample_interval = (uint64_t) flags.sample_interval;
}

void
sampler_after_fork_child ()
{
  if (!sample_interval)
    return;
  seed_thread ((uint64_t) sys_getpid ());
  sample_bytes_left = draw_interval ();
}

uint64_t
sampler_random ()
{
  return next_random ();
}

uint64_t
sampled_blocks ()
{
  return __atomic_load_n (&blocks_sampled, __ATOMIC_RELAXED);
}

} // namespace memprof
