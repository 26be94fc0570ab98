// C++ churn through the standard containers: a sliding window of
// documents indexed by word.  Documents (std::string, most beyond the
// short-string buffer) live in a std::map keyed by id and are inserted
// and erased as the window moves; an std::unordered_map from word to a
// std::vector of document ids (the postings) grows and shrinks with
// them, entries dropped when their last document goes.  Every block is
// made by libstdc++ (map nodes, hash nodes and buckets, vector growth,
// string storage), from call chains several template frames deep.

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
#include "bench-common.h"

namespace
{
using Postings = std::unordered_map<std::string, std::vector<uint32_t>>;

std::string
make_word (uint64_t *rng)
{
  static const char *const stems[] = { "alloc", "heap", "frame", "stack",
				       "granule", "context", "profile",
				       "counter", "shadow", "runtime" };
  uint64_t r = bench_rand (rng);
  std::string w = stems[r % 10];
  // A suffix from a few hundred values: a vocabulary of some thousands.
  w += '_';
  w += std::to_string ((r >> 8) % 400);
  if ((r >> 20) & 1)
    w += "_extended_form";   // past the short-string buffer
  return w;
}

std::vector<std::string>
split_words (const std::string &text)
{
  std::vector<std::string> words;
  std::string cur;
  for (char c : text)
    if (c == ' ')
      {
	if (!cur.empty ())
	  words.push_back (cur);
	cur.clear ();
      }
    else
      cur += c;
  if (!cur.empty ())
    words.push_back (cur);
  return words;
}

void
add_document (std::map<uint32_t, std::string> &docs, Postings &index,
	      uint32_t id, uint64_t *rng)
{
  std::string text;
  int n = 4 + (int) (bench_rand (rng) % 12);
  for (int i = 0; i < n; i++)
    {
      text += make_word (rng);
      text += ' ';
    }
  for (const std::string &w : split_words (text))
    {
      std::vector<uint32_t> &p = index[w];
      if (p.empty () || p.back () != id)
	p.push_back (id);
    }
  docs.emplace (id, std::move (text));
}

uint64_t
remove_document (std::map<uint32_t, std::string> &docs, Postings &index,
		 uint32_t id)
{
  auto it = docs.find (id);
  if (it == docs.end ())
    return 0;
  uint64_t h = 0;
  for (const std::string &w : split_words (it->second))
    {
      auto e = index.find (w);
      if (e == index.end ())
	continue;
      std::vector<uint32_t> &p = e->second;
      for (size_t i = 0; i < p.size (); i++)
	if (p[i] == id)
	  {
	    p.erase (p.begin () + i);
	    break;
	  }
      h = bench_mix (h, p.size ());
      if (p.empty ())
	index.erase (e);
    }
  docs.erase (it);
  return h;
}
} // namespace

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long steps = 1500 * scale;
  const uint32_t window = 3000;
  uint64_t rng = 0xc0ffee;
  uint64_t h = 0;
  std::map<uint32_t, std::string> docs;
  Postings index;
  for (long s = 0; s < steps; s++)
    {
      uint32_t id = (uint32_t) s;
      add_document (docs, index, id, &rng);
      if (id >= window)
	// Mostly the oldest document, sometimes a random one in the window.
	h = bench_mix (h, remove_document (docs, index,
					   (bench_rand (&rng) & 7)
					   ? id - window
					   : id - (uint32_t) (bench_rand (&rng)
							      % window)));
    }
  h = bench_mix (h, docs.size ());
  h = bench_mix (h, index.size ());
  printf ("cxx_index %016llx\n", (unsigned long long) h);
  return 0;
}
