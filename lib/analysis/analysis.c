/*
 * The analysis made once per result (analysis/analysis-internal.h), and
 * the public constructors of results, which make it: a result is never
 * handed out without its analysis, so that no output has to start one.
 */
#include <errno.h>

#include <diskbench/exchange.h>
#include <diskbench/stall.h>

#include "analysis/analysis-internal.h"
#include "analysis/stall-internal.h"
#include "base/error-internal.h"
#include "result/decode-internal.h"
#include "result/merge-internal.h"
#include "result/result-internal.h"

static void free_stalls(void *st)
{
	diskbench_stalls_free(st);
}

int diskbench__analysis_attach(struct diskbench_result *res)
{
	struct diskbench__measured *m = res ? diskbench__measured(res) : NULL;
	struct diskbench__result_extra *x = res ? res->extra : NULL;
	struct diskbench_stalls *st;
	int err;

	if (!m)
		return 0;
	if (m->derived_free)
		m->derived_free(m->derived);
	m->derived = NULL;
	m->derived_free = NULL;
	err = diskbench__stalls_make(&st, res);
	if (err)
		return err;
	m->derived = st;
	m->derived_free = free_stalls;
	if (m->pace && (err = diskbench__analysis_attach(m->pace->response)))
		return err;
	for (size_t i = 0; x && i < x->ninputs; i++)
		if ((err = diskbench__analysis_attach(x->inputs[i])))
			return err;
	return 0;
}

/* A result just made by the result layer, with its analysis; freed (and
 * *out NULL) when that fails. */
static int attached(struct diskbench_result **out, int err)
{
	if (err)
		return err;
	err = diskbench__analysis_attach(*out);
	if (err) {
		diskbench_result_free(*out);
		*out = NULL;
	}
	return err;
}

DISKBENCH_API int diskbench_result_new(struct diskbench_result **out,
				       const char *name,
				       enum diskbench_phase_kind kind,
				       const struct diskbench_recorder *rec)
{
	DISKBENCH__API_RETURN(attached(out, diskbench__result_new(out, name, kind, rec)),
			      NULL);
}

DISKBENCH_API int diskbench_result_copy(struct diskbench_result **out,
					const struct diskbench_result *src)
{
	DISKBENCH__API_RETURN(attached(out, diskbench__result_copy(out, src)), NULL);
}

DISKBENCH_API int diskbench_result_decode(struct diskbench_result **out,
					  const void *buf, size_t len,
					  char **errmsg)
{
	DISKBENCH__API_RETURN(attached(out, diskbench__result_decode(out, buf, len, errmsg)),
			      errmsg && *errmsg ? *errmsg : NULL);
}

DISKBENCH_API int
(diskbench_result_merge)(struct diskbench_result **out,
			 const struct diskbench_result *const *inputs,
			 const int64_t *offsets_ns, size_t n, char **errmsg)
{
	DISKBENCH__API_RETURN(attached(out, diskbench__result_merge(out, inputs, offsets_ns,
								    n, errmsg)),
			      errmsg && *errmsg ? *errmsg : NULL);
}
