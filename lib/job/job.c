/*
 * Jobs: reading a job file (libinih does the INI syntax; the table in
 * job/table.c the values), checking it whole, its text, and making its
 * target and runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <diskbench/job.h>
#include <diskbench/engine.h>
#include <diskbench/error.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "job/job-internal.h"
#include "job/table-internal.h"
#include "phase/phase-internal.h"
#include "run/group-internal.h"
#include "run/run-internal.h"
#include "run/suite-bonnie-internal.h"
#include "target/target-internal.h"

#if DISKBENCH_HAVE_INIH
#include <ini.h>
#endif

#define WHY 320

/* ---- a job's memory ---- */

static void sec_clear(struct job_sec *s)
{
	free(s->name);
	free(s->r.group);
	free(s->lines);
	if (s->text)
		for (size_t i = 0; i < diskbench__job_nrows(); i++)
			free(s->text[i]);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

static void glob_clear(struct diskbench_job *job)
{
	struct diskbench__job_glob *g = &job->g;

	free(g->dir);
	free(g->prefix);
	free(g->name);
	for (size_t i = 0; i < DISKBENCH__JOB_OUTPUTS; i++)
		free(g->out[i]);
	free(job->lines);
	if (job->text)
		for (size_t i = 0; i < diskbench__job_nrows(); i++)
			free(job->text[i]);
	free(job->text);
	memset(g, 0, sizeof(*g));
	job->lines = NULL;
	job->text = NULL;
}

DISKBENCH_API void diskbench_job_free(struct diskbench_job *job)
{
	if (!job)
		return;
	for (size_t i = 0; i < job->n; i++)
		sec_clear(&job->sec[i]);
	free(job->sec);
	glob_clear(job);
	free(job->file);
	free(job);
}

static int glob_init(struct diskbench_job *job)
{
	diskbench__job_glob_init(&job->g);
	job->lines = calloc(diskbench__job_nrows(), sizeof(*job->lines));
	job->text = calloc(diskbench__job_nrows(), sizeof(*job->text));
	return job->lines && job->text ? 0 : -ENOMEM;
}

static int sec_init(struct job_sec *s, const char *name, unsigned line)
{
	memset(s, 0, sizeof(*s));
	diskbench__phase_opts_init(&s->o);
	diskbench__run_sec_init(&s->r);
	s->line = line;
	s->name = strdup(name);
	s->lines = calloc(diskbench__job_nrows(), sizeof(*s->lines));
	s->text = calloc(diskbench__job_nrows(), sizeof(*s->text));
	return s->name && s->lines && s->text ? 0 : -ENOMEM;
}

static struct diskbench_job *job_new(const char *file)
{
	struct diskbench_job *job = calloc(1, sizeof(*job));

	if (!job)
		return NULL;
	job->file = strdup(file ? file : "job");
	if (!job->file || glob_init(job)) {
		diskbench_job_free(job);
		return NULL;
	}
	return job;
}

static struct job_sec *find_sec(const struct diskbench_job *job, const char *name)
{
	for (size_t i = 0; i < job->n; i++)
		if (!strcmp(job->sec[i].name, name))
			return &job->sec[i];
	return NULL;
}

static struct job_sec *add_sec(struct diskbench_job *job, const char *name,
			       unsigned line)
{
	struct job_sec *v = realloc(job->sec, (job->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	job->sec = v;
	if (sec_init(&v[job->n], name, line)) {
		sec_clear(&v[job->n]);
		return NULL;
	}
	return &v[job->n++];
}

/* A phase section's name as a job file's header can hold it, beside the
 * rule of every phase's name: no ']' and no white space at either end.
 * 0, or -EINVAL with the last error saying why. */
static int sec_name_check(const char *name)
{
	size_t n = strlen(name);

	if (diskbench__phase_name_check(name))
		return -EINVAL;
	if (strchr(name, ']') || !strcmp(name, "job") || name[0] == ' ' ||
	    name[0] == '\t' || name[n - 1] == ' ' || name[n - 1] == '\t')
		return diskbench__error_fail(-EINVAL, "a section's name has no "
			"']', no white space at either end, and is not \"job\"");
	return 0;
}

/* ---- errors ---- */

struct fail {
	char *msg;
	int err;
};

static int failf(struct fail *f, int err, const char *fmt, ...)
	DISKBENCH__PRINTF(3, 4);

static int failf(struct fail *f, int err, const char *fmt, ...)
{
	va_list ap;

	if (f->err)
		return f->err;
	va_start(ap, fmt);
	f->msg = diskbench__vformat(fmt, ap);
	va_end(ap);
	/* no memory for the message: the error stands, said as -ENOMEM */
	f->err = f->msg ? err : -ENOMEM;
	return f->err;
}

/* "file:line: " or "file: " for line 0 (a program's override) */
static const char *where(const struct diskbench_job *job, unsigned line,
			 char *buf, size_t len)
{
	if (line)
		snprintf(buf, len, "%s:%u", job->file, line);
	else
		snprintf(buf, len, "%s: set", job->file);
	return buf;
}

/* ---- one key = value ---- */

/*
 * Sets key to value in section sec (NULL: [job]) from line. A key set
 * again is refused, naming the line that set it first.
 */
static int apply(struct diskbench_job *job, struct job_sec *sec, const char *key,
		 const char *value, unsigned line, bool again_ok, struct fail *f)
{
	char at[256 + 16], why[WHY];
	uint32_t kbit = sec ? diskbench__job_kind_bit(sec->o.kind) : JK_JOB;
	const struct job_row *r;
	size_t idx;
	unsigned *lines = sec ? sec->lines : job->lines;
	char **text = sec ? sec->text : job->text;
	void *base;
	const char *sname = sec ? sec->name : "job";
	int err;

	where(job, line, at, sizeof(at));
	if (sec && sec->o.kind == JOB_KIND_NONE)
		kbit = JK_PHASE | JK_SUITE;	/* only `kind` is known */
	r = diskbench__job_row(key, kbit, &idx);
	if (!r || (sec && sec->o.kind == JOB_KIND_NONE && r->type != JT_KIND)) {
		const struct job_row *any = diskbench__job_row(key, UINT32_MAX, NULL);

		if (sec && sec->o.kind == JOB_KIND_NONE && any)
			return failf(f, -EINVAL, "%s: [%s] %s before kind: a phase "
				     "section says its kind first", at, sname, key);
		if (any)
			return failf(f, -EINVAL, "%s: [%s] %s is not an option of %s "
				     "(it is one of %s)", at, sname, key,
				     sec ? diskbench__job_kind_word(sec->o.kind)
					 : "the [job] section",
				     (any->kinds & JK_JOB) ? "[job]" : "phases");
		return failf(f, -EINVAL, "%s: [%s] unknown key \"%.60s\"", at,
			     sname, key);
	}
	if (lines[idx] && !again_ok)
		return failf(f, -EINVAL, "%s: [%s] %s set again (first on line %u)",
			     at, sname, key, lines[idx]);
	why[0] = '\0';
	base = diskbench__job_base(job, sec, r);
	err = diskbench__job_value_parse(r, base, value, why, sizeof(why));
	if (err == -ENOMEM)
		return failf(f, err, "out of memory");
	if (err)
		return failf(f, err, "%s: [%s] %s %s", at, sname, key, why);
	lines[idx] = line ? line : UINT_MAX;
	free(text[idx]);
	text[idx] = diskbench__job_value_text(r, base);
	if (!text[idx] && diskbench__job_value_set(r, base))
		return failf(f, -ENOMEM, "out of memory");
	return 0;
}

/* ---- checks of the whole job ---- */

static uint32_t sec_depth(const struct job_sec *s)
{
	switch (diskbench__job_kind_bit(s->o.kind)) {
	case JK_SEQ_R: case JK_SEQ_W: return s->o.seq.queue_depth ? s->o.seq.queue_depth : 1;
	case JK_RANDOM: return s->o.rnd.queue_depth ? s->o.rnd.queue_depth : 1;
	default: return 1;
	}
}

static size_t row_index(const char *key, uint32_t kbit)
{
	size_t i = 0;

	(void)diskbench__job_row(key, kbit, &i);
	return i;
}

/* The line that set key in s, 0 when diskbench_job_set() did (where()
 * then says "set"), or the section's. */
static unsigned line_of(const struct job_sec *s, const char *key)
{
	const struct job_row *r;
	size_t i;

	r = diskbench__job_row(key, diskbench__job_kind_bit(s->o.kind), &i);
	if (r && s->lines[i] == UINT_MAX)
		return 0;	/* set, not from a line */
	return r && s->lines[i] ? s->lines[i] : s->line;
}

/*
 * Makes the phase of section s (not a bonnie suite): the constructor and
 * each setter the section needs, as the C API would be called. On failure
 * why says what the library said.
 */
static int make_phase(const struct job_sec *s, struct diskbench_phase **out,
		      char *why, size_t wl)
{
	struct diskbench_phase *p = NULL;
	uint32_t kbit = diskbench__job_kind_bit(s->o.kind);
	const char *step = "";
	int err;

	*out = NULL;
	if (kbit & JK_SEQ) {
		struct diskbench_seq_opts o = s->o.seq;

		if (kbit == JK_SEQ_W)
			o.flags |= DISKBENCH_SEQ_WRITE;
		if (s->o.mix_n) {
			o.block_mix = s->o.mix;
			o.block_mix_count = s->o.mix_n;
		}
		err = diskbench_phase_seq_new(&p, &o);
	} else if (kbit & JK_RANDOM) {
		struct diskbench_random_opts o = s->o.rnd;

		if (s->o.mix_n) {
			o.block_mix = s->o.mix;
			o.block_mix_count = s->o.mix_n;
		}
		err = diskbench_phase_random_new(&p, &o);
	} else if (kbit & JK_BONNIE) {
		err = diskbench_phase_bonnie_new(&p, (enum diskbench_phase_kind)s->o.kind,
						 &s->o.bon);
	} else if (kbit & JK_FILES) {
		err = diskbench_phase_files_new(&p, (enum diskbench_phase_kind)s->o.kind,
						&s->o.files);
	} else {
		snprintf(why, wl, "has no phase kind");
		return -EINVAL;
	}
	if (err)
		goto fail;
	step = "name";
	err = diskbench_phase_set_name(p, s->name);
	if (!err && s->o.pace.rate_per_sec > 0) {
		step = "rate";
		err = diskbench_phase_set_pace(p, &s->o.pace);
	} else if (!err && (s->o.pace.flags || s->o.pace.seed || s->o.pace.late_ns ||
			    s->o.pace.spin_ns)) {
		snprintf(why, wl, "poisson, pace_seed, late and spin need a rate");
		diskbench_phase_free(p);
		return -EINVAL;
	}
	if (!err && (s->o.shape.think_ns || s->o.shape.burst_ops || s->o.shape.idle_ns ||
		     s->o.shape.think_dist || s->o.shape.idle_dist)) {
		step = "think";
		err = diskbench_phase_set_shape(p, &s->o.shape);
	}
	if (!err && s->o.ramp_ns) {
		step = "ramp";
		err = diskbench_phase_set_ramp(p, s->o.ramp_ns);
	}
	if (!err && s->o.steady) {
		struct diskbench_steady_opts st = s->o.st;

		st.metric = s->o.steady == 2 ? DISKBENCH_STEADY_BANDWIDTH
					   : DISKBENCH_STEADY_IOPS;
		step = "steady";
		err = diskbench_phase_set_steady(p, &st);
	} else if (!err && (s->o.st.range_percent || s->o.st.slope_percent ||
			    s->o.st.window_ns || s->o.st.sample_ns || s->o.st.max_ns)) {
		snprintf(why, wl, "steady_* options need steady = iops or "
			 "bandwidth");
		diskbench_phase_free(p);
		return -EINVAL;
	}
	if (!err && (s->o.sync.method || s->o.sync.every || s->o.sync.flags)) {
		step = "sync";
		err = diskbench_phase_set_sync(p, &s->o.sync);
	}
	if (!err && (s->o.data.pattern || s->o.data.compress_percent ||
		     s->o.data.dedupe_percent || s->o.data.dedupe_pool)) {
		step = "data";
		err = diskbench_phase_set_data(p, &s->o.data);
	}
	if (err) {
		diskbench_phase_free(p);
		goto fail;
	}
	*out = p;
	return 0;
fail:
	if (err == -ENOMEM)
		return err;
	snprintf(why, wl, "%s%s%s", step, *step ? ": " : "",
		 diskbench__error_reason());
	return err;
}

/* The engine's depth a job's io_uring gets: engine_depth, else the
 * largest queue of its phases. */
static uint32_t engine_depth(const struct diskbench_job *job)
{
	uint32_t d = 1;

	if (job->g.engine_depth)
		return job->g.engine_depth;
	for (size_t i = 0; i < job->n; i++)
		if (sec_depth(&job->sec[i]) > d)
			d = sec_depth(&job->sec[i]);
	return d;
}

static bool sweep_set(const struct job_sec *s)
{
	const struct diskbench_load_sweep_opts *w = &s->r.sweep;

	return w->limit_ns || w->start_rate || w->max_rate || w->factor ||
	       w->percentile || w->tolerance || w->step_time_ns || w->max_steps ||
	       w->refine_steps || w->arrival;
}

static bool group_keys_set(const struct job_sec *s)
{
	return s->r.decider || s->r.group_all || s->r.group_time_ns;
}

/* Whether section i is the first of its group. */
static bool group_first(const struct diskbench_job *job, size_t i)
{
	const char *g = job->sec[i].r.group;

	for (size_t j = 0; j < i; j++)
		if (job->sec[j].r.group && !strcmp(job->sec[j].r.group, g))
			return false;
	return true;
}

/*
 * The group whose first section is i: its phases made into ph (*n of
 * them) and its options into go, as the run takes them; each fault of
 * the group's keys said in f with its line. On failure nothing is left
 * made.
 */
static int group_make(const struct diskbench_job *job, size_t i,
		      struct diskbench_phase **ph, size_t *n,
		      struct diskbench_group_opts *go, struct fail *f)
{
	const struct job_sec *s = &job->sec[i];
	size_t deciders = 0;
	char at[300], why[WHY];
	int err = 0;

	*n = 0;
	diskbench_group_opts_init(go, sizeof(*go));
	for (size_t j = i; j < job->n && !err; j++) {
		const struct job_sec *m = &job->sec[j];

		if (!m->r.group || strcmp(m->r.group, s->r.group))
			continue;
		if (m->o.kind == JOB_KIND_SUITE || sweep_set(m)) {
			err = failf(f, -EINVAL, "%s: [%s] a %s cannot be in "
				    "group \"%s\"",
				    where(job, line_of(m, "group"), at, sizeof(at)),
				    m->name, m->o.kind == JOB_KIND_SUITE
				    ? "bonnie suite" : "load sweep", s->r.group);
			break;
		}
		if (*n == DISKBENCH_GROUP_MAX_PHASES) {
			err = failf(f, -EINVAL, "%s: [%s] group \"%s\" has over "
				    "%d phases",
				    where(job, line_of(m, "group"), at, sizeof(at)),
				    m->name, s->r.group, DISKBENCH_GROUP_MAX_PHASES);
			break;
		}
		if (m->r.decider) {
			deciders++;
			go->decider = (uint32_t)*n;
		}
		if (m->r.group_all)
			go->flags |= DISKBENCH_GROUP_ALL;
		if (m->r.group_time_ns) {
			if (go->time_limit_ns && go->time_limit_ns != m->r.group_time_ns) {
				err = failf(f, -EINVAL, "%s: [%s] group_time differs "
					    "from another phase's of group \"%s\"",
					    where(job, line_of(m, "group_time"), at,
						  sizeof(at)), m->name, s->r.group);
				break;
			}
			go->time_limit_ns = m->r.group_time_ns;
		}
		err = make_phase(m, &ph[*n], why, sizeof(why));
		if (err)
			failf(f, err, "%s: [%s] %s",
			      where(job, m->line, at, sizeof(at)), m->name, why);
		else
			++*n;
	}
	if (!err && deciders > 1)
		err = failf(f, -EINVAL, "%s: [%s] group \"%s\" has %zu "
			    "deciders: at most one",
			    where(job, s->line, at, sizeof(at)), s->name,
			    s->r.group, deciders);
	if (!err && deciders && (go->flags & DISKBENCH_GROUP_ALL))
		err = failf(f, -EINVAL, "%s: [%s] group \"%s\" has a "
			    "decider and group_all: one or the other",
			    where(job, s->line, at, sizeof(at)), s->name, s->r.group);
	if (err) {
		while (*n)
			diskbench_phase_free(ph[--*n]);
	}
	return err;
}

/* The groups: 2 to 64 phases each, one decider or group_all, and one
 * time limit; phases of a group are made and checked together. */
static int check_groups(struct diskbench_job *job, struct fail *f)
{
	char at[300];

	for (size_t i = 0; i < job->n; i++) {
		struct job_sec *s = &job->sec[i];
		struct diskbench_phase *ph[DISKBENCH_GROUP_MAX_PHASES];
		struct diskbench_group_opts go;
		char msg[256];
		size_t n = 0;
		int err;

		if (!s->r.group) {
			if (group_keys_set(s))
				return failf(f, -EINVAL, "%s: [%s] group_decider, "
					     "group_all and group_time need a group",
					     where(job, s->line, at, sizeof(at)), s->name);
			continue;
		}
		if (!group_first(job, i))
			continue;
		err = group_make(job, i, ph, &n, &go, f);
		if (!err && diskbench__group_check(ph, n, &go, msg, sizeof(msg)))
			err = failf(f, -EINVAL, "%s: [%s] group \"%s\": %s",
				    where(job, s->line, at, sizeof(at)), s->name,
				    s->r.group, msg);
		for (size_t k = 0; k < n; k++)
			diskbench_phase_free(ph[k]);
		if (err)
			return err;
	}
	return 0;
}

static int check(struct diskbench_job *job, struct fail *f)
{
	char at[300], why[WHY];
	uint32_t depth = engine_depth(job);
	size_t suites = 0;

	if (!job->n)
		return failf(f, -EINVAL, "%s: no phase: a job has a section for "
			     "each phase it runs", job->file);
	/* what the target would refuse only once it is being made */
	if (job->g.prefix && !diskbench__target_prefix_ok(job->g.prefix)) {
		size_t k = row_index("prefix", JK_JOB);
		unsigned line = job->lines[k] == UINT_MAX ? 0 : job->lines[k];

		return failf(f, -EINVAL, "%s: [job] prefix \"%.80s\": 1 to 64 "
			     "characters, no '/'", where(job, line, at, sizeof(at)),
			     job->g.prefix);
	}
	for (size_t i = 0; i < job->n; i++) {
		struct job_sec *s = &job->sec[i];
		struct diskbench_phase *p;
		int err;

		if (s->o.kind == JOB_KIND_NONE)
			return failf(f, -EINVAL, "%s: [%s] has no kind",
				     where(job, s->line, at, sizeof(at)), s->name);
		if (sec_depth(s) > 1 && job->g.engine != 1)
			return failf(f, -EINVAL, "%s: [%s] queue_depth %" PRIu32
				     " is over the %s engine's 1 (engine = io_uring "
				     "queues)", where(job, line_of(s, "queue_depth"),
						     at, sizeof(at)),
				     s->name, sec_depth(s),
				     job->g.engine == 2 ? "null" : "sync");
		if (sec_depth(s) > depth)
			return failf(f, -EINVAL, "%s: [%s] queue_depth %" PRIu32
				     " is over the engine's %" PRIu32,
				     where(job, line_of(s, "queue_depth"), at, sizeof(at)),
				     s->name, sec_depth(s), depth);
		if (s->o.kind == JOB_KIND_SUITE) {
			struct diskbench_phase *ph[DISKBENCH__BONNIE_SUITE_PHASES];
			size_t n = 0;

			if (++suites > 1)
				return failf(f, -EINVAL, "%s: [%s] a second bonnie "
					     "suite: a run holds one",
					     where(job, s->line, at, sizeof(at)), s->name);
			if (s->r.group)
				continue;	/* said by check_groups */
			err = diskbench__bonnie_suite_make(&s->r.suite, ph, &n, why,
							   sizeof(why));
			while (n)
				diskbench_phase_free(ph[--n]);
			if (err == -ENOMEM)
				return failf(f, err, "out of memory");
			if (err)
				return failf(f, err, "%s: [%s] %s",
					     where(job, s->line, at, sizeof(at)),
					     s->name, why);
			continue;
		}
		if (sweep_set(s) && !s->r.sweep.limit_ns)
			return failf(f, -EINVAL, "%s: [%s] a load sweep needs "
				     "sweep_limit", where(job, s->line, at, sizeof(at)),
				     s->name);
		if (sweep_set(s) && s->r.group)
			continue;	/* said by check_groups */
		err = make_phase(s, &p, why, sizeof(why));
		if (err == -ENOMEM)
			return failf(f, err, "out of memory");
		if (err)
			return failf(f, err, "%s: [%s] %s",
				     where(job, s->line, at, sizeof(at)), s->name, why);
		diskbench_phase_free(p);
	}
	return check_groups(job, f);
}

/* ---- the text of a job file ---- */

#if DISKBENCH_HAVE_INIH

struct entry {
	char *sec, *key, *val;
	unsigned line;
};

struct reader {
	const char *p, *end;
	unsigned line;
	bool cont;		/* this line starts with white space */
	bool too_long, nul;
	/* the sections in the order seen: name and line */
	struct { char *name; unsigned line; } *secs;
	size_t nsecs;
	struct entry *e;
	size_t n;
	bool nomem;
};

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	const char *nl;
	size_t len, take;

	if (r->p >= r->end || r->too_long || r->nul || r->nomem)
		return NULL;
	nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	len = nl ? (size_t)(nl - r->p) + 1 : (size_t)(r->end - r->p);
	r->line++;
	take = len;
	/* libinih's buffer: num bytes, the NUL included */
	if (take + 1 > (size_t)num || len - (nl != NULL) > DISKBENCH_JOB_MAX_LINE) {
		r->too_long = true;
		return NULL;
	}
	if (memchr(r->p, '\0', len)) {
		r->nul = true;
		return NULL;
	}
	memcpy(str, r->p, take);
	str[take] = '\0';
	/* An indented line: with a '=' (or a comment, a header) it stands
	 * alone, and goes to libinih unindented, which would otherwise take
	 * it for more of the value before; without, it goes on with that
	 * value (a long block mix), as libinih reads an indented line. */
	r->cont = false;
	if (str[0] == ' ' || str[0] == '\t') {
		size_t ws = strspn(str, " \t");
		char c = str[ws];

		if (c && c != '\n' && c != '\r' && c != ';' && c != '#' &&
		    c != '[' && !strchr(str, '='))
			r->cont = true;
		else
			memmove(str, str + ws, take + 1 - ws);
	}
	/* A section's header: remember it, so that an empty one is seen. */
	{
		const char *s = str;
		const char *e;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[' && (e = strchr(s, ']')) != NULL) {
			void *v = realloc(r->secs, (r->nsecs + 1) * sizeof(*r->secs));

			if (!v) {
				r->nomem = true;
				return NULL;
			}
			r->secs = v;
			r->secs[r->nsecs].name = strndup(s + 1, (size_t)(e - s - 1));
			r->secs[r->nsecs].line = r->line;
			if (!r->secs[r->nsecs].name) {
				r->nomem = true;
				return NULL;
			}
			r->nsecs++;
		}
	}
	r->p += len;
	return str;
}

static int on_value(void *user, const char *ini_section, const char *name,
		    const char *value)
{
	struct reader *r = user;
	/* The section is the last header the reader saw (libinih reads a
	 * line, then calls this for it): libinih's own copy of a section's
	 * name is cut at 49 bytes, a phase's name is up to 64. */
	const char *section = r->nsecs ? r->secs[r->nsecs - 1].name : "";
	struct entry *v;

	(void)ini_section;

	if (r->cont && r->n && !strcmp(r->e[r->n - 1].key, name) &&
	    !strcmp(r->e[r->n - 1].sec, section)) {
		/* a continuation line: the value goes on */
		char *j = diskbench__format("%s%s", r->e[r->n - 1].val, value);

		if (!j) {
			r->nomem = true;
			return 0;
		}
		free(r->e[r->n - 1].val);
		r->e[r->n - 1].val = j;
		return 1;
	}
	v = realloc(r->e, (r->n + 1) * sizeof(*v));
	if (!v) {
		r->nomem = true;
		return 0;
	}
	r->e = v;
	v[r->n].sec = strdup(section);
	v[r->n].key = strdup(name);
	v[r->n].val = strdup(value);
	v[r->n].line = r->line;
	r->n++;
	if (!v[r->n - 1].sec || !v[r->n - 1].key || !v[r->n - 1].val) {
		r->nomem = true;
		return 0;
	}
	return 1;
}

static void reader_free(struct reader *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->e[i].sec);
		free(r->e[i].key);
		free(r->e[i].val);
	}
	free(r->e);
	for (size_t i = 0; i < r->nsecs; i++)
		free(r->secs[i].name);
	free(r->secs);
}

