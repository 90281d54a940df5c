/*
 * tests/api/test-run-events.c: a run's phase events (diskbench_run_opts
 * .event): a start and an end per phase, in order, with the phase, its
 * index and, at the end, its result; outside every phase's timing (on the
 * simulated device, whose clock an event moves, and on the null engine
 * with a real sleep); what a failing start or end event does; and the
 * events of a failed phase and of a cancelled run, as run.h says.
 */
#include "fixture.h"
#include "run-helpers.h"

#include <time.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(256) << 10)
#define BLOCK 8192u
#define MAX_EVENTS 32

struct seen {
	uint32_t type, index, count;
	enum diskbench_phase_kind kind;
	char name[32];
	const struct diskbench_phase *phase;
	const struct diskbench_result *result;
	int error;
	size_t results_then;     /* diskbench_run_result_count() in the call */
	size_t sz;
};

/* What the test's callback does and saw. */
struct events {
	struct seen ev[MAX_EVENTS];
	size_t n;
	struct sim *s;           /* advance its clock by advance_ns a call */
	uint64_t advance_ns;
	uint64_t sleep_ns;       /* a real sleep a call */
	/* at the fail_at-th call (from 1): return fail_rc, or cancel the run */
	size_t fail_at;
	int fail_rc;
	bool cancel;
	int add_rc;              /* what diskbench_run_add() answered in a call */
	struct diskbench_run *run;
};

static int on_event(const struct diskbench_run_event *e, void *ud)
{
	struct events *x = ud;
	struct seen *s;

	assert_true(x->n < MAX_EVENTS);
	s = &x->ev[x->n++];
	s->type = e->type;
	s->index = e->phase_index;
	s->count = e->phase_count;
	s->kind = e->phase_kind;
	snprintf(s->name, sizeof(s->name), "%s", e->phase_name);
	s->phase = e->phase;
	s->result = e->result;
	s->error = e->error;
	s->results_then = diskbench_run_result_count(e->run);
	s->sz = e->sz;
	if (x->s && x->advance_ns)
		sim_advance(x->s, x->advance_ns);
	if (x->sleep_ns) {
		struct timespec ts = { (time_t)(x->sleep_ns / 1000000000u),
				       (long)(x->sleep_ns % 1000000000u) };

		nanosleep(&ts, NULL);
	}
	if (x->run) {
		struct diskbench_phase *p = NULL;

		assert_ok(diskbench_phase_seq_new(&p, NULL));
		x->add_rc = diskbench_run_add(x->run, p);
		diskbench_phase_free(p);
	}
	if (x->n == x->fail_at) {
		if (x->cancel)
			diskbench_run_cancel((struct diskbench_run *)e->run);
		return x->fail_rc;
	}
	return 0;
}

/* What the callback of the test running now saw (one test at a time). */
static struct events got;

static int ev_setup(void **state)
{
	memset(&got, 0, sizeof(got));
	return fx_setup(state);
}

/* A target on the simulated device (or the null engine: null = true) and
 * a run whose events go to got, or to nothing (with_events = false). */
static void fx_start(struct fx *f, bool null, bool with_events)
{
	struct diskbench_run_opts ro = seed_opts(7);

	if (null) {
		assert_ok(diskbench_engine_null_new(&f->e));
	} else {
		fx_sim(f, NULL);
		got.s = f->s;
	}
	if (with_events) {
		ro.event = on_event;
		ro.event_user_data = &got;
	}
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
}

/* A custom phase of `count` ops, each advancing the simulated clock by
 * op_ns (none on the null engine); it cancels the run at op cancel_at. */
struct ops {
	struct sim *s;
	uint64_t count, op_ns, cancel_at;
	struct diskbench_run *run;
};

static int ops_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct ops *c = ud;

	if (index >= c->count)
		return DISKBENCH_CUSTOM_DONE;
	if (c->cancel_at && index + 1 == c->cancel_at)
		diskbench_run_cancel(c->run);
	if (c->s)
		sim_advance(c->s, c->op_ns);
	*bytes = 4096;
	return 0;
}

