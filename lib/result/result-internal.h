#ifndef DISKBENCH_RESULT_INTERNAL_H
#define DISKBENCH_RESULT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/result.h>

#include "core/wait-internal.h"

struct diskbench__slow_log;
struct diskbench__dev_series;

/* What few results have: a name that is not their kind's, an error. */
struct diskbench__result_extra {
	char *name;             /* NULL: the kind's name */
	int err;                /* 0: no error; the strings are then NULL */
	char *err_op;
	char *err_path;
	uint64_t err_offset;    /* UINT64_MAX: none */
	char *errmsg;
	/* The configuration that made the result: key, value, key, value...
	 * in the order they were set. */
	char **config;
	size_t nconfig;         /* pairs */
	/* A merged result's inputs (diskbench_result_merge()), copies owned
	 * by it, and the clock offset each was given. */
	struct diskbench_result **inputs;
	int64_t *input_offsets_ns;
	size_t ninputs;
};

/*
 * Every result starts with this, and a summary-only one is only this: a
 * result read from bonnie++ CSV knows a rate in its kind's unit (bytes/s
 * for the big-file phases, else ops/s), a CPU percent and the largest
 * latency, and costs 40 bytes (a CSV of 100,000 runs holds 1.2 million of
 * them). A measured result is a struct diskbench__measured around it, with
 * counters, times, histogram and timeline; its rate, cpu_percent and
 * max_latency_ns are unused. Fields are set by the library's phases and
 * readers through the helpers below; users go through the getters.
 */
struct diskbench_result {
	struct diskbench__result_extra *extra;  /* NULL: none */
	double rate;
	double cpu_percent;
	uint64_t max_latency_ns;
	uint8_t kind;           /* enum diskbench_phase_kind */
	bool summary;           /* only this struct */
	bool too_fast;
};

struct diskbench__measured {
	struct diskbench_result r;
	uint64_t ops;
	uint64_t bytes;
	uint64_t elapsed_ns;
	uint64_t cpu_user_ns;
	uint64_t cpu_system_ns;
	uint64_t start_ns;      /* when the phase started, on its clock */
	struct diskbench_hist *hist;
	struct diskbench_timeline *tl;
	struct diskbench__slow_log *slow;   /* NULL: no slow-operation log */
	struct diskbench__pace_part *pace;  /* NULL: not paced */
	/* The kernel's view beside the phase (core/devstat.c): the devices
	 * sampled and their points, or only why not. NULL: nothing said (a
	 * result built by hand, or read from a document older than 1.5). */
	struct diskbench__dev_series *dev;
	/* The waits outside the operations (the closing fsync and close),
	 * from the phase's start; none for a result read from a document
	 * older than 1.7. */
	struct diskbench__waits waits;
	/* A paced phase's response time: its service time's p99, which the
	 * relative stall rule measures against (result/stall.c); set by
	 * diskbench__result_set_pace(). 0: its own p99. */
	uint64_t base_p99_ns;
	/* Its analysis (the stalls under the default rule, their verdicts
	 * and summary: analysis/stall.c), made once where the result is made
	 * (analysis/analysis.c: the run at the phase's end, the readers, the
	 * decoder, merge and copy), freed with it by derived_free; never
	 * copied here. Only the analysis layer sets it, on a result it is
	 * making; every output reads it. */
	void *derived;
	void (*derived_free)(void *derived);
};

/* A paced phase's pacing figures and response time (a measured result of
 * its own, same name and kind). */
struct diskbench__pace_part {
	struct diskbench_pace_info info;
	struct diskbench_result *response;
};

/* Gives a measured result its pacing part: info copied, response taken
 * (freed on failure too); -EINVAL for a summary-only result or a response
 * that is one, -ENOMEM. */
int diskbench__result_set_pace(struct diskbench_result *res,
			       const struct diskbench_pace_info *info,
			       struct diskbench_result *response);

/* The pacing part, or NULL. */
const struct diskbench__pace_part *
diskbench__result_pace(const struct diskbench_result *res);

/* The measured part of a result; NULL for a summary-only one. */
static inline struct diskbench__measured *
diskbench__measured(struct diskbench_result *res)
{
	return res->summary ? NULL : (struct diskbench__measured *)res;
}

static inline const struct diskbench__measured *
diskbench__measured_c(const struct diskbench_result *res)
{
	return res->summary ? NULL : (const struct diskbench__measured *)res;
}

/*
 * The result layer's constructors, as the public ones (diskbench_result_new(),
 * diskbench_result_copy()) but without the analysis: those are the analysis
 * layer's (analysis/analysis.c), which makes a result's analysis once, as
 * the result is made. A copy does not carry the original's analysis.
 */
int diskbench__result_new(struct diskbench_result **out, const char *name,
			  enum diskbench_phase_kind kind,
			  const struct diskbench_recorder *rec);
int diskbench__result_copy(struct diskbench_result **out,
			   const struct diskbench_result *src);

/* A summary-only result (what a bonnie++ CSV cell pair says). */
int diskbench__result_summary(struct diskbench_result **out,
			      enum diskbench_phase_kind kind, bool too_fast,
			      double rate, double cpu_percent,
			      uint64_t max_latency_ns);

/* A measured result from figures read back; takes hist and tl, which are
 * freed on failure too. */
int diskbench__result_measured(struct diskbench_result **out,
			       const char *name, enum diskbench_phase_kind kind,
			       struct diskbench_hist *hist,
			       struct diskbench_timeline *tl, uint64_t ops,
			       uint64_t bytes, uint64_t elapsed_ns,
			       uint64_t cpu_user_ns, uint64_t cpu_system_ns,
			       bool too_fast);

/* Gives a result its inputs: takes the array of results (each owned by
 * it from then on) and the array of offsets, both malloc'd; n > 0. On
 * -ENOMEM, frees both and everything in them. */
int diskbench__result_set_inputs(struct diskbench_result *res,
				 struct diskbench_result **inputs,
				 int64_t *offsets_ns, size_t n);
/* Gives a measured result a slow-operation log (taken, freed on failure
 * too); -EINVAL for a summary-only result. */
int diskbench__result_set_slow(struct diskbench_result *res,
			       struct diskbench__slow_log *log);

/* Gives the result a name (copied); 0 or -ENOMEM. */
int diskbench__result_set_name(struct diskbench_result *res, const char *name);

/* Sets the error with a message of the caller's (an error read back);
 * the strings are copied, each may be NULL. 0 or -ENOMEM. */
int diskbench__result_set_error_msg(struct diskbench_result *res, int code,
				    const char *op, const char *path,
				    uint64_t offset, const char *msg);

/* Whether a configuration key follows diskbench_result_set_config()'s
 * rules. */
bool diskbench__config_key_ok(const char *key);
/* Whether a configuration value follows its rules (text without control
 * characters, at most 4096 bytes). */
bool diskbench__config_value_ok(const char *value);
/* Both, or -EINVAL with the last error saying which rule @p key or
 * @p value breaks (or which is NULL). */
int diskbench__config_check(const char *key, const char *value);

/* The result's slow-operation log, NULL when it has none. */
const struct diskbench__slow_log *
diskbench__result_slow(const struct diskbench_result *res);

/* The highest rate a phase is paced at, DISKBENCH_PACE_MAX_RATE of the
 * phase layer's <diskbench/phase.h> (lib/phase/pace.c checks they agree):
 * what a result read back may hold. */
#define DISKBENCH__RESULT_MAX_PACE_RATE 1e9

#endif
