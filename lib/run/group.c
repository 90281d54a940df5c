/*
 * Phases that run together: a group of a run's phases, each on a thread of
 * its own, prepared one after another (the target is not made for two
 * preparations at once), their clocks released together, stopped together
 * when the deciding phase ends. The run (run.c) drives it through
 * callbacks, so that this file calls nothing of run.c's.
 *
 * The group's stop travels on the flag every phase already reads after
 * each operation (ctx->cancel): DISKBENCH__CANCEL_GROUP is a stop, not an
 * error, so an operation costs in a group what it costs alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/error.h>

#include "base/kind-internal.h"
#include "base/rand-internal.h"
#include "phase/recipe-internal.h"
#include "run/group-internal.h"

/* The run's cancel flag is polled this often while the group waits. */
#define GROUP_POLL_NS UINT64_C(5000000)

struct member {
	struct diskbench__group *g;
	size_t k;
	struct diskbench__ctx *ctx;     /* the phase's, set by the hook */
	struct diskbench__rand rng;
	uint32_t seed;
	pthread_t thread;
	bool started;                   /* its thread runs */
	bool ready, ended;              /* under g->mu */
	int ready_answer;               /* the ready event's, < 0: it failed */
	bool timed_out;                 /* it ran the group's time limit */
	int err;                        /* measure's */
};

struct diskbench__group {
	char *name;
	size_t first, n;
	struct diskbench_group_opts o;
	/* While it executes. */
	const struct diskbench__group_calls *c;
	struct member *m;
	atomic_int flag;                /* every phase's ctx->cancel */
	pthread_mutex_t mu;             /* go, ready, ended, failed, why */
	pthread_cond_t cv;
	pthread_mutex_t progress_mu;    /* one progress call at a time */
	int go;                         /* 0 wait, 1 go, -1 give up */
	long failed;                    /* the phase that failed first, -1 */
	char why[200];                  /* why the others gave up or stopped */
	const char *ended_by;           /* group_ended_by, once known */
};

int diskbench__group_check(struct diskbench_phase *const *phases, size_t n,
			   const struct diskbench_group_opts *o, char *msg,
			   size_t len)
{
	if (n < 2 || n > DISKBENCH_GROUP_MAX_PHASES) {
		snprintf(msg, len, "a group of %zu phases: 2 to %d "
			 "(DISKBENCH_GROUP_MAX_PHASES)", n, DISKBENCH_GROUP_MAX_PHASES);
		return -EINVAL;
	}
	if (o->flags & ~DISKBENCH_GROUP_ALL) {
		snprintf(msg, len, "opts->flags 0x%" PRIx32 ": unknown bits 0x%"
			 PRIx32, o->flags, o->flags & ~DISKBENCH_GROUP_ALL);
		return -EINVAL;
	}
	if (o->decider >= n) {
		snprintf(msg, len, "opts->decider %" PRIu32 " is past the "
			 "group's %zu phases (0 to %zu)", o->decider, n, n - 1);
		return -EINVAL;
	}
	if ((o->flags & DISKBENCH_GROUP_ALL) && o->decider) {
		snprintf(msg, len, "opts->decider %" PRIu32 " with "
			 "DISKBENCH_GROUP_ALL: a group that waits for all its "
			 "phases has no decider (leave it 0)", o->decider);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_phase *p = phases[i];
		const struct diskbench__kind *kd;

		if (!p) {
			snprintf(msg, len, "phases[%zu] is NULL", i);
			return -EINVAL;
		}
		if (p->owner) {
			snprintf(msg, len, "phase \"%s\" (phases[%zu]) was added "
				 "already: a phase runs in one place, in one group "
				 "at most", p->name, i);
			return -EINVAL;
		}
		for (size_t j = 0; j < i; j++)
			if (phases[j] == p) {
				snprintf(msg, len, "phase \"%s\" is given twice "
					 "(phases[%zu] and phases[%zu])", p->name,
					 j, i);
				return -EINVAL;
			}
		kd = diskbench__kind(p->kind);
		/* bonnie++'s phases make, remove and read the test file and
		 * the small files in its order: not beside another phase. */
		if ((kd && kd->group != DISKBENCH__GROUP_NONE) || p->cls->file_set) {
			snprintf(msg, len, "phase \"%s\" (phases[%zu]) is one of "
				 "bonnie++'s %s phases, which need the test file "
				 "made, removed or read in bonnie++'s order: it "
				 "cannot run in a group (sequential, random and "
				 "custom phases can)", p->name, i,
				 kd && kd->group == DISKBENCH__GROUP_BIG ? "big-file"
									 : "small-file");
			return -EINVAL;
		}
	}
	/* Verify's map is the target's, one per test file: a phase that
	 * stamps or checks runs beside no phase that writes the test file
	 * (its stamps or checks would race with the other's writes, and a
	 * writer replaces or drops the map). */
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_phase *p = phases[i];

		if (!p->cls->test_file_use ||
		    !(p->cls->test_file_use(p) & DISKBENCH__USE_VERIFY))
			continue;
		for (size_t j = 0; j < n; j++) {
			const struct diskbench_phase *q = phases[j];

			if (j == i || !q->cls->test_file_use ||
			    !(q->cls->test_file_use(q) & DISKBENCH__USE_WRITES))
				continue;
			snprintf(msg, len, "phase \"%s\" (phases[%zu]) verifies "
				 "(DISKBENCH_SEQ_VERIFY or DISKBENCH_RANDOM_VERIFY) "
				 "and phase \"%s\" (phases[%zu]) %s the test file: "
				 "verify in a group needs every other phase of it to "
				 "leave the test file alone or only read it", p->name,
				 i, q->name, j, q->kind == DISKBENCH_PHASE_CUSTOM
				 ? "is a custom phase, which may write"
				 : "writes");
			return -EINVAL;
		}
	}
	return 0;
}