static void add_ops(struct fx *f, const char *name, struct ops *c)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, ops_op, NULL };
	struct diskbench_phase *p = NULL;

	c->s = f->s;
	c->run = f->run;
	assert_ok(diskbench_phase_custom_new(&p, name, &co, c));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_seq_write(struct fx *f)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = BLOCK;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
}

static void expect_event(const struct fx *f, size_t i, uint32_t type,
			 uint32_t index, const char *name, int error)
{
	const struct seen *s;

	if (i >= got.n)
		fail_msg("event %zu did not come (%zu events)", i, got.n);
	s = &got.ev[i];
	if (s->type != type || s->index != index || strcmp(s->name, name) ||
	    s->error != error)
		fail_msg("event %zu: type %u, phase %u \"%s\", error %d; expected "
			 "type %u, phase %u \"%s\", error %d", i, s->type, s->index,
			 s->name, s->error, type, index, name, error);
	assert_u64_eq(s->sz, sizeof(struct diskbench_run_event));
	if (type == DISKBENCH_RUN_EVENT_PHASE_START) {
		assert_null(s->result);
		assert_u64_eq(s->results_then, index);
	} else {
		assert_u64_eq(s->results_then, index + 1);
		assert_ptr_equal(s->result, diskbench_run_result(f->run, index));
	}
}

/* Nothing of the run's is left on the device. */
static void assert_clean_sim(struct sim *s, const struct diskbench_target *t)
{
	assert_int_equal(sim_file_count(s), 0);
	assert_int_equal(sim_open_handles(s), 0);
	assert_int_equal(diskbench_target_file_count(t), 0);
	assert_u64_eq(s->bad_calls, 0);
}

#define START DISKBENCH_RUN_EVENT_PHASE_START
#define END DISKBENCH_RUN_EVENT_PHASE_END

/* A start and an end for each phase, in order, naming the phase, its
 * kind, its index and the count; the end carries the result the run keeps. */
static void test_events_in_order(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };

	fx_start(f, false, true);
	add_ops(f, "first", &a);
	add_seq_write(f);
	add_ops(f, "third", &c);
	run_execute_ok(f->run);
	assert_u64_eq(got.n, 6);
	expect_event(f, 0, START, 0, "first", 0);
	expect_event(f, 1, END, 0, "first", 0);
	expect_event(f, 2, START, 1, "seq_write", 0);
	expect_event(f, 3, END, 1, "seq_write", 0);
	expect_event(f, 4, START, 2, "third", 0);
	expect_event(f, 5, END, 2, "third", 0);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(got.ev[i].count, 3);
	assert_int_equal(got.ev[0].kind, DISKBENCH_PHASE_CUSTOM);
	assert_int_equal(got.ev[2].kind, DISKBENCH_PHASE_SEQ_WRITE);
	assert_int_equal(got.ev[3].kind, DISKBENCH_PHASE_SEQ_WRITE);
	assert_ptr_equal(got.ev[2].phase, got.ev[3].phase);
	assert_int_equal(diskbench_phase_kind(got.ev[2].phase),
			 DISKBENCH_PHASE_SEQ_WRITE);
	assert_u64_eq(diskbench_result_ops(got.ev[1].result), 3);
	assert_u64_eq(diskbench_result_ops(got.ev[3].result),
		      FILE_BYTES / BLOCK);
	assert_clean_sim(f->s, f->t);
}

/*
 * An event that takes 5 s on the device's clock, at every start and end,
 * is in no result: each result's elapsed time is the same as in the same
 * run without events (3 ms and 2 ms of ops), and the phases' rates too.
 */
