/*
 * The HTML page with device figures (<diskbench/device.h>): the lanes
 * under each latency timeline and each stall's verdict in the summary.
 * Three set-ups on engines with a clock of their own and a device of
 * their own (diskbench_engine_ops::device_sample), so every interval and
 * every verdict is exact: one whose device holds its requests during its
 * stall (below the block layer), one whose device has nothing to do
 * during it (above the device), one that never stalls; and a fourth
 * without device figures (no device_sample), which has no lane but its
 * note, and no verdict.
 *
 * With DISKBENCH_HTML_OUT=<path> in the environment, the page is also
 * written there, to look at.
 */
#include <stdio.h>
#include <unistd.h>

#include "report-fixture.h"
#include "run-helpers.h"

#define MS UINT64_C(1000000)

/* The phase: OPS operations of 1 ms on the engine's clock, operation
 * STALL_AT taking STALL_MS; sampled every 10 ms. */
#define OPS 2000
#define STALL_AT 500
#define STALL_MS 1000
#define IV_MS 10

/* The chart's plot, as lib/format/html-chart.c draws it. */
#define PLOT_L 66.0
#define PLOT_R 586.0

enum script { HELD, IDLE, HEALTHY, NO_DEVICE, FLAP };

struct scripted {
	uint64_t now, base;
	enum script how;
	uint64_t ops, stall_at, stall_ms;
};

static uint64_t scripted_clock(void *ud)
{
	return ((struct scripted *)ud)->now;
}

/*
 * The device at `when`: outside the stall it completes a write a ms and
 * holds one; during it (from the stalled operation's start to its end,
 * both ends included) it completes nothing and holds three (HELD) or none
 * (IDLE). FLAP: by turns of 300 ms, holding two and completing nothing,
 * then holding one and completing a write every other ms (so that at
 * 1 ms intervals it is held and working by turns).
 */
static int scripted_sample(uint64_t when, struct diskbench_device_sample *out,
			   void *ud)
{
	const struct scripted *sc = ud;
	uint64_t rel = (when - sc->base) / MS, from = sc->stall_at;
	uint64_t to = sc->stall_at + sc->stall_ms;
	bool inside = sc->how != HEALTHY && rel >= from && rel <= to;

	if (out->sz < sizeof(*out))
		return -EINVAL;
	if (sc->how == FLAP) {
		uint64_t turn = rel / 300, in = rel % 300;

		/* 150 writes in each working turn; none in a held one. */
		out->writes = (turn + 1) / 2 * 150 + (turn % 2 ? 0 : (in + 1) / 2);
		out->inflight = turn % 2 ? 2 : 1;
	} else if (sc->how == HEALTHY) {
		out->writes = rel;
		out->inflight = 1;
	} else {
		out->writes = rel < from ? rel : rel <= to ? from : from + rel - to;
		out->inflight = inside ? (sc->how == HELD ? 3 : 0) : 1;
	}
	out->write_bytes = out->writes * 4096;
	/* Busy whenever something is in flight: all the time but the idle
	 * device's stall. */
	out->busy_ns = when - sc->base;
	if (sc->how == IDLE && rel >= from)
		out->busy_ns = rel <= to ? from * MS : when - sc->base - sc->stall_ms * MS;
	return 0;
}

static int scripted_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		       uint64_t *bytes, void *ud)
{
	struct scripted *sc = ud;

	(void)ctx;
	if (index == sc->ops)
		return DISKBENCH_CUSTOM_DONE;
	sc->now += index == sc->stall_at && sc->stall_ms ? sc->stall_ms * MS : MS;
	*bytes = 4096;
	return 0;
}

/* One set-up: a run of the phase "commit" on an engine scripted as how,
 * its device named dev (NULL: the engine has no device of its own, so
 * nothing is sampled), added to rep as name. */