int diskbench__group_new(struct diskbench__group **out, const char *name,
			 size_t first, size_t n,
			 const struct diskbench_group_opts *o)
{
	struct diskbench__group *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->name = strdup(name);
	if (!g->name) {
		free(g);
		return -ENOMEM;
	}
	g->first = first;
	g->n = n;
	g->o = *o;
	*out = g;
	return 0;
}

void diskbench__group_free(struct diskbench__group *g)
{
	if (!g)
		return;
	free(g->name);
	free(g);
}

const char *diskbench__group_name(const struct diskbench__group *g)
{
	return g->name;
}

size_t diskbench__group_first(const struct diskbench__group *g)
{
	return g->first;
}

size_t diskbench__group_size(const struct diskbench__group *g)
{
	return g->n;
}

/* Phase i of the run's own stream: the run's seed and the index mixed
 * (splitmix64's finalizer), so that no two phases draw alike and a repeat
 * with the seed draws the same. */
static uint32_t member_seed(uint32_t run_seed, size_t index)
{
	uint64_t z = ((uint64_t)run_seed << 32 | (uint32_t)index) +
		     UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (uint32_t)(z ^ (z >> 31));
}

/* Stops every phase that still runs: CANCEL_GROUP (the group ends) or
 * CANCEL_RUN (a failure, a cancel); a stop already made stays. */
static bool raise_flag(struct diskbench__group *g, int how)
{
	int zero = 0;

	return atomic_compare_exchange_strong(&g->flag, &zero, how);
}

/* The ready barrier, on phase k's thread (ctx->ready): tells the run's
 * thread, waits for the release. */
static int member_ready(void *arg)
{
	struct member *m = arg;
	struct diskbench__group *g = m->g;
	int go, answer;

	pthread_mutex_lock(&g->mu);
	m->ready = true;
	pthread_cond_broadcast(&g->cv);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->mu);
	go = g->go;
	answer = m->ready_answer;
	pthread_mutex_unlock(&g->mu);
	if (go > 0)
		return 0;
	if (answer < 0)
		return answer;   /* the context says "the ready event failed" */
	return diskbench__ctx_failf(m->ctx, -ECANCELED, NULL, UINT64_MAX,
				    "stopped before its start: %s", g->why);
}

static int member_progress(const struct diskbench_progress *p, void *arg)
{
	struct diskbench__group *g = arg;
	int r;

	pthread_mutex_lock(&g->progress_mu);
	r = g->c->progress(p, g->c->progress_user_data);
	pthread_mutex_unlock(&g->progress_mu);
	return r;
}

void diskbench__group_hook(struct diskbench__group *g, size_t k,
			   struct diskbench__ctx *ctx)
{
	struct member *m = &g->m[k];

	m->ctx = ctx;
	ctx->cancel = &g->flag;
	ctx->in_group = true;
	ctx->rng = &m->rng;
	ctx->ready = member_ready;
	ctx->ready_arg = m;
	if (ctx->progress) {
		ctx->progress = member_progress;
		ctx->progress_user_data = g;
	}
	if (g->o.time_limit_ns &&
	    (!ctx->stop_time_ns || g->o.time_limit_ns < ctx->stop_time_ns))
		ctx->stop_time_ns = g->o.time_limit_ns;
}