static int parse_text(struct diskbench_job *job, const char *text, size_t len,
		      struct fail *f)
{
	struct reader r;
	int bad;
	int err = 0;
	char at[300];

	memset(&r, 0, sizeof(r));
	r.p = text;
	r.end = text + len;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		r.p += 3;
	bad = ini_parse_stream(read_line, &r, on_value, &r);
	if (r.nomem) {
		err = failf(f, -ENOMEM, "out of memory");
		goto out;
	}
	if (r.too_long) {
		err = failf(f, -E2BIG, "%s:%u: the line is over %u bytes (a long "
			    "value goes on in lines that start with a space)",
			    job->file, r.line, DISKBENCH_JOB_MAX_LINE);
		goto out;
	}
	if (r.nul) {
		err = failf(f, -EINVAL, "%s:%u: a NUL byte: not a text file",
			    job->file, r.line);
		goto out;
	}
	if (bad) {
		err = failf(f, -EINVAL, "%s:%d: not a [section], a key = value or "
			    "a comment", job->file, bad);
		goto out;
	}
	/* The sections, in order; [job] once. */
	for (size_t i = 0; i < r.nsecs; i++) {
		const char *name = r.secs[i].name;
		unsigned line = r.secs[i].line;
		struct job_sec *dup = find_sec(job, name);

		if (!strcmp(name, "job")) {
			if (job->line) {
				err = failf(f, -EINVAL, "%s:%u: [job] again (first on "
					    "line %u)", job->file, line, job->line);
				goto out;
			}
			job->line = line;
			continue;
		}
		if (dup) {
			err = failf(f, -EINVAL, "%s:%u: [%s] again (first on line %u): "
				    "each phase has a name of its own", job->file,
				    line, name, dup->line);
			goto out;
		}
		if (diskbench__phase_name_check(name)) {
			err = failf(f, -EINVAL, "%s:%u: [%.80s] is not a phase's name: "
				    "%s", job->file, line, name,
				    diskbench__error_reason());
			goto out;
		}
		if (job->n == DISKBENCH_JOB_MAX_PHASES) {
			err = failf(f, -EINVAL, "%s:%u: over %u phases", job->file,
				    line, DISKBENCH_JOB_MAX_PHASES);
			goto out;
		}
		if (!add_sec(job, name, line)) {
			err = failf(f, -ENOMEM, "out of memory");
			goto out;
		}
	}
	/* Each phase's kind first, then every key in file order. */
	for (size_t i = 0; i < r.n; i++) {
		struct job_sec *s;

		if (!*r.e[i].sec) {
			err = failf(f, -EINVAL, "%s:%u: %s before any section",
				    job->file, r.e[i].line, r.e[i].key);
			goto out;
		}
		if (strcmp(r.e[i].key, "kind") || !strcmp(r.e[i].sec, "job"))
			continue;
		s = find_sec(job, r.e[i].sec);
		if (s && (err = apply(job, s, "kind", r.e[i].val, r.e[i].line,
				      false, f)))
			goto out;
	}
	for (size_t i = 0; i < r.n; i++) {
		bool glob = !strcmp(r.e[i].sec, "job");
		struct job_sec *s = glob ? NULL : find_sec(job, r.e[i].sec);

		if (!glob && !strcmp(r.e[i].key, "kind"))
			continue;
		if (!glob && s && s->o.kind == JOB_KIND_NONE) {
			err = failf(f, -EINVAL, "%s: [%s] has no kind",
				    where(job, s->line, at, sizeof(at)), s->name);
			goto out;
		}
		err = apply(job, s, r.e[i].key, r.e[i].val, r.e[i].line, false, f);
		if (err)
			goto out;
	}
out:
	reader_free(&r);
	return err;
}