static void add_setup(struct diskbench_report *rep, const char *name,
		      const char *dev, enum script how, uint64_t ops,
		      uint64_t stall_ms, uint64_t iv_ms)
{
	char dir[] = "/tmp/diskbench-html-device-XXXXXX";
	struct scripted sc = { .now = 1000 * MS, .base = 1000 * MS, .how = how,
			       .ops = ops, .stall_at = STALL_AT,
			       .stall_ms = stall_ms };
	struct diskbench_engine_ops eo = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	char *msg = NULL;

	assert_non_null(mkdtemp(dir));
	eo.name = dev ? dev : "no-device";
	eo.clock = scripted_clock;
	if (dev)
		eo.device_sample = scripted_sample;
	assert_ok(diskbench_engine_new(&e, &eo, &sc));
	to.engine = e;
	if (diskbench_target_new(&t, dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	ro.timeline_interval_ns = iv_ms * MS;
	ro.device_interval_ns = iv_ms * MS;
	assert_ok(diskbench_run_new(&run, t, &ro));
	co.op = scripted_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "commit", &co, &sc));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);
	info.name = name;
	info.host = "scripted";
	info.start_time_ns = 1795968000 * FX_S;
	assert_ok(diskbench_report_add_run(rep, &info, run));
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_dir_empty(dir);
	rmdir(dir);
}

/* The report of the three set-ups and the one without figures. */
static struct diskbench_report *story(void)
{
	struct diskbench_report *rep;

	assert_ok(diskbench_report_new(&rep));
	add_setup(rep, "held", "sdb", HELD, OPS, STALL_MS, IV_MS);
	add_setup(rep, "idle", "sdc", IDLE, OPS, STALL_MS, IV_MS);
	add_setup(rep, "healthy", "sdd", HEALTHY, OPS, 0, IV_MS);
	add_setup(rep, "blind", NULL, NO_DEVICE, OPS, STALL_MS, IV_MS);
	return rep;
}

static char *html(struct diskbench_report *r)
{
	char *page = fx_write(r, DISKBENCH_FORMAT_HTML, NULL);
	const char *out = getenv("DISKBENCH_HTML_OUT");

	if (out && *out)
		assert_ok(diskbench_report_write_file(r, DISKBENCH_FORMAT_HTML,
						      NULL, out));
	return page;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	for (const char *p = strstr(s, needle); p; p = strstr(p + len, needle))
		n++;
	return n;
}

/* A copy of s from its first `from` to the `to` after it (both kept),
 * for the caller to free; fails if either is missing. */
static char *cut(const char *s, const char *from, const char *to)
{
	const char *a = strstr(s, from), *b;
	char *c;

	if (!a)
		fail_msg("no %s", from);
	b = strstr(a + strlen(from), to);
	if (!b)
		fail_msg("no %s after %s", to, from);
	b += strlen(to);
	c = malloc((size_t)(b - a) + 1);
	assert_non_null(c);
	memcpy(c, a, (size_t)(b - a));
	c[b - a] = '\0';
	return c;
}

/* The number after attr=" in s. */
static double attr(const char *s, const char *name)
{
	char want[32];
	const char *p;

	snprintf(want, sizeof(want), " %s=\"", name);
	p = strstr(s, want);
	if (!p)
		fail_msg("no %s in %.80s", name, s);
	return strtod(p + strlen(want), NULL);
}

/* Text as the page escapes it (the library's sentences have no
 * character XML forbids). */
static void esc(char *out, size_t size, const char *s)
{
	size_t n = 0;

	for (; *s && n + 7 < size; s++) {
		const char *r = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" :
				*s == '>' ? "&gt;" : *s == '"' ? "&quot;" :
				*s == '\'' ? "&#39;" : NULL;

		if (r) {
			memcpy(out + n, r, strlen(r));
			n += strlen(r);
		} else {
			out[n++] = *s;
		}
	}
	out[n] = '\0';
}