void diskbench__group_ran(struct diskbench__group *g, size_t k,
			  struct diskbench__ctx *ctx, int err)
{
	int flag = atomic_load(&g->flag);
	bool decides = !(g->o.flags & DISKBENCH_GROUP_ALL) && k == g->o.decider;
	const struct diskbench_recorder *rec = ctx->rec;

	/* The phase's clock stopped when its run returned. */
	g->m[k].timed_out = g->o.time_limit_ns && rec && rec->begun &&
			    rec->end_ns - rec->begin_ns >= g->o.time_limit_ns;
	if (flag == DISKBENCH__CANCEL_GROUP && !decides && !err)
		ctx->group_stopped = true;
	if (err && !(err == -ECANCELED && flag == DISKBENCH__CANCEL_RUN)) {
		/* A failure of its own: the others stop, marked. */
		pthread_mutex_lock(&g->mu);
		if (g->failed < 0) {
			g->failed = (long)k;
			snprintf(g->why, sizeof(g->why), "phase \"%s\" of group "
				 "\"%s\" failed", ctx->phase_name, g->name);
		}
		pthread_mutex_unlock(&g->mu);
		raise_flag(g, DISKBENCH__CANCEL_RUN);
	} else if (decides && !err) {
		if (raise_flag(g, DISKBENCH__CANCEL_GROUP))
			g->ended_by = g->m[k].timed_out ? "time_limit" : "decider";
	}
}

/* Waits on g->cv (held) up to GROUP_POLL_NS; passes a cancel of the run's
 * on to the phases. */
static void wait_a_while(struct diskbench__group *g)
{
	struct timespec ts;

	if (atomic_load(g->c->run_cancel))
		atomic_store(&g->flag, DISKBENCH__CANCEL_RUN);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (long)GROUP_POLL_NS;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&g->cv, &g->mu, &ts);
}