static void test_event_time_not_in_results(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, b = { .count = 2, .op_ns = SIM_MS };
	uint64_t plain[3], t0;

	/* without events */
	fx_start(f, false, false);
	add_ops(f, "a", &a);
	add_seq_write(f);
	add_ops(f, "b", &b);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 3; i++)
		plain[i] = diskbench_result_elapsed_ns(diskbench_run_result(f->run, i));
	assert_u64_eq(plain[0], 3 * SIM_MS);
	assert_u64_eq(plain[2], 2 * SIM_MS);
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	diskbench_engine_free(f->e);
	sim_free(f->s);
	f->run = NULL, f->t = NULL, f->e = NULL, f->s = NULL;

	/* with events of 5 s each */
	fx_start(f, false, true);
	got.advance_ns = 5 * SIM_S;
	add_ops(f, "a", &a);
	add_seq_write(f);
	add_ops(f, "b", &b);
	t0 = sim_now(f->s);
	run_execute_ok(f->run);
	assert_u64_eq(got.n, 6);
	/* the events did take the time */
	assert_true(sim_now(f->s) - t0 >= 30 * SIM_S);
	for (size_t i = 0; i < 3; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);

		if (diskbench_result_elapsed_ns(r) != plain[i])
			fail_msg("result %zu: %" PRIu64 " ns with events, %" PRIu64
				 " without", i, diskbench_result_elapsed_ns(r), plain[i]);
	}
	assert_clean_sim(f->s, f->t);
}

/* The same with a real sleep of 150 ms per event, on the null engine and
 * the real clock: the results took well under 150 ms, the run over 600. */
static void test_event_sleep_not_in_results_null(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 10 }, b = { .count = 10 };
	uint64_t run_ns;

	fx_start(f, true, true);
	got.sleep_ns = 150 * SIM_MS;
	add_ops(f, "a", &a);
	add_ops(f, "b", &b);
	run_execute_ok(f->run);
	assert_u64_eq(got.n, 4);
	run_ns = diskbench_run_end_time_ns(f->run) - diskbench_run_start_time_ns(f->run);
	assert_true(run_ns >= 600 * SIM_MS);
	for (size_t i = 0; i < 2; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);

		assert_u64_eq(diskbench_result_ops(r), 10);
		if (diskbench_result_elapsed_ns(r) >= 100 * SIM_MS)
			fail_msg("result %zu took %" PRIu64 " ns: the sleep is in it",
				 i, diskbench_result_elapsed_ns(r));
	}
}

/* A start event that fails stops the run there: its value is returned,
 * the message names the phase and the event, the phase gets neither a
 * result nor an end event, and the result before it is kept. */
static void test_start_event_fails(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };

	fx_start(f, false, true);
	got.fail_at = 3;           /* the second phase's start */
	got.fail_rc = -EIO;
	add_ops(f, "first", &a);
	add_seq_write(f);
	add_ops(f, "third", &c);
	assert_int_equal(diskbench_run_execute(f->run), -EIO);
	assert_u64_eq(got.n, 3);
	expect_event(f, 0, START, 0, "first", 0);
	expect_event(f, 1, END, 0, "first", 0);
	expect_event(f, 2, START, 1, "seq_write", 0);
	assert_u64_eq(diskbench_run_result_count(f->run), 1);
	assert_int_equal(diskbench_result_error(diskbench_run_result(f->run, 0)), 0);
	assert_u64_eq(diskbench_result_ops(diskbench_run_result(f->run, 0)), 3);
	assert_string_equal(diskbench_run_errmsg(f->run),
			    "seq_write: the start event failed: Input/output error");
	/* nothing of the phase was done */
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 0);
	assert_clean_sim(f->s, f->t);
}

/* A failing end event of a phase that completed stops the run before the
 * next one, keeping the phase's result, without an error in it. */
static void test_end_event_fails(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };

	fx_start(f, false, true);
	got.fail_at = 2;           /* the first phase's end */
	got.fail_rc = -ENOSPC;
	add_ops(f, "first", &a);
	add_ops(f, "second", &c);
	assert_int_equal(diskbench_run_execute(f->run), -ENOSPC);
	assert_u64_eq(got.n, 2);
	expect_event(f, 1, END, 0, "first", 0);
	assert_u64_eq(diskbench_run_result_count(f->run), 1);
	assert_int_equal(diskbench_result_error(diskbench_run_result(f->run, 0)), 0);
	assert_string_equal(diskbench_run_errmsg(f->run),
			    "first: the end event failed: No space left on device");
	assert_clean_sim(f->s, f->t);
}