/* The last `what` in s before end. */
static const char *before(const char *s, const char *end, const char *what)
{
	size_t len = strlen(what);

	for (const char *p = end - len; p >= s; p--)
		if (!strncmp(p, what, len))
			return p;
	fail_msg("no %s", what);
	return NULL;
}

/* The phase's timeline chart, for the caller to free. */
static char *timeline_chart(const char *page)
{
	const char *t = strstr(page, "latency and throughput over time</title>");

	assert_non_null(t);
	return cut(before(page, t, "<svg xmlns="), "<svg xmlns=", "</svg>");
}

/* Run name's lane in a chart, found by its label: from its run's colour
 * (the rect before the label) to the next lane's or the key. */
static char *lane(const char *chart, const char *name, const char *dev)
{
	const char *label, *a, *b, *key;
	char want[128], *c;

	snprintf(want, sizeof(want), ">%s: %s</text>", name, dev);
	label = strstr(chart, want);
	if (!label)
		fail_msg("no lane labelled %s", want);
	a = before(chart, label, "<rect class=\"dev-run\"");
	b = strstr(label, "<rect class=\"dev-run\"");
	key = strstr(label, ">device lanes</text>");
	assert_non_null(key);
	if (!b || b > key)
		b = key;
	c = malloc((size_t)(b - a) + 1);
	assert_non_null(c);
	memcpy(c, a, (size_t)(b - a));
	c[b - a] = '\0';
	return c;
}

/* The x on the chart's axis of ns, tend ns at the right edge. */
static double chart_x(uint64_t ns, uint64_t tend)
{
	return PLOT_L + (double)ns / (double)tend * (PLOT_R - PLOT_L);
}

/* Whether a rect of class cls in s spans x0 to x1 (to the page's one
 * decimal); its fill into fill. */
static bool covers(const char *s, const char *cls, double x0, double x1,
		   char *fill, size_t size)
{
	char want[64];

	snprintf(want, sizeof(want), "<rect class=\"%s\" ", cls);
	for (const char *p = strstr(s, want); p; p = strstr(p + 1, want)) {
		double x = attr(p, "x"), w = attr(p, "width");

		if (x <= x0 + 0.051 && x + w >= x1 - 0.051) {
			const char *f = strstr(p, "fill=\"");

			snprintf(fill, size, "%.7s", f + 6);
			return true;
		}
	}
	return false;
}

/*
 * The page is well-formed: xmllint's XML parser says nothing, its HTML
 * parser (libxml2 before 2.14 knows HTML 4 only) nothing but that the
 * SVG elements the page has always used are unknown tags. Without
 * xmllint (libxml2-utils) this fails.
 */
static void assert_xmllint_ok(const char *page)
{
	static const char *const known[] = { "svg", "path", "text", "rect",
					     "polyline", "circle" };
	char path[] = "/tmp/diskbench-html-device-XXXXXX";
	char cmd[256], line[1024];
	int fd = mkstemp(path);
	size_t len = strlen(page);
	FILE *f;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, page, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s' 2>&1; echo \"exit $?\"", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strcmp(line, "exit 0\n"))
			fail_msg("xmllint --noout: %s", line);
	pclose(f);
	snprintf(cmd, sizeof(cmd), "xmllint --html --noout '%s' 2>&1; echo \"exit $?\"",
		 path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *t = strstr(line, ": Tag ");
		bool ok = !strcmp(line, "exit 0\n") || !strstr(line, " : ");

		for (size_t i = 0; t && i < ARRAY_LEN(known); i++) {
			char want[64];

			snprintf(want, sizeof(want), ": Tag %s invalid\n", known[i]);
			ok |= !strcmp(t, want);
		}
		if (!ok || !strncmp(line, "exit ", 5) != !strcmp(line, "exit 0\n"))
			fail_msg("xmllint --html --noout: %s", line);
	}
	pclose(f);
	unlink(path);
}

static const struct diskbench_result *result_of(struct diskbench_report *r,
						size_t run)
{
	const struct diskbench_result *res = diskbench_report_result_get(r, run, 0);

	assert_non_null(res);
	return res;
}

