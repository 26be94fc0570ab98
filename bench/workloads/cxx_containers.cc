// C++ containers: an inventory kept in std::map<std::string, Item>, an
// index in std::unordered_map<uint64_t, std::string>, batches built in
// std::vector with push_back growth, and std::string concatenation.
// Stands for typical C++ application code where the allocations are made
// by the standard library on the program's behalf.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
#include "bench-common.h"

namespace
{
struct Item
{
  std::string description;
  std::vector<uint32_t> history;
  uint64_t total = 0;
};

std::string
make_name (uint64_t r)
{
  static const char *const parts[] = { "bolt", "nut", "gear", "spring",
				       "valve", "pipe", "washer", "shaft" };
  std::string name = parts[r % 8];
  name += '-';
  name += std::to_string (r % 5000);
  // Long enough to leave the small-string buffer now and then.
  if (r % 3 == 0)
    name += "-extended-catalogue-variant";
  return name;
}
} // namespace

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long ops = 8000 * scale;
  uint64_t rng = 31337, h = 0;
  std::map<std::string, Item> inventory;
  std::unordered_map<uint64_t, std::string> index;

  for (long i = 0; i < ops; i++)
    {
      uint64_t r = bench_rand (&rng);
      std::string name = make_name (r);
      Item &item = inventory[name];
      if (item.description.empty ())
	item.description = "item " + name + " first seen at op "
			   + std::to_string (i);
      item.history.push_back (static_cast<uint32_t> (r >> 40));
      item.total += r >> 48;
      if (item.history.size () > 32)
	item.history.erase (item.history.begin (),
			    item.history.begin () + 16);
      index[r % 20000] = name;

      if (i % 64 == 63)
	{
	  // A batch: collect, sort, summarise, drop.
	  std::vector<std::pair<uint64_t, std::string>> batch;
	  for (int k = 0; k < 48; k++)
	    {
	      uint64_t key = bench_rand (&rng) % 20000;
	      auto it = index.find (key);
	      if (it != index.end ())
		batch.emplace_back (key, it->second);
	    }
	  std::sort (batch.begin (), batch.end ());
	  std::string summary;
	  for (const auto &p : batch)
	    summary += p.second.substr (0, 4);
	  h = bench_mix (h, summary.size ());
	}
      if (i % 50000 == 49999)
	{
	  // Retire the rarely used items.
	  for (auto it = inventory.begin (); it != inventory.end ();)
	    it = it->second.history.size () < 4 ? inventory.erase (it)
						  : std::next (it);
	}
    }
  for (const auto &p : inventory)
    h = bench_mix (h, p.second.total + p.second.history.size ()
			  + p.second.description.size ());
  h = bench_mix (h, index.size ());
  std::printf ("cxx_containers items=%zu checksum=%016llx\n",
	       inventory.size (), static_cast<unsigned long long> (h));
  return 0;
}