/* A positive value is taken as 0. */
static void test_event_positive_goes_on(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS };

	fx_start(f, false, true);
	got.fail_at = 1;
	got.fail_rc = 1;
	add_ops(f, "first", &a);
	run_execute_ok(f->run);
	assert_u64_eq(got.n, 2);
}

/* A phase that fails gets its end event, with its error and its partial
 * result; the run stops after it: no start for the next phase. */
static void test_failed_phase_gets_end_event(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };
	const struct diskbench_result *r;

	fx_start(f, false, true);
	sim_fail(f->s, SIM_WRITE, 5, -EIO);
	add_ops(f, "first", &a);
	add_seq_write(f);
	add_ops(f, "third", &c);
	assert_int_equal(diskbench_run_execute(f->run), -EIO);
	assert_u64_eq(got.n, 4);
	expect_event(f, 2, START, 1, "seq_write", 0);
	expect_event(f, 3, END, 1, "seq_write", -EIO);
	r = got.ev[3].result;
	assert_non_null(r);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_u64_eq(diskbench_result_ops(r), 4);
	assert_u64_eq(diskbench_run_result_count(f->run), 2);
	assert_clean_sim(f->s, f->t);
}

/* A phase cancelled while it runs gets its end event with -ECANCELED and
 * its partial result; no later phase starts. */
static void test_cancel_in_phase(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 100, .op_ns = SIM_MS, .cancel_at = 5 },
		   c = { .count = 2, .op_ns = SIM_MS };

	fx_start(f, false, true);
	add_ops(f, "first", &a);
	add_ops(f, "second", &c);
	assert_int_equal(diskbench_run_execute(f->run), -ECANCELED);
	assert_u64_eq(got.n, 2);
	expect_event(f, 1, END, 0, "first", -ECANCELED);
	assert_int_equal(diskbench_result_error(got.ev[1].result), -ECANCELED);
	assert_true(diskbench_result_ops(got.ev[1].result) < 100);
	assert_u64_eq(diskbench_run_result_count(f->run), 1);
}

/* Cancelled from an end event: the next phase does not start (no start
 * event), the run answers -ECANCELED. */
static void test_cancel_in_end_event(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };

	fx_start(f, false, true);
	got.fail_at = 2;
	got.cancel = true;
	add_ops(f, "first", &a);
	add_ops(f, "second", &c);
	assert_int_equal(diskbench_run_execute(f->run), -ECANCELED);
	assert_u64_eq(got.n, 2);
	assert_u64_eq(diskbench_run_result_count(f->run), 1);
	assert_int_equal(diskbench_result_error(diskbench_run_result(f->run, 0)), 0);
}

/* Cancelled from a start event that returns 0: the phase sees it as a
 * cancellation while it runs, and gets its end event with -ECANCELED. */
static void test_cancel_in_start_event(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };

	fx_start(f, false, true);
	got.fail_at = 3;
	got.cancel = true;
	add_ops(f, "first", &a);
	add_ops(f, "second", &c);
	assert_int_equal(diskbench_run_execute(f->run), -ECANCELED);
	assert_u64_eq(got.n, 4);
	expect_event(f, 3, END, 1, "second", -ECANCELED);
	assert_u64_eq(diskbench_run_result_count(f->run), 2);
	assert_int_equal(diskbench_result_error(diskbench_run_result(f->run, 1)),
			 -ECANCELED);
}

/* A run cancelled before it executes, and one refused for room, have no
 * events at all. */
static void test_no_events_before_first_phase(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS };

	fx_start(f, false, true);
	add_ops(f, "first", &a);
	diskbench_run_cancel(f->run);
	assert_int_equal(diskbench_run_execute(f->run), -ECANCELED);
	assert_u64_eq(got.n, 0);
	assert_u64_eq(diskbench_run_result_count(f->run), 0);
	/* and the next execute has them again */
	run_execute_ok(f->run);
	assert_u64_eq(got.n, 2);
}