#endif /* DISKBENCH_HAVE_INIH */

/*
 * The job's canonical form: a group without a decider or group_all is
 * decided by its first phase, said on that phase.
 */
/* Sets (or clears) a bool or time row of section s, with its text. */
static int put_row(struct job_sec *s, const char *key, uint64_t v)
{
	size_t k = row_index(key, JK_PHASE);
	const struct job_row *r = diskbench__job_row_at(k);
	void *base = (unsigned char *)&s->r;

	if (r->type == JT_BOOL)
		*(bool *)(void *)((unsigned char *)base + r->off) = v != 0;
	else
		memcpy((unsigned char *)base + r->off, &v, sizeof(v));
	free(s->text[k]);
	s->text[k] = NULL;
	if (!v) {
		s->lines[k] = 0;
		return 0;
	}
	s->text[k] = diskbench__job_value_text(r, base);
	if (!s->text[k])
		return -ENOMEM;
	if (!s->lines[k])
		s->lines[k] = s->line ? s->line : UINT_MAX;
	return 0;
}

/*
 * The job's canonical form, as a result's recipe writes it: a group's
 * time limit and group_all on its first phase, and a group with neither a
 * decider nor group_all decided by its first phase, said there.
 */
static int normalize(struct diskbench_job *job)
{
	for (size_t i = 0; i < job->n; i++) {
		struct job_sec *s = &job->sec[i];
		bool decided = false, all = false;
		uint64_t time = 0;

		if (!s->r.group || !group_first(job, i))
			continue;
		for (size_t j = i; j < job->n; j++) {
			struct job_sec *m = &job->sec[j];

			if (!m->r.group || strcmp(m->r.group, s->r.group))
				continue;
			decided |= m->r.decider || m->r.group_all;
			all |= m->r.group_all;
			if (m->r.group_time_ns)
				time = m->r.group_time_ns;
			if (j > i && (put_row(m, "group_all", 0) ||
				      put_row(m, "group_time", 0)))
				return -ENOMEM;
		}
		if (put_row(s, "group_all", all) || put_row(s, "group_time", time))
			return -ENOMEM;
		if (!decided && put_row(s, "group_decider", 1))
			return -ENOMEM;
	}
	return 0;
}

