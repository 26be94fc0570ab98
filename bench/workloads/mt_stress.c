/* Multithreaded allocation stress: producer threads allocate messages of
   varied sizes, fill them and hand them over through a locked queue;
   consumer threads read and free them, so nearly every block is freed by
   a different thread from the one that allocated it.  Every thread also
   churns thread-private scratch buffers.  Messages travel in batches of
   BATCH (one lock round trip per batch, so the run measures allocation
   rather than futex ping-pong), and the queue is bounded (producers wait
   when it is full, as a service applying backpressure would), so the
   peak of live messages does not depend on how much a profiler slows the
   consumers down relative to the producers.  The work each thread does is
   fixed, so allocation counts per site and the checksum (a sum) do not
   depend on scheduling.  */

#include <pthread.h>
#include <string.h>
#include "bench-common.h"

#define PRODUCERS 3
#define CONSUMERS 2
#define BATCH 64
#define QUEUE_CAPACITY 16      /* Batches.  */

struct message
{
  struct message *next;
  size_t length;
  unsigned char data[];
};

/* A batch is a chain of messages; the queue links batch heads through
   this small node.  */
struct batch
{
  struct batch *next;
  struct message *first;
};

static struct
{
  pthread_mutex_t lock;
  pthread_cond_t nonempty, nonfull;
  struct batch *head, **tail;
  long length;
  int producers_left;
} queue = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	    PTHREAD_COND_INITIALIZER, NULL, &queue.head, 0, PRODUCERS };

static long messages_per_producer;
static uint64_t checksum_total;

static struct message *
new_message (uint64_t *rng)
{
  size_t length = 16 + bench_rand (rng) % 1000;
  struct message *m = malloc (sizeof *m + length);
  m->next = NULL;
  m->length = length;
  memset (m->data, (int) (length & 0xff), length);
  m->data[0] = (unsigned char) bench_rand (rng);
  return m;
}

static void
enqueue (struct batch *b)
{
  pthread_mutex_lock (&queue.lock);
  while (queue.length >= QUEUE_CAPACITY)
    pthread_cond_wait (&queue.nonfull, &queue.lock);
  *queue.tail = b;
  queue.tail = &b->next;
  queue.length++;
  pthread_cond_signal (&queue.nonempty);
  pthread_mutex_unlock (&queue.lock);
}

static void *
producer (void *arg)
{
  uint64_t rng = 1000 + (uint64_t) (uintptr_t) arg;
  struct message *first = NULL, **link = &first;
  int in_batch = 0;
  for (long i = 0; i < messages_per_producer; i++)
    {
      /* Private scratch: allocated and freed by this thread.  */
      uint64_t *scratch = malloc (64 * sizeof *scratch);
      for (int k = 0; k < 64; k++)
	scratch[k] = (uint64_t) i * k;
      struct message *m = new_message (&rng);
      m->data[m->length - 1] = (unsigned char) scratch[i & 63];
      free (scratch);
      *link = m;
      link = &m->next;
      if (++in_batch == BATCH || i + 1 == messages_per_producer)
	{
	  struct batch *b = malloc (sizeof *b);
	  b->next = NULL;
	  b->first = first;
	  enqueue (b);
	  first = NULL;
	  link = &first;
	  in_batch = 0;
	}
    }
  pthread_mutex_lock (&queue.lock);
  queue.producers_left--;
  pthread_cond_broadcast (&queue.nonempty);
  pthread_mutex_unlock (&queue.lock);
  return NULL;
}

static void *
consumer (void *arg)
{
  (void) arg;
  uint64_t sum = 0;
  for (;;)
    {
      pthread_mutex_lock (&queue.lock);
      while (!queue.head && queue.producers_left > 0)
	pthread_cond_wait (&queue.nonempty, &queue.lock);
      struct batch *b = queue.head;
      if (b)
	{
	  queue.head = b->next;
	  if (!queue.head)
	    queue.tail = &queue.head;
	  if (queue.length-- == QUEUE_CAPACITY)
	    pthread_cond_broadcast (&queue.nonfull);
	}
      pthread_mutex_unlock (&queue.lock);
      if (!b)
	break;
      for (struct message *m = b->first, *next; m; m = next)
	{
	  next = m->next;
	  uint64_t s = 0;
	  for (size_t k = 0; k < m->length; k++)
	    s += m->data[k];
	  sum += s * m->length;
	  free (m);
	}
      free (b);
    }
  __atomic_fetch_add (&checksum_total, sum, __ATOMIC_RELAXED);
  return NULL;
}

int
main (int argc, char **argv)
{
  long scale = bench_scale (argc, argv);
  messages_per_producer = 3000 * scale;
  pthread_t threads[PRODUCERS + CONSUMERS];
  for (int i = 0; i < CONSUMERS; i++)
    pthread_create (&threads[i], NULL, consumer, NULL);
  for (int i = 0; i < PRODUCERS; i++)
    pthread_create (&threads[CONSUMERS + i], NULL, producer,
		    (void *) (uintptr_t) i);
  for (int i = 0; i < PRODUCERS + CONSUMERS; i++)
    pthread_join (threads[i], NULL);
  printf ("mt_stress messages=%ld checksum=%016llx\n",
	  messages_per_producer * PRODUCERS,
	  (unsigned long long) checksum_total);
  return 0;
}