/* The run cannot be changed from an event: diskbench_run_add() is -EBUSY. */
static void test_event_cannot_add(void **state)
{
	struct fx *f = *state;
	struct ops a = { .count = 3, .op_ns = SIM_MS };

	fx_start(f, false, true);
	add_ops(f, "first", &a);
	got.run = f->run;
	got.add_rc = 1;
	run_execute_ok(f->run);
	assert_int_equal(got.add_rc, -EBUSY);
}

/* With DISKBENCH_RUN_READY_EVENT: start, ready, end for each phase, the
 * ready one after the phase's preparation and before its clock (5 s of the
 * device's clock at each event are in no result), with no result yet; a
 * phase of several threads (the random one) tells it once; without the
 * flag there is none (the tests above). */
static void test_ready_events(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = seed_opts(7);
	struct diskbench_random_opts rno = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct ops a = { .count = 3, .op_ns = SIM_MS };

	fx_sim(f, NULL);
	got.s = f->s;
	got.advance_ns = 5 * SIM_S;
	ro.event = on_event;
	ro.event_user_data = &got;
	ro.flags |= DISKBENCH_RUN_READY_EVENT;
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
	add_ops(f, "first", &a);
	add_seq_write(f);
	rno.threads = 2;
	rno.ops = 8;
	assert_ok(diskbench_phase_random_new(&p, &rno));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_u64_eq(got.n, 9);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(got.ev[3 * i].type, START);
		assert_int_equal(got.ev[3 * i + 1].type, DISKBENCH_RUN_EVENT_PHASE_READY);
		assert_int_equal(got.ev[3 * i + 2].type, END);
		assert_int_equal(got.ev[3 * i + 1].index, i);
		assert_null(got.ev[3 * i + 1].result);
		assert_u64_eq(got.ev[3 * i + 1].results_then, i);
		assert_int_equal(got.ev[3 * i + 1].kind, got.ev[3 * i].kind);
	}
	assert_u64_eq(diskbench_result_elapsed_ns(diskbench_run_result(f->run, 0)),
		      3 * SIM_MS);
	assert_true(diskbench_result_elapsed_ns(diskbench_run_result(f->run, 1)) < SIM_S);
	assert_true(diskbench_result_elapsed_ns(diskbench_run_result(f->run, 2)) < SIM_S);
	assert_clean_sim(f->s, f->t);
}

/* A ready event that fails stops its phase before the first operation:
 * a partial result with that error and no operations, its end event, and
 * the run stops there with the message naming the phase and the event. */
static void test_ready_event_fails(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = seed_opts(7);
	struct ops a = { .count = 3, .op_ns = SIM_MS }, c = { .count = 2, .op_ns = SIM_MS };
	const struct diskbench_result *r;

	fx_sim(f, NULL);
	got.s = f->s;
	got.fail_at = 2;
	got.fail_rc = -EIO;
	ro.event = on_event;
	ro.event_user_data = &got;
	ro.flags |= DISKBENCH_RUN_READY_EVENT;
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
	add_ops(f, "first", &a);
	add_ops(f, "second", &c);
	assert_int_equal(diskbench_run_execute(f->run), -EIO);
	assert_u64_eq(got.n, 3);
	assert_int_equal(got.ev[2].type, END);
	assert_int_equal(got.ev[2].error, -EIO);
	assert_u64_eq(diskbench_run_result_count(f->run), 1);
	r = diskbench_run_result(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_non_null(strstr(diskbench_result_errmsg(r), "the ready event failed"));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "first: "));
	assert_clean_sim(f->s, f->t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, ev_setup, fx_teardown)
		T(test_events_in_order),
		T(test_event_time_not_in_results),
		T(test_event_sleep_not_in_results_null),
		T(test_start_event_fails),
		T(test_end_event_fails),
		T(test_event_positive_goes_on),
		T(test_failed_phase_gets_end_event),
		T(test_cancel_in_phase),
		T(test_cancel_in_end_event),
		T(test_cancel_in_start_event),
		T(test_no_events_before_first_phase),
		T(test_event_cannot_add),
		T(test_ready_events),
		T(test_ready_event_fails),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
