/* A long-lived, server-like pattern: at start-up the server loads a
   configuration table and a routing table that live until exit (never
   freed, still live when the profile is written); then it serves
   requests.  Each request gets a buffer, is parsed into a small header
   object, looks its key up in an LRU cache of responses (a hash table
   threaded with a recency list, bounded size, evicting the oldest), and
   produces a response that is freed once "sent".  A handful of sessions
   live across many requests.  */

#include <string.h>
#include "bench-common.h"

#define CACHE_CAPACITY 4096
#define CACHE_BUCKETS 8192
#define SESSIONS 256
#define ROUTES 512

struct route
{
  char prefix[24];
  uint32_t backend;
};

struct cache_entry
{
  struct cache_entry *hash_next;
  struct cache_entry *older, *newer;
  uint64_t key;
  size_t length;
  char *body;
};

struct session
{
  uint64_t id;
  uint64_t requests;
  char *scratch;        /* Reused across the session's requests.  */
};

struct request
{
  uint64_t key;
  uint32_t route;
  uint32_t session;
};

static struct cache_entry *buckets[CACHE_BUCKETS];
static struct cache_entry *oldest, *newest;
static size_t cache_size;

static struct route *
load_routes (void)
{
  struct route *routes = calloc (ROUTES, sizeof *routes);
  for (int i = 0; i < ROUTES; i++)
    {
      snprintf (routes[i].prefix, sizeof routes[i].prefix, "/api/v%d/r%d",
		i % 3, i);
      routes[i].backend = (uint32_t) (i * 2654435761u >> 20);
    }
  return routes;
}

static void
unlink_lru (struct cache_entry *e)
{
  if (e->older)
    e->older->newer = e->newer;
  else
    oldest = e->newer;
  if (e->newer)
    e->newer->older = e->older;
  else
    newest = e->older;
}

static void
push_newest (struct cache_entry *e)
{
  e->newer = NULL;
  e->older = newest;
  if (newest)
    newest->newer = e;
  else
    oldest = e;
  newest = e;
}

static void
evict_oldest (void)
{
  struct cache_entry *e = oldest;
  unlink_lru (e);
  struct cache_entry **link = &buckets[e->key % CACHE_BUCKETS];
  while (*link != e)
    link = &(*link)->hash_next;
  *link = e->hash_next;
  free (e->body);
  free (e);
  cache_size--;
}

static struct cache_entry *
cache_lookup (uint64_t key)
{
  for (struct cache_entry *e = buckets[key % CACHE_BUCKETS]; e;
       e = e->hash_next)
    if (e->key == key)
      {
	unlink_lru (e);
	push_newest (e);
	return e;
      }
  return NULL;
}

static struct cache_entry *
cache_insert (uint64_t key, const char *body, size_t length)
{
  if (cache_size == CACHE_CAPACITY)
    evict_oldest ();
  struct cache_entry *e = malloc (sizeof *e);
  e->key = key;
  e->length = length;
  e->body = malloc (length);
  memcpy (e->body, body, length);
  e->hash_next = buckets[key % CACHE_BUCKETS];
  buckets[key % CACHE_BUCKETS] = e;
  push_newest (e);
  cache_size++;
  return e;
}

static char *
read_request (uint64_t *rng, size_t *length)
{
  *length = 200 + bench_rand (rng) % 1800;
  char *buf = malloc (*length);
  uint64_t r = bench_rand (rng);
  for (size_t i = 0; i < *length; i++)
    buf[i] = (char) ('a' + (r >> (i % 56)) % 26);
  return buf;
}

static struct request *
parse_request (const char *buf, size_t length, uint64_t r)
{
  struct request *req = malloc (sizeof *req);
  uint64_t h = 0;
  for (size_t i = 0; i < length; i += 16)
    h = h * 31 + (unsigned char) buf[i];
  req->key = r % 12000;
  req->route = (uint32_t) (h % ROUTES);
  req->session = (uint32_t) (r >> 32) % SESSIONS;
  return req;
}

static char *
render_response (const struct request *req, const struct route *route,
		 size_t *length)
{
  *length = 512 + req->key % 1536;
  char *body = malloc (*length);
  memset (body, ' ', *length);
  int n = snprintf (body, *length, "200 OK %s key=%llu", route->prefix,
		    (unsigned long long) req->key);
  body[n] = ' ';
  return body;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  long requests = 3000 * scale;
  uint64_t rng = 8080, h = 0;
  long hits = 0;

  struct route *routes = load_routes ();
  char *config = malloc (64 * 1024);
  memset (config, '#', 64 * 1024);
  struct session *sessions = calloc (SESSIONS, sizeof *sessions);
  for (int i = 0; i < SESSIONS; i++)
    {
      sessions[i].id = (uint64_t) i * 7919;
      sessions[i].scratch = malloc (256);
    }

  for (long i = 0; i < requests; i++)
    {
      size_t length;
      char *buf = read_request (&rng, &length);
      struct request *req = parse_request (buf, length, bench_rand (&rng));
      free (buf);
      struct session *s = &sessions[req->session];
      s->requests++;
      s->scratch[s->requests % 256] = (char) req->route;
      struct cache_entry *e = cache_lookup (req->key);
      if (e)
	hits++;
      else
	{
	  size_t rl;
	  char *body = render_response (req, &routes[req->route], &rl);
	  e = cache_insert (req->key, body, rl);
	  free (body);
	}
      h = bench_mix (h, (unsigned char) e->body[req->key % e->length]
			    + e->length + (unsigned char) config[i & 0xffff]);
      free (req);
      /* Sessions end and restart now and then.  */
      if (i % 1000 == 999)
	{
	  struct session *old = &sessions[(i / 1000) % SESSIONS];
	  h = bench_mix (h, old->requests);
	  free (old->scratch);
	  old->scratch = malloc (256);
	  old->requests = 0;
	}
    }
  while (oldest)
    evict_oldest ();
  /* The routes, config and sessions stay live until exit, as in a server
     that is simply killed.  */
  printf ("server_sim requests=%ld hits=%ld checksum=%016llx\n", requests,
	  hits, (unsigned long long) h);
  return 0;
}