#if DISKBENCH_HAVE_INIH
static int finish(struct diskbench_job **out, struct diskbench_job *job,
		  struct fail *f, char **errmsg)
{
	int err = f->err ? f->err : check(job, f);

	if (!err && normalize(job))
		err = failf(f, -ENOMEM, "out of memory");
	if (err) {
		if (errmsg) {
			*errmsg = f->msg;
			f->msg = NULL;
		}
		diskbench__error_fail(err, "%s", f->msg ? f->msg :
				      errmsg && *errmsg ? *errmsg : "out of memory");
		free(f->msg);
		diskbench_job_free(job);
		return err;
	}
	*out = job;
	return 0;
}
#endif

static int diskbench_job_parse__impl(struct diskbench_job **out, const char *text,
				     size_t len, const char *file_name,
				     char **errmsg)
{
	struct diskbench_job *job;
	struct fail f = { NULL, 0 };

	if (errmsg)
		*errmsg = NULL;
	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	if (!text && len)
		return diskbench__error_fail(-EINVAL, "text is NULL with len %zu",
					     len);
#if DISKBENCH_HAVE_INIH
	job = job_new(file_name);
	if (!job)
		return -ENOMEM;
	parse_text(job, text ? text : "", len, &f);
	return finish(out, job, &f, errmsg);
#else
	static const char no_inih[] = "this library was built without "
				      "libinih: it reads no job files";

	(void)job;
	(void)f;
	(void)file_name;
	if (errmsg)
		*errmsg = strdup(no_inih);
	return diskbench__error_fail(-ENOTSUP, "%s", no_inih);
#endif
}

