/*
 * The live progress line of diskbench-bonnie and diskbench-run (ticker.h):
 * the page the progress callback publishes to, and the ticker process
 * that draws the line from it: the share done, the rate and the time left
 * while operations complete, and "stalled 1.8 s" while none does.
 */
#include <diskbench.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ticker.h"
#include "watcher.h"

#if ATOMIC_INT_LOCK_FREE != 2 || ATOMIC_LLONG_LOCK_FREE != 2
# error "the shared page needs lock-free atomics"
#endif

#define MS 1000000u
/* The ticker looks this often; a stall's time is shown to a tick. */
#define TICK_NS (200 * MS)
/* The rate is over the last 2 s of reports, never reaching back into a
 * stall, and is shown only once those span 0.2 s. */
#define WINDOW_NS (2000 * MS)
#define MIN_WINDOW_NS (200 * MS)
/* No operation completed for longer than both of these: a stall. */
#define STALL_MIN_NS (1000 * MS)
#define STALL_LATENCIES 5
/* Reports kept: more than a window's worth at one a tick. */
#define HISTORY 32

struct ticker_shared {
	pthread_mutex_t mu;         /* held to write, open or close the line */
	/* Under mu. */
	bool open;                  /* a line is open */
	char label[TICKER_LABEL_MAX];  /* its label, NUL-terminated */
	char unit[16];              /* its rate's unit; "": bytes */
	uint64_t depth;             /* its operations under way at once */
	bool untimed_start;         /* no stall before its first report */
	unsigned gen;               /* lines opened so far */
	uint64_t opened_ns;         /* when the open line opened */
	/* The last report, written by the run's thread alone under the
	 * sequence number seq (odd while it writes). */
	atomic_uint seq;
	atomic_uint rep_gen;        /* the line it is of */
	atomic_ullong reports;      /* reports of that line so far */
	atomic_ullong at_ns;        /* when it was made (CLOCK_MONOTONIC) */
	atomic_ullong progress_ns;  /* the last report whose ops had grown */
	atomic_ullong ops, bytes, elapsed_ns;
	atomic_ullong fraction;     /* a double's bits */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void lock(struct ticker_shared *sh)
{
	/* A ticker killed while it held the lock left nothing half done
	 * but its line. */
	if (pthread_mutex_lock(&sh->mu) == EOWNERDEAD)
		pthread_mutex_consistent(&sh->mu);
}

/* --- the run's side --------------------------------------------------- */

void ticker_open(struct ticker *t, const struct ticker_line *line)
{
	size_t n;

	if (!t->running)
		return;
	lock(t->sh);
	t->sh->open = true;
	n = strlen(line->label);
	if (n >= sizeof(t->sh->label))
		n = sizeof(t->sh->label) - 1;
	memcpy(t->sh->label, line->label, n);
	t->sh->label[n] = '\0';
	snprintf(t->sh->unit, sizeof(t->sh->unit), "%s", line->unit ? line->unit : "");
	t->sh->depth = line->depth ? line->depth : 1;
	t->sh->untimed_start = line->untimed_start;
	t->sh->gen = ++t->gen;
	t->sh->opened_ns = mono_ns();
	pthread_mutex_unlock(&t->sh->mu);
}

void ticker_close(struct ticker *t)
{
	if (!t->running)
		return;
	lock(t->sh);
	t->sh->open = false;
	pthread_mutex_unlock(&t->sh->mu);
}

void ticker_report(struct ticker *t, const struct diskbench_progress *p)
{
	struct ticker_shared *sh = t->sh;
	uint64_t now = mono_ns(), bits;
	unsigned seq;

	if (!t->running)
		return;
	if (t->rep_gen != t->gen) {
		/* The first report of a line: progress since the phase
		 * began, if any. */
		t->rep_gen = t->gen;
		t->reports = 0;
		t->progress_ns = p->ops ? now : now - (p->elapsed_ns < now ? p->elapsed_ns : 0);
	} else if (p->ops != t->ops) {
		t->progress_ns = now;
	}
	t->ops = p->ops;
	t->reports++;
	memcpy(&bits, &p->fraction, sizeof(bits));
	seq = atomic_load_explicit(&sh->seq, memory_order_relaxed);
	atomic_store_explicit(&sh->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&sh->rep_gen, t->rep_gen, memory_order_relaxed);
	atomic_store_explicit(&sh->reports, t->reports, memory_order_relaxed);
	atomic_store_explicit(&sh->at_ns, now, memory_order_relaxed);
	atomic_store_explicit(&sh->progress_ns, t->progress_ns, memory_order_relaxed);
	atomic_store_explicit(&sh->ops, p->ops, memory_order_relaxed);
	atomic_store_explicit(&sh->bytes, p->bytes, memory_order_relaxed);
	atomic_store_explicit(&sh->elapsed_ns, p->elapsed_ns, memory_order_relaxed);
	atomic_store_explicit(&sh->fraction, bits, memory_order_relaxed);
	atomic_store_explicit(&sh->seq, seq + 2, memory_order_release);
}

/* --- the ticker's side ------------------------------------------------ */

struct sample {
	uint64_t at_ns, ops, bytes;
	double fraction;
};

struct report {
	unsigned gen;
	uint64_t reports, progress_ns, elapsed_ns;
	struct sample s;
};

/* What the ticker knows of the open line. */
struct view {
	unsigned gen;
	uint64_t reports;           /* the last report taken; 0: none yet */
	uint64_t progress_ns, elapsed_ns, ops;
	struct sample h[HISTORY];   /* since the last stall, oldest first */
	unsigned n;
	unsigned stalls;            /* stalls of this line that ended */
	uint64_t stalled_ns;        /* and their time */
};

static void read_report(struct ticker_shared *sh, struct report *r)
{
	unsigned s0, s1;
	uint64_t bits;

	do {
		s0 = atomic_load_explicit(&sh->seq, memory_order_acquire);
		r->gen = atomic_load_explicit(&sh->rep_gen, memory_order_relaxed);
		r->reports = atomic_load_explicit(&sh->reports, memory_order_relaxed);
		r->s.at_ns = atomic_load_explicit(&sh->at_ns, memory_order_relaxed);
		r->progress_ns = atomic_load_explicit(&sh->progress_ns, memory_order_relaxed);
		r->s.ops = atomic_load_explicit(&sh->ops, memory_order_relaxed);
		r->s.bytes = atomic_load_explicit(&sh->bytes, memory_order_relaxed);
		r->elapsed_ns = atomic_load_explicit(&sh->elapsed_ns, memory_order_relaxed);
		bits = atomic_load_explicit(&sh->fraction, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		s1 = atomic_load_explicit(&sh->seq, memory_order_relaxed);
	} while ((s0 & 1) || s0 != s1);
	memcpy(&r->s.fraction, &bits, sizeof(bits));
}

static void push(struct view *v, const struct sample *s)
{
	if (v->n == HISTORY)
		memmove(v->h, v->h + 1, --v->n * sizeof(v->h[0]));
	v->h[v->n++] = *s;
}

/* Nothing completed for longer than this is a stall: 1 s, or five of the
 * line's mean latencies so far when those are longer. */
static uint64_t stall_ns(const struct ticker_shared *sh, const struct view *v)
{
	uint64_t lat;

	if (!v->ops)
		return STALL_MIN_NS;
	lat = v->elapsed_ns / v->ops * sh->depth;
	return lat > STALL_MIN_NS / STALL_LATENCIES ? lat * STALL_LATENCIES
						       : STALL_MIN_NS;
}

/* Takes a new report into the view; a stall that it ends is counted, and
 * the rate's window starts again after it. */
static void take(const struct ticker_shared *sh, struct view *v,
		 const struct report *r)
{
	if (!v->reports) {
		/* The phase's start, nothing done: the window's first end. */
		struct sample start = { r->s.at_ns - (r->elapsed_ns < r->s.at_ns ?
						      r->elapsed_ns : 0), 0, 0, 0 };

		push(v, &start);
	} else if (r->progress_ns != v->progress_ns &&
		   r->progress_ns - v->progress_ns > stall_ns(sh, v)) {
		v->stalls++;
		v->stalled_ns += r->progress_ns - v->progress_ns;
		v->n = 0;
	}
	push(v, &r->s);
	v->reports = r->reports;
	v->progress_ns = r->progress_ns;
	v->elapsed_ns = r->elapsed_ns;
	v->ops = r->s.ops;
}

static int add(char *buf, size_t size, int n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(char *buf, size_t size, int n, const char *fmt, ...)
{
	va_list ap;
	int m;

	if (n < 0 || (size_t)n >= size)
		return n;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	return m < 0 ? m : n + m;
}

/*
 * The line: its label, the share done, then either how long nothing has
 * completed, or the rate and time left over the window; and the stalls
 * of the line so far, which that rate leaves out.
 */
static int draw(char *buf, size_t size, const struct ticker_shared *sh,
		const struct view *v, uint64_t stalled)
{
	const struct sample *last = v->n ? &v->h[v->n - 1] : NULL, *first = NULL;
	const char *sep = " ";
	int n = snprintf(buf, size, "\r\033[K%s", sh->label);

	if (last && last->fraction >= 0) {
		n = add(buf, size, n, " %3.0f%%", last->fraction * 100);
		sep = ", ";
	}
	for (unsigned i = 0; last && i + 1 < v->n && !first; i++)
		if (last->at_ns - v->h[i].at_ns <= WINDOW_NS)
			first = &v->h[i];
	if (stalled) {
		n = add(buf, size, n, "%sstalled %.1f s", sep, (double)stalled / 1e9);
	} else if (first && last->at_ns - first->at_ns >= MIN_WINDOW_NS) {
		double dt = (double)(last->at_ns - first->at_ns) / 1e9;
		double df = last->fraction - first->fraction;

		if (!sh->unit[0]) {
			double bps = (double)(last->bytes - first->bytes) / dt;

			if (bps >= 1048576.0)
				n = add(buf, size, n, "%s%.1f MiB/s", sep, bps / 1048576.0);
			else
				n = add(buf, size, n, "%s%.0f KiB/s", sep, bps / 1024.0);
		} else {
			n = add(buf, size, n, "%s%.0f %s/s", sep,
				(double)(last->ops - first->ops) / dt, sh->unit);
		}
		/* At that rate; never more than a few days' worth. */
		if (last->fraction >= 0 && last->fraction < 1 && df > 0 &&
		    (1 - last->fraction) * dt / df < 360000) {
			unsigned left = (unsigned)((1 - last->fraction) * dt / df + 0.5);

			n = add(buf, size, n, ", %u:%02u left", left / 60, left % 60);
		}
	}
	if (v->stalls)
		n = add(buf, size, n, "; %u stall%s, %.1f s", v->stalls,
			v->stalls == 1 ? "" : "s", (double)v->stalled_ns / 1e9);
	return n;
}

static void tick(struct ticker_shared *sh, struct view *v)
{
	struct report r;
	bool fresh = false;
	uint64_t now, since, stalled = 0;
	char buf[512];
	int n;

	lock(sh);
	if (!sh->open)
		goto out;
	if (v->gen != sh->gen) {
		memset(v, 0, sizeof(*v));
		v->gen = sh->gen;
	}
	read_report(sh, &r);
	if (r.gen == v->gen && r.reports != v->reports) {
		take(sh, v, &r);
		fresh = true;
	}
	now = mono_ns();
	/* Before the first report, the time since the line opened; but some
	 * phases first pause, untimed (bonnie++'s seeks, 3 s). */
	if (v->reports)
		since = now > v->progress_ns ? now - v->progress_ns : 0;
	else if (!sh->untimed_start)
		since = now > sh->opened_ns ? now - sh->opened_ns : 0;
	else
		since = 0;
	if (since > stall_ns(sh, v))
		stalled = since;
	if (!fresh && !stalled)
		goto out;
	n = draw(buf, sizeof(buf), sh, v, stalled);
	if (n > 0)
		(void)!write(STDERR_FILENO, buf, (size_t)n < sizeof(buf) ? (size_t)n
								     : sizeof(buf) - 1);
out:
	pthread_mutex_unlock(&sh->mu);
}

static _Noreturn void ticker_main(struct ticker_shared *sh, int quit,
				  pid_t parent)
{
	struct pollfd p = { quit, POLLIN, 0 };
	struct view v;

	memset(&v, 0, sizeof(v));
	for (;;) {
		int r = poll(&p, 1, (int)(TICK_NS / MS));

		if (r < 0 && errno != EINTR)
			_exit(0);
		if ((r > 0 && p.revents) || getppid() != parent)
			_exit(0);
		tick(sh, &v);
	}
}

int ticker_start(struct ticker *t)
{
	pthread_mutexattr_t ma;
	int quit;
	pid_t parent = getpid();

	memset(t, 0, sizeof(*t));
	t->sh = mmap(NULL, sizeof(*t->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->sh == MAP_FAILED) {
		t->sh = NULL;
		return -1;
	}
	memset(t->sh, 0, sizeof(*t->sh));
	t->sh->open = false;
	if (pthread_mutexattr_init(&ma))
		goto fail;
	if (pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED) ||
	    pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST) ||
	    pthread_mutex_init(&t->sh->mu, &ma)) {
		pthread_mutexattr_destroy(&ma);
		goto fail;
	}
	pthread_mutexattr_destroy(&ma);
	/* The run's thread handles the signals that stop a run; the ticker
	 * ends with it. Job control stops and continues both (Ctrl-Z): no
	 * line is drawn over the shell's. */
	t->pid = helper_fork(&quit, true);
	if (t->pid == 0)
		ticker_main(t->sh, quit, parent);
	if (t->pid < 0)
		goto fail;
	t->quit = quit;
	t->running = true;
	return 0;
fail:
	munmap(t->sh, sizeof(*t->sh));
	t->sh = NULL;
	return -1;
}

void ticker_stop(struct ticker *t)
{
	if (t->running) {
		close(t->quit);
		while (waitpid(t->pid, NULL, 0) < 0 && errno == EINTR)
			;
		t->running = false;
	}
	if (t->sh) {
		pthread_mutex_destroy(&t->sh->mu);
		munmap(t->sh, sizeof(*t->sh));
		t->sh = NULL;
	}
}