/* The stall of run's phase, as the library finds it, and its sentence. */
static void stall_of(struct diskbench_report *r, size_t run,
		     struct diskbench_stall *x, char *text, size_t size)
{
	struct diskbench_stalls *st;

	assert_ok(diskbench_stalls_find(&st, result_of(r, run), NULL));
	assert_int_equal(diskbench_stalls_count(st), 1);
	memset(x, 0, sizeof(*x));
	x->sz = sizeof(*x);
	assert_ok(diskbench_stalls_get(st, 0, x));
	assert_true(diskbench_stalls_cause_text(st, 0, text, size) >= 0);
	diskbench_stalls_free(st);
}

/*
 * The lanes: one for each run with device figures, labelled with its
 * name and its device's, none for the run without; under the held run's
 * band a held (red) rect from the stall's start to its end, under the
 * idle run's an idle one and no held one, the healthy run working (green)
 * all along; the key says what each colour is.
 */
static void test_lanes(void **state)
{
	struct diskbench_report *r = story();
	uint64_t tend = diskbench_result_elapsed_ns(result_of(r, 0));
	char *page = html(r), *chart, *l, *band, fill[16];
	double b0, b1, s0, s1;

	(void)state;
	/* The held and idle runs' phase: 2000 ops of 1 ms, one of them 1 s. */
	assert_u64_eq(tend, (OPS - 1 + STALL_MS) * MS);
	chart = timeline_chart(page);
	assert_int_equal(count(chart, "<rect class=\"dev-run\""), 3);
	assert_null(strstr(chart, ">blind: "));
	/* Each lane's label: its run's colour and name, its device. */
	l = lane(chart, "held", "sdb");
	assert_non_null(strstr(l, "<rect class=\"dev-run\" x=\"66\" y=\""));
	assert_non_null(strstr(l, "fill=\"#1f77b4\"/><text class=\"dev-label\""));
	/* The band: where held completed nothing while its stall held it
	 * up, from the first interval after its last operation (510 ms) to
	 * the stall's end (1.5 s); idle's is the same. */
	band = cut(chart, "<rect class=\"gap\" ", "/>");
	b0 = attr(band, "x");
	b1 = b0 + attr(band, "width");
	free(band);
	assert_true(fabs(b0 - chart_x(510 * MS, tend)) <= 0.051);
	assert_true(fabs(b1 - chart_x(1500 * MS, tend)) <= 0.051);
	/* The held lane: red from the stall's start to its end, covering the
	 * band; green before and after it. */
	s0 = chart_x(STALL_AT * MS, tend);
	s1 = chart_x((STALL_AT + STALL_MS) * MS, tend);
	assert_true(covers(l, "dev-held", s0, s1, fill, sizeof(fill)));
	assert_string_equal(fill, "#d32f2f");
	assert_true(covers(l, "dev-held", b0, b1, fill, sizeof(fill)));
	assert_false(covers(l, "dev-held", s0 - 1, s1, fill, sizeof(fill)));
	assert_false(covers(l, "dev-held", s0, s1 + 1, fill, sizeof(fill)));
	assert_true(covers(l, "dev-working", PLOT_L, s0, fill, sizeof(fill)));
	assert_true(covers(l, "dev-working", s1, chart_x(tend, tend), fill, sizeof(fill)));
	assert_int_equal(count(l, "class=\"dev-held\""), 1);
	assert_int_equal(count(l, "class=\"dev-idle\""), 0);
	free(l);
	/* The idle lane: nothing in flight under the band, never held. */
	l = lane(chart, "idle", "sdc");
	assert_true(covers(l, "dev-idle", s0, s1, fill, sizeof(fill)));
	assert_string_equal(fill, "#b0bec5");
	assert_int_equal(count(l, "class=\"dev-held\""), 0);
	free(l);
	/* The healthy lane: working from start to end, in one rect of the
	 * darkest green (busy all the time), nothing else. */
	l = lane(chart, "healthy", "sdd");
	assert_true(covers(l, "dev-working", PLOT_L,
			   chart_x(diskbench_result_elapsed_ns(result_of(r, 2)), tend),
			   fill, sizeof(fill)));
	assert_string_equal(fill, "#2e7d32");
	assert_int_equal(count(l, "<rect class=\"dev-working\""), 1);
	assert_int_equal(count(l, "<rect class=\"dev-held\""), 0);
	assert_int_equal(count(l, "<rect class=\"dev-idle\""), 0);
	free(l);
	/* The key: each state's colour and words. */
	assert_non_null(strstr(chart, ">device lanes</text>"));
	assert_int_equal(count(chart, "<rect class=\"dev-key\" x=\""), 5);
	assert_non_null(strstr(chart, ">held: requests in flight, none completed</text>"));
	assert_non_null(strstr(chart, ">idle: nothing in flight</text>"));
	assert_non_null(strstr(chart, ">working: requests completed (darker: busier)</text>"));
	free(chart);
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/*
 * Each stall's verdict in the summary: its cause's name and the library's
 * sentence under the phase's line, the sentence in the tooltip too; the
 * grid says where; the whole-run chart marks it in the lanes' colour. A
 * result without device figures gets no verdict, and its stall's line
 * ends as it always did.
 */
static void test_verdicts(void **state)
{
	struct diskbench_report *r = story();
	char *page = html(r), *li, *whole, text[512], want[1024];
	struct diskbench_stall x;

	(void)state;
	stall_of(r, 0, &x, text, sizeof(text));
	assert_int_equal(x.cause, DISKBENCH_STALL_CAUSE_BELOW);
	assert_string_equal(text, "below the block layer: sdb held 3 requests for "
			    "1.000 s and completed none");
	li = cut(page, "<b>severe</b> held commit: ", "</li>");
	esc(want, sizeof(want), text);
	assert_non_null(strstr(li, "<i class=\"c1\">below</i>"));
	assert_non_null(strstr(li, want));
	assert_int_equal(count(li, want), 2);     /* the line and its tooltip */
	assert_int_equal(count(li, "<span class=\"why\""), 1);
	free(li);

	stall_of(r, 1, &x, text, sizeof(text));
	assert_int_equal(x.cause, DISKBENCH_STALL_CAUSE_ABOVE);
	li = cut(page, "<b>severe</b> idle commit: ", "</li>");
	esc(want, sizeof(want), text);
	assert_non_null(strstr(li, "<i class=\"c2\">above</i>"));
	assert_non_null(strstr(li, want));
	free(li);

	/* No figures, no verdict: the line ends with its figures. */
	stall_of(r, 3, &x, text, sizeof(text));
	assert_int_equal(x.cause, DISKBENCH_STALL_CAUSE_NONE);
	assert_string_equal(text, "");
	li = cut(page, "<b>severe</b> blind commit: ", "</li>");
	assert_null(strstr(li, "class=\"why\""));
	assert_string_equal(li, "<b>severe</b> blind commit: 1 stall of 1 s at "
			    "0.500 s into the phase, 33 % of the phase stalled</li>");
	free(li);
	/* The healthy run has no stall line at all. */
	assert_null(strstr(page, "healthy commit: "));
	assert_int_equal(count(page, "<span class=\"why\""), 2);

	/* The grid: where, beside the count. */
	assert_int_equal(count(page, "<small>&#183; 1 stall (below)</small>"), 1);
	assert_int_equal(count(page, "<small>&#183; 1 stall (above)</small>"), 1);
	assert_int_equal(count(page, "<small>&#183; 1 stall</small>"), 1);

	/* The whole-run charts: held's stall marked red in its row of
	 * verdicts, idle's blue-grey, blind's has no such row. */
	whole = cut(page, "<strong>held</strong>", "</svg>");
	assert_int_equal(count(whole, "<rect class=\"stall-why\""), 1);
	assert_non_null(strstr(whole, "fill=\"#d32f2f\"><title>commit: below: below the block layer"));
	assert_non_null(strstr(whole, ">where</text>"));
	free(whole);
	whole = cut(page, "<strong>idle</strong>", "</svg>");
	assert_non_null(strstr(whole, "<rect class=\"stall-why\""));
	assert_non_null(strstr(whole, "fill=\"#b0bec5\"><title>commit: above: "));
	free(whole);
	whole = cut(page, "<strong>blind</strong>", "</svg>");
	assert_int_equal(count(whole, "class=\"stall-bar\""), 1);
	assert_null(strstr(whole, "stall-why"));
	assert_null(strstr(whole, ">where</text>"));
	free(whole);
	free(page);
	diskbench_report_free(r);
}

/* The run without device figures: no lane, but its note once under the
 * chart, saying why. */
static void test_no_figures_note(void **state)
{
	struct diskbench_report *r = story();
	const char *note = diskbench_result_device_note(result_of(r, 3));
	char *page = html(r), want[512], line[768];

	(void)state;
	assert_int_equal(diskbench_result_device_count(result_of(r, 3)), 0);
	assert_non_null(note);
	esc(want, sizeof(want), note);
	snprintf(line, sizeof(line), "blind: no device lane: %s</p>", want);
	assert_int_equal(count(page, line), 1);
	assert_int_equal(count(page, "<p class=\"note dev\">"), 1);
	/* The others have figures: no such line for them. */
	assert_null(strstr(page, "held: no device lane"));
	assert_null(strstr(page, "healthy: no device lane"));
	free(page);
	diskbench_report_free(r);
}

/*
 * Tens of thousands of intervals (a 30 s phase sampled every ms, its
 * device held for 300 ms, then for 300 ms held and working every other
 * ms, and so on) stay a small page: the lane's columns fold to at most
 * one a unit of the plot (unfolded, the working turns alone would be
 * 15000 rects), neighbours of one state merge, and the 300 ms holds are
 * still where they were.
 */
static void test_many_intervals(void **state)
{
	struct diskbench_report *r;
	const struct diskbench_result *res;
	char *page, *chart, *l, fill[16];
	size_t rects, n;
	uint64_t tend;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	add_setup(r, "long", "sde", FLAP, 30000, 0, 1);
	res = result_of(r, 0);
	n = diskbench_result_device_point_count(res);
	assert_true(n >= 29990 && n <= 30000);
	tend = diskbench_result_elapsed_ns(res);
	page = fx_write(r, DISKBENCH_FORMAT_HTML, NULL);
	chart = timeline_chart(page);
	l = lane(chart, "long", "sde");
	rects = count(l, "<rect class=\"dev-held\"") +
		count(l, "<rect class=\"dev-working\"") +
		count(l, "<rect class=\"dev-idle\"");
	/* 100 turns of 300 ms, held and working by turns: a rect each, and
	 * the 50 holds again at their own times. */
	assert_true(rects >= 100);
	assert_true(rects <= 3 * 50 + 4);
	/* The second turn, held from 300 ms (its last interval before,
	 * which completed nothing, too) to 600 ms. */
	assert_true(covers(l, "dev-held", chart_x(300 * MS, tend),
			   chart_x(600 * MS, tend), fill, sizeof(fill)));
	assert_false(covers(l, "dev-held", chart_x(0, tend), chart_x(300 * MS, tend),
			    fill, sizeof(fill)));
	print_message("page %zu bytes, lane %zu bytes, %zu rects\n", strlen(page),
		      strlen(l), rects);
	assert_true(strlen(l) < 24000);
	assert_true(strlen(page) < 120000);
	free(l);
	free(chart);
	free(page);
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_no_figures_note),
		cmocka_unit_test(test_many_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