DISKBENCH_API int diskbench_job_parse(struct diskbench_job **out,
				      const char *text, size_t len,
				      const char *file_name, char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_job_parse__impl(out, text, len, file_name,
							errmsg), NULL);
}

#define JOB_MAX_FILE (16u << 20)

static int read_all(const char *path, char **buf, size_t *len, char *why,
		    size_t wl)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) : 0;
	struct stat st;
	size_t n = 0, cap = 4096;
	char *b;

	if (fd < 0) {
		int e = errno;

		snprintf(why, wl, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, wl, "%s: a directory, not a job file", path);
		if (fd)
			close(fd);
		return -EISDIR;
	}
	b = malloc(cap);
	while (b) {
		ssize_t got;

		if (n == cap) {
			char *nb = cap >= JOB_MAX_FILE ? NULL : realloc(b, cap * 2);

			if (!nb) {
				int e = cap >= JOB_MAX_FILE ? -EFBIG : -ENOMEM;

				snprintf(why, wl, "%s: %s", path, e == -EFBIG
					 ? "over 16 MiB: not a job file"
					 : "out of memory");
				free(b);
				if (fd)
					close(fd);
				return e;
			}
			b = nb;
			cap *= 2;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			snprintf(why, wl, "%s: %s", path, strerror(e));
			free(b);
			if (fd)
				close(fd);
			return -e;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	if (fd)
		close(fd);
	if (!b) {
		snprintf(why, wl, "out of memory");
		return -ENOMEM;
	}
	*buf = b;
	*len = n;
	return 0;
}

static int diskbench_job_load__impl(struct diskbench_job **out, const char *path,
				    char **errmsg)
{
	char why[WHY], *buf = NULL;
	size_t len = 0;
	int err;

	if (errmsg)
		*errmsg = NULL;
	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(path);
	err = read_all(path, &buf, &len, why, sizeof(why));
	if (err) {
		if (errmsg)
			*errmsg = strdup(why);
		return diskbench__error_fail(err, "%s", why);
	}
	err = diskbench_job_parse__impl(out, buf, len, path, errmsg);
	free(buf);
	return err;
}

DISKBENCH_API int diskbench_job_load(struct diskbench_job **out,
				     const char *path, char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_job_load__impl(out, path, errmsg), NULL);
}