static void *member_main(void *arg)
{
	struct member *m = arg;
	struct diskbench__group *g = m->g;
	int err = g->c->measure(g->c->arg, m->k);

	pthread_mutex_lock(&g->mu);
	m->err = err;
	m->ended = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/* Gives up before the clocks start: the phases waiting at the barrier
 * end without an operation. */
static void give_up(struct diskbench__group *g, const char *what, size_t k)
{
	pthread_mutex_lock(&g->mu);
	if (!g->why[0])
		snprintf(g->why, sizeof(g->why), what,
			 g->c->phases[g->first + k]->name, g->name);
	g->go = -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	raise_flag(g, DISKBENCH__CANCEL_RUN);
}

int diskbench__group_execute(struct diskbench__group *g,
			     const struct diskbench__group_calls *c,
			     size_t *who)
{
	size_t started = 0;
	int err = 0;
	bool all_ended;

	*who = 0;
	g->m = calloc(g->n, sizeof(*g->m));
	if (!g->m)
		return -ENOMEM;
	g->c = c;
	atomic_init(&g->flag, 0);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	pthread_mutex_init(&g->progress_mu, NULL);
	g->go = 0;
	g->failed = -1;
	g->why[0] = '\0';
	g->ended_by = NULL;
	for (size_t k = 0; k < g->n; k++) {
		struct member *m = &g->m[k];

		m->g = g;
		m->k = k;
		m->seed = member_seed(c->run_seed, g->first + k);
		diskbench__rand_seed(&m->rng, m->seed);
	}

	/* Phase by phase: start event, preparation on its thread, ready. */
	for (size_t k = 0; k < g->n; k++) {
		struct member *m = &g->m[k];
		bool failed;
		int rc;

		if (atomic_load(c->run_cancel)) {
			err = -ECANCELED;
			*who = k;
			give_up(g, "cancelled%.0s%.0s", k);
			break;
		}
		rc = c->start(c->arg, k);
		if (rc) {
			err = rc;
			*who = k;
			give_up(g, "the start event of phase \"%s\" of group "
				"\"%s\" failed", k);
			break;
		}
		rc = -pthread_create(&m->thread, NULL, member_main, m);
		if (rc) {
			/* Started, never run: its end event tells the error. */
			m->err = rc;
			m->ended = true;
			err = rc;
			*who = k;
			started = k + 1;
			give_up(g, "phase \"%s\" of group \"%s\" could not "
				"start a thread", k);
			break;
		}
		m->started = true;
		started = k + 1;
		pthread_mutex_lock(&g->mu);
		while (!m->ready && !m->ended)
			wait_a_while(g);
		/* Ended without a ready point: failed (a phase with nothing
		 * to do that ended well just goes on to the next). */
		failed = !m->ready && m->err;
		if (failed && g->failed < 0)
			g->failed = (long)k;
		pthread_mutex_unlock(&g->mu);
		if (failed) {
			/* It failed preparing: the others never start. */
			give_up(g, "phase \"%s\" of group \"%s\" failed", k);
			break;
		}
		if (!m->ready)
			continue;
		rc = c->ready(c->arg, k);
		if (rc < 0) {
			pthread_mutex_lock(&g->mu);
			m->ready_answer = rc;
			g->failed = (long)k;
			pthread_mutex_unlock(&g->mu);
			give_up(g, "the ready event of phase \"%s\" of group "
				"\"%s\" failed", k);
			break;
		}
	}
	/* Every clock at once. */
	pthread_mutex_lock(&g->mu);
	if (!g->go)
		g->go = 1;
	pthread_cond_broadcast(&g->cv);
	do {
		all_ended = true;
		for (size_t k = 0; k < started; k++)
			all_ended &= g->m[k].ended;
		if (!all_ended)
			wait_a_while(g);
	} while (!all_ended);
	pthread_mutex_unlock(&g->mu);
	for (size_t k = 0; k < started; k++)
		if (g->m[k].started)
			pthread_join(g->m[k].thread, NULL);

	/* Why the group ended, for every result. */
	if (atomic_load(&g->flag) == DISKBENCH__CANCEL_RUN || err ||
	    g->failed >= 0)
		g->ended_by = "stopped";
	else if (!g->ended_by)
		g->ended_by = g->o.flags & DISKBENCH_GROUP_ALL ? "all" : "decider";
	if (!strcmp(g->ended_by, "all"))
		for (size_t k = 0; k < started; k++)
			if (g->m[k].timed_out)
				g->ended_by = "time_limit";
	if (!err && g->failed >= 0) {
		err = g->m[g->failed].err;
		*who = (size_t)g->failed;
	}
	if (!err && atomic_load(&g->flag) == DISKBENCH__CANCEL_RUN) {
		err = -ECANCELED;
		for (size_t k = 0; k < started; k++)
			if (g->m[k].err) {
				*who = k;
				break;
			}
	}

	/* The others stopped by a failure say which. */
	for (size_t k = 0; k < started; k++) {
		struct diskbench__ctx *ctx = g->m[k].ctx;

		if (g->failed >= 0 && (long)k != g->failed && ctx &&
		    ctx->err == -ECANCELED && !ctx->err_op &&
		    !atomic_load(c->run_cancel)) {
			snprintf(ctx->err_op_buf, sizeof(ctx->err_op_buf),
				 "stopped: %s", g->why);
			ctx->err_op = ctx->err_op_buf;
			ctx->err_path = NULL;
			ctx->err_offset = UINT64_MAX;
		}
	}

	/* The results, in order, from this thread. */
	for (size_t k = 0; k < started; k++) {
		int rc = c->finish(c->arg, k, g->m[k].err);

		if (rc && !err) {
			err = rc;
			*who = k;
		}
	}
	pthread_mutex_destroy(&g->progress_mu);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g->m);
	g->m = NULL;
	g->c = NULL;
	return err;
}

char *diskbench__group_recipe(const struct diskbench__group *g, size_t k)
{
	char *line = NULL;
	int err = diskbench__recipe_add(&line, "group", g->name);

	if (!err && !(g->o.flags & DISKBENCH_GROUP_ALL) && k == g->o.decider)
		err = diskbench__recipe_add(&line, "group_decider", "true");
	/* the group's own options, on its first phase */
	if (!err && k == 0 && (g->o.flags & DISKBENCH_GROUP_ALL))
		err = diskbench__recipe_add(&line, "group_all", "true");
	if (!err && k == 0 && g->o.time_limit_ns) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64 "ns", g->o.time_limit_ns);
		err = diskbench__recipe_add(&line, "group_time", buf);
	}
	if (err) {
		free(line);
		return NULL;
	}
	return line;
}

void diskbench__group_describe(const struct diskbench__group *g, size_t k,
			       struct diskbench_phase *const *run_phases,
			       struct diskbench__cfg *c)
{
	diskbench__cfg_str(c, "group", g->name);
	diskbench__cfg_u64(c, "group_phases", g->n);
	diskbench__cfg_str(c, "group_decider",
			   g->o.flags & DISKBENCH_GROUP_ALL
				   ? "all" : run_phases[g->first + g->o.decider]->name);
	if (g->o.time_limit_ns)
		diskbench__cfg_u64(c, "group_time_limit_ns", g->o.time_limit_ns);
	diskbench__cfg_str(c, "group_ended_by", g->ended_by ? g->ended_by : "stopped");
	if (g->m)
		diskbench__cfg_u64(c, "group_seed", g->m[k].seed);
}