/* ---- a copy, for a change that may fail ---- */

static int copy_rows(unsigned *dl, char **dt, const unsigned *sl,
		     char *const *st)
{
	memcpy(dl, sl, diskbench__job_nrows() * sizeof(*dl));
	for (size_t i = 0; i < diskbench__job_nrows(); i++)
		if (st[i] && !(dt[i] = strdup(st[i])))
			return -ENOMEM;
	return 0;
}

static struct diskbench_job *job_copy(const struct diskbench_job *job)
{
	struct diskbench_job *c = job_new(job->file);
	int bad = 0;

	if (!c)
		return NULL;
	c->line = job->line;
	{
		c->g = job->g;
		c->g.dir = diskbench__strdup_or_null(job->g.dir, &bad);
		c->g.prefix = diskbench__strdup_or_null(job->g.prefix, &bad);
		c->g.name = diskbench__strdup_or_null(job->g.name, &bad);
		for (size_t i = 0; i < DISKBENCH__JOB_OUTPUTS; i++)
			c->g.out[i] = diskbench__strdup_or_null(job->g.out[i], &bad);
		if (copy_rows(c->lines, c->text, job->lines, job->text))
			bad = -ENOMEM;
	}
	for (size_t i = 0; i < job->n && !bad; i++) {
		const struct job_sec *s = &job->sec[i];
		struct job_sec *d = add_sec(c, s->name, s->line);
		unsigned *l;
		char **t;
		char *name;

		if (!d) {
			bad = -ENOMEM;
			break;
		}
		l = d->lines;
		t = d->text;
		name = d->name;
		*d = *s;
		d->lines = l;
		d->text = t;
		d->name = name;
		d->r.group = diskbench__strdup_or_null(s->r.group, &bad);
		if (copy_rows(l, t, s->lines, s->text))
			bad = -ENOMEM;
	}
	if (bad) {
		diskbench_job_free(c);
		return NULL;
	}
	return c;
}

/* One change of a set, on the copy c. */
static void set_one(struct diskbench_job *c, const char *section,
		    const char *key, const char *value, struct fail *f)
{
	struct job_sec *s = NULL;

	if (section && strcmp(section, "job")) {
		s = find_sec(c, section);
		if (!s) {
			if (strcmp(key, "kind"))
				failf(f, -EINVAL, "%s: set: [%s] is a new phase: set "
				      "its kind first", c->file, section);
			else if (sec_name_check(section))
				failf(f, -EINVAL, "%s: set: [%.80s] is not a phase's "
				      "name: %s", c->file, section,
				      diskbench__error_reason());
			else if (c->n == DISKBENCH_JOB_MAX_PHASES)
				failf(f, -EINVAL, "%s: set: over %u phases", c->file,
				      DISKBENCH_JOB_MAX_PHASES);
			else if (!(s = add_sec(c, section, 0)))
				failf(f, -ENOMEM, "out of memory");
		} else if (!strcmp(key, "kind")) {
			failf(f, -EINVAL, "%s: set: [%s] has its kind: a phase's "
			      "kind is set once", c->file, section);
		}
	}
	if (!f->err)
		apply(c, s, key, value, 0, true, f);
}

/* n changes on a copy of the job, checked whole once; the copy becomes
 * the job, or the job stays as it was. */
static int set_many(struct diskbench_job *job, const char *const *sections,
		    const char *const *keys, const char *const *values,
		    size_t n, char **errmsg)
{
	struct diskbench_job *c = job_copy(job);
	struct fail f = { NULL, 0 };
	int err;

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n && !f.err; i++)
		set_one(c, sections ? sections[i] : NULL, keys[i], values[i], &f);
	err = f.err ? f.err : check(c, &f);
	if (!err && normalize(c))
		err = failf(&f, -ENOMEM, "out of memory");
	if (err) {
		if (errmsg) {
			*errmsg = f.msg;
			f.msg = NULL;
		}
		diskbench__error_fail(err, "%s", f.msg ? f.msg :
				      errmsg && *errmsg ? *errmsg : "out of memory");
		free(f.msg);
		diskbench_job_free(c);
		return err;
	}
	/* the copy becomes the job */
	{
		struct diskbench_job tmp = *job;

		*job = *c;
		*c = tmp;
	}
	diskbench_job_free(c);
	return 0;
}

static int diskbench_job_set__impl(struct diskbench_job *job, const char *section,
				   const char *key, const char *value,
				   char **errmsg)
{
	if (errmsg)
		*errmsg = NULL;
	DISKBENCH__CHECK_ARG(job);
	DISKBENCH__CHECK_ARG(key);
	DISKBENCH__CHECK_ARG(value);
	return set_many(job, &section, &key, &value, 1, errmsg);
}

DISKBENCH_API int diskbench_job_set(struct diskbench_job *job,
				    const char *section, const char *key,
				    const char *value, char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_job_set__impl(job, section, key, value,
						      errmsg), NULL);
}

static int diskbench_job_set_many__impl(struct diskbench_job *job,
					const char *const *sections,
					const char *const *keys,
					const char *const *values, size_t n,
					char **errmsg)
{
	if (errmsg)
		*errmsg = NULL;
	DISKBENCH__CHECK_ARG(job);
	if (n && !keys)
		return diskbench__error_fail(-EINVAL, "keys is NULL with n %zu", n);
	if (n && !values)
		return diskbench__error_fail(-EINVAL, "values is NULL with n %zu", n);
	for (size_t i = 0; i < n; i++)
		if (!keys[i] || !values[i])
			return diskbench__error_fail(-EINVAL, "%s[%zu] is NULL",
						     keys[i] ? "values" : "keys", i);
	return set_many(job, sections, keys, values, n, errmsg);
}

DISKBENCH_API int diskbench_job_set_many(struct diskbench_job *job,
					 const char *const *sections,
					 const char *const *keys,
					 const char *const *values, size_t n,
					 char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_job_set_many__impl(job, sections, keys,
							   values, n, errmsg),
			      NULL);
}

/* ---- reading a job ---- */

/* A value needs quotes in a file when it has a ';' after white space or
 * ends or begins with white space: none of ours can; written as is. */
static int text_section(struct diskbench__bytes *b, const char *name,
			const unsigned *lines, char *const *text, uint32_t kbit,
			const char *kind)
{
	char *h = diskbench__format("[%s]\n", name);

	if (!h)
		return -ENOMEM;
	diskbench__bytes_put(b, h, strlen(h));
	free(h);
	if (kind) {
		diskbench__bytes_put(b, "kind = ", 7);
		diskbench__bytes_put(b, kind, strlen(kind));
		diskbench__bytes_put(b, "\n", 1);
	}
	for (size_t i = 0; i < diskbench__job_nrows(); i++) {
		const struct job_row *r = diskbench__job_row_at(i);

		if (!(r->kinds & kbit) || r->type == JT_KIND || !lines[i] || !text[i])
			continue;
		diskbench__bytes_put(b, r->key, strlen(r->key));
		diskbench__bytes_put(b, " = ", 3);
		diskbench__bytes_put(b, text[i], strlen(text[i]));
		diskbench__bytes_put(b, "\n", 1);
	}
	return 0;
}

static long diskbench_job_text__impl(const struct diskbench_job *job, char **out)
{
	struct diskbench__bytes b = { NULL, 0, 0, false };

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(job);
	if (text_section(&b, "job", job->lines, job->text, JK_JOB, NULL))
		b.nomem = true;
	for (size_t i = 0; i < job->n; i++) {
		const struct job_sec *s = &job->sec[i];

		diskbench__bytes_put(&b, "\n", 1);
		if (text_section(&b, s->name, s->lines, s->text,
				 diskbench__job_kind_bit(s->o.kind),
				 diskbench__job_kind_word(s->o.kind)))
			b.nomem = true;
	}
	diskbench__bytes_put(&b, "", 1);
	if (b.nomem) {
		free(b.p);
		return -ENOMEM;
	}
	*out = (char *)b.p;
	return (long)(b.len - 1);
}

DISKBENCH_API long diskbench_job_text(const struct diskbench_job *job, char **out)
{
	DISKBENCH__API_RETURN_AS(long, diskbench_job_text__impl(job, out), NULL);
}

DISKBENCH_API const char *diskbench_job_value(const struct diskbench_job *job,
					    const char *section, const char *key)
{
	const struct job_sec *s = NULL;
	size_t i;

	if (!job || !key)
		return NULL;
	if (section && strcmp(section, "job")) {
		s = find_sec(job, section);
		if (!s)
			return NULL;
		if (!strcmp(key, "kind"))
			return diskbench__job_kind_word(s->o.kind);
	}
	if (!diskbench__job_row(key, s ? diskbench__job_kind_bit(s->o.kind) : JK_JOB,
				&i))
		return NULL;
	return s ? (s->lines[i] ? s->text[i] : NULL)
		 : (job->lines[i] ? job->text[i] : NULL);
}

DISKBENCH_API size_t diskbench_job_phase_count(const struct diskbench_job *job)
{
	return job ? job->n : 0;
}

DISKBENCH_API const char *diskbench_job_phase_get(const struct diskbench_job *job,
						   size_t index)
{
	return job && index < job->n ? job->sec[index].name : NULL;
}

DISKBENCH_API uint32_t diskbench_job_repeat(const struct diskbench_job *job)
{
	if (!job)
		return 0;
	return job->g.repeat ? job->g.repeat : 1;
}

static const enum diskbench_format out_format[DISKBENCH__JOB_OUTPUTS] = {
	DISKBENCH_FORMAT_JSON, DISKBENCH_FORMAT_BONNIE_CSV, DISKBENCH_FORMAT_HTML,
	DISKBENCH_FORMAT_BONNIE_TEXT, DISKBENCH_FORMAT_HDR_LOG,
	DISKBENCH_FORMAT_JOURNAL,
};

DISKBENCH_API size_t diskbench_job_output_count(const struct diskbench_job *job)
{
	size_t n = 0;

	for (size_t i = 0; job && i < DISKBENCH__JOB_OUTPUTS; i++)
		n += job->g.out[i] != NULL;
	return n;
}

static int diskbench_job_output_get__impl(const struct diskbench_job *job,
					  size_t index,
					  enum diskbench_format *format,
					  const char **path)
{
	DISKBENCH__CHECK_ARG(job);
	DISKBENCH__CHECK_ARG(format);
	DISKBENCH__CHECK_ARG(path);
	for (size_t i = 0, k = index; i < DISKBENCH__JOB_OUTPUTS; i++) {
		if (!job->g.out[i])
			continue;
		if (!k--) {
			*format = out_format[i];
			*path = job->g.out[i];
			return 0;
		}
	}
	return diskbench__error_fail(-EINVAL, "index %zu is over the job's "
				     "%zu outputs", index,
				     diskbench_job_output_count(job));
}

DISKBENCH_API int diskbench_job_output_get(const struct diskbench_job *job,
					   size_t index,
					   enum diskbench_format *format,
					   const char **path)
{
	DISKBENCH__API_RETURN(diskbench_job_output_get__impl(job, index, format,
							     path), NULL);
}

/* ---- making it ---- */

/* probe false: the target of a plan, made without a file (see
 * diskbench__target_new_unprobed()). */
static int job_target(const struct diskbench_job *job, const char *dir,
		      struct diskbench_target **out, char **errmsg, bool probe)
{
	struct diskbench_engine *e = NULL;
	struct diskbench_target_opts o;
	int err;

	if (errmsg)
		*errmsg = NULL;
	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(job);
	if (!dir)
		dir = job->g.dir;
	if (!dir)
		return diskbench__error_fail(-EINVAL, "%s: no dir: the job names "
					     "no directory and none was given",
					     job->file);
	switch (job->g.engine) {
	case 1: err = diskbench_engine_io_uring_new(&e, engine_depth(job)); break;
	case 2: err = diskbench_engine_null_new(&e); break;
	default: err = diskbench_engine_sync_new(&e); break;
	}
	if (err)
		return err;
	o = job->g.target;
	o.engine = e;
	o.name_prefix = job->g.prefix;
	err = probe ? diskbench_target_new(out, dir, &o, errmsg)
		    : diskbench__target_new_unprobed(out, dir, &o, errmsg);
	if (err) {
		diskbench_engine_free(e);
		if (errmsg && *errmsg)
			diskbench__error_fail(err, "%s", *errmsg);
		return err;
	}
	(*out)->owns_engine = true;
	return 0;
}

DISKBENCH_API int diskbench_job_target(const struct diskbench_job *job,
				       const char *dir,
				       struct diskbench_target **out,
				       char **errmsg)
{
	DISKBENCH__API_RETURN(job_target(job, dir, out, errmsg, true), NULL);
}

/* Adds section i (and, for the first phase of a group, the whole group). */
static int add_section(const struct diskbench_job *job, size_t i,
		       struct diskbench_run *run)
{
	const struct job_sec *s = &job->sec[i];
	char why[WHY];
	struct diskbench_phase *p;
	int err;

	if (s->o.kind == JOB_KIND_SUITE)
		return diskbench_run_add_bonnie(run, &s->r.suite);
	if (s->r.group) {
		struct diskbench_phase *ph[DISKBENCH_GROUP_MAX_PHASES];
		struct diskbench_group_opts go;
		struct fail f = { NULL, 0 };
		size_t n = 0;

		if (!group_first(job, i))
			return 0;	/* added with its first phase */
		err = group_make(job, i, ph, &n, &go, &f);
		free(f.msg);
		if (!err)
			err = diskbench_run_add_group(run, ph, n, s->r.group, &go);
		if (err)
			for (size_t k = 0; k < n; k++)
				diskbench_phase_free(ph[k]);
		return err;
	}
	err = make_phase(s, &p, why, sizeof(why));
	if (err)
		return err;
	if (sweep_set(s))
		err = diskbench_run_add_load_sweep(run, p, s->name, &s->r.sweep);
	else
		err = diskbench_run_add(run, p);
	if (err)
		diskbench_phase_free(p);
	return err;
}

static int diskbench_job_run__impl(const struct diskbench_job *job,
				   struct diskbench_target *target,
				   const struct diskbench_run_opts *opts,
				   struct diskbench_run **out)
{
	struct diskbench_run_opts o;
	const struct diskbench__job_glob *g;
	size_t k;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(job);
	DISKBENCH__CHECK_ARG(target);
	g = &job->g;
	err = DISKBENCH__OPTS_READ(&o, run_opts, opts);
	if (err)
		return err;
	/* The job's options over the caller's */
#define OVER(field) do { if (g->run.field) o.field = g->run.field; } while (0)
	OVER(timeline_interval_ns);
	OVER(timeline_max_intervals);
	OVER(hist_precision_bits);
	OVER(slow_threshold_ns);
	OVER(device_interval_ns);
	OVER(stop_bytes);
	OVER(stop_ops);
	OVER(stop_time_ns);
#undef OVER
	o.flags |= g->run.flags;
	if (job->lines[row_index("seed", JK_JOB)]) {
		o.seed = (uint32_t)g->seed;
		o.flags |= DISKBENCH_RUN_SEED;
	}
	err = diskbench_run_new(out, target, &o);
	if (err)
		return err;
	for (k = 0; k < job->n && !err; k++)
		err = add_section(job, k, *out);
	if (err) {
		diskbench_run_free(*out);
		*out = NULL;
	}
	return err;
}

DISKBENCH_API int diskbench_job_run(const struct diskbench_job *job,
				    struct diskbench_target *target,
				    const struct diskbench_run_opts *opts,
				    struct diskbench_run **out)
{
	DISKBENCH__API_RETURN(diskbench_job_run__impl(job, target, opts, out), NULL);
}

/* ---- for job/recipe.c ---- */

int diskbench__job_empty(struct diskbench_job **out, const char *file)
{
	*out = job_new(file);
	return *out ? 0 : -ENOMEM;
}

int diskbench__job_add_phase(struct diskbench_job *job, const char *name,
			     const char *kind, char **errmsg)
{
	struct fail f = { NULL, 0 };
	struct job_sec *s;

	if (find_sec(job, name))
		failf(&f, -EINVAL, "%s: [%s] twice: a run's results have names "
		      "of their own", job->file, name);
	else if (sec_name_check(name))
		failf(&f, -EINVAL, "%s: [%.80s] is not a phase's name: %s",
		      job->file, name, diskbench__error_reason());
	else if (job->n == DISKBENCH_JOB_MAX_PHASES)
		failf(&f, -EINVAL, "%s: over %u phases", job->file,
		      DISKBENCH_JOB_MAX_PHASES);
	else if (!(s = add_sec(job, name, 0)))
		failf(&f, -ENOMEM, "out of memory");
	else
		apply(job, s, "kind", kind, 0, false, &f);
	if (errmsg)
		*errmsg = f.msg;
	else
		free(f.msg);
	return f.err;
}

int diskbench__job_check(struct diskbench_job *job, char **errmsg)
{
	struct fail f = { NULL, 0 };
	int err = check(job, &f);

	if (!err && normalize(job))
		err = failf(&f, -ENOMEM, "out of memory");
	if (errmsg)
		*errmsg = f.msg;
	else
		free(f.msg);
	return err;
}

int diskbench__job_put(struct diskbench_job *job, const char *section,
		       const char *key, const char *value, char **errmsg)
{
	struct fail f = { NULL, 0 };
	struct job_sec *s = section ? find_sec(job, section) : NULL;

	if (section && !s)
		failf(&f, -EINVAL, "%s: [%s] is not a section of the job",
		      job->file, section);
	else
		apply(job, s, key, value, 0, true, &f);
	if (errmsg)
		*errmsg = f.msg;
	else
		free(f.msg);
	return f.err;
}

/* ---- a plan ---- */

static long diskbench_job_plan__impl(const struct diskbench_job *job,
				     const char *dir, char **out)
{
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	char *why = NULL, *plan = NULL, *text;
	uint32_t reps;
	long n;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(job);
	err = job_target(job, dir, &t, &why, false);
	free(why);
	if (err)
		return err;
	err = diskbench_job_run(job, t, NULL, &run);
	if (err) {
		diskbench_target_free(t);
		return diskbench__error_fail(err, "%s", diskbench__error_reason());
	}
	n = diskbench__run_plan(run, &plan);
	diskbench_run_free(run);
	diskbench_target_free(t);
	if (n < 0)
		return n;
	reps = diskbench_job_repeat(job);
	text = diskbench__format("%" PRIu32 " run%s, each:\n%s", reps,
				 reps == 1 ? "" : "s", plan);
	free(plan);
	if (!text)
		return -ENOMEM;
	*out = text;
	return (long)strlen(text);
}

DISKBENCH_API long diskbench_job_plan(const struct diskbench_job *job,
				      const char *dir, char **out)
{
	DISKBENCH__API_RETURN_AS(long, diskbench_job_plan__impl(job, dir, out), NULL);
}
