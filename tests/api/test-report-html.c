/*
 * The HTML report: one self-contained page comparing runs. Checked on the
 * fixture's three runs (raid-c stalls in put_block and ran_create): the
 * charts, the stall lines, bon_csv2html's colouring, escaping of hostile
 * text, and well-formedness by xmllint (HTML and XML parsers both).
 *
 * With DISKBENCH_HTML_OUT=<path> in the environment, the fixture's page is
 * also written there, to look at.
 */
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report-fixture.h"

/* Occurrences of needle in s. */
static size_t count(const char *s, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	for (const char *p = strstr(s, needle); p; p = strstr(p + len, needle))
		n++;
	return n;
}

/* Whether s holds needle, ignoring ASCII case. */
static bool has_nocase(const char *s, const char *needle)
{
	size_t len = strlen(needle);

	for (; *s; s++) {
		size_t i = 0;

		while (i < len && s[i] &&
		       (s[i] | 0x20) == (needle[i] | 0x20))
			i++;
		if (i == len)
			return true;
	}
	return false;
}

static char *html(struct diskbench_report *r)
{
	return fx_write(r, DISKBENCH_FORMAT_HTML, NULL);
}

/* Reads a whole file; NUL-terminated, for the caller to free. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	assert_non_null(f);
	do {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = 0;
	return buf;
}

/* Runs a shell command; its exit status (127: not found). */
static int run(const char *cmd)
{
	int st = system(cmd);

	assert_true(st != -1);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/*
 * The HTML parser of libxml2 before 2.14 knows only HTML 4, so it calls
 * every inline SVG element an invalid tag (and still exits 0). Those lines,
 * and only those, are allowed in its report.
 */
static void assert_html_report_clean(const char *report)
{
	static const char *const svg_tags[] = { "svg", "path", "text", "rect",
						"polyline", "circle" };
	const char *line = report;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char l[1024];

		snprintf(l, sizeof(l), "%.*s", (int)len, line);
		if (strstr(l, " error : ") || strstr(l, " warning : ")) {
			const char *t = strstr(l, ": Tag ");
			bool ok = false;

			for (size_t i = 0; t && i < ARRAY_LEN(svg_tags); i++) {
				char want[64];

				snprintf(want, sizeof(want), ": Tag %s invalid", svg_tags[i]);
				if (!strcmp(t, want))
					ok = true;
			}
			if (!ok)
				fail_msg("xmllint --html: %s", l);
		}
		line += len + (end ? 1 : 0);
	}
}

/* Writes page to a temporary file and runs xmllint on it, as HTML and as
 * XML: both must exit 0; the XML parser must say nothing, the HTML parser
 * nothing but its unknown-SVG-tag complaints. Without xmllint
 * (libxml2-utils) this fails. */
static void assert_xmllint_ok(const char *page)
{
	char path[] = "/tmp/diskbench-html-XXXXXX";
	char err[64], cmd[256];
	int fd = mkstemp(path);
	size_t len = strlen(page);
	char *report;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, page, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
	snprintf(err, sizeof(err), "%s.err", path);

	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s' 2>'%s'", path, err);
	int rc = run(cmd);

	report = slurp(err);
	if (rc || *report)
		fail_msg("xmllint --noout: exit %d%s\n%s", rc,
			 rc == 127 ? " (xmllint missing? install libxml2-utils)" : "",
			 report);
	free(report);

	snprintf(cmd, sizeof(cmd), "xmllint --html --noout '%s' 2>'%s'", path, err);
	rc = run(cmd);
	report = slurp(err);
	if (rc)
		fail_msg("xmllint --html --noout: exit %d\n%s", rc, report);
	assert_html_report_clean(report);
	free(report);
	unlink(err);
	unlink(path);
}

/* A page starts and ends as one. */
static void assert_page(const char *page)
{
	assert_true(!strncmp(page, "<!DOCTYPE html>\n<html", 21));
	assert_non_null(strstr(page, "</body>\n</html>\n"));
	assert_int_equal(count(page, "<svg"), count(page, "</svg>"));
}

static void test_report_html_fixture(void **state)
{
	struct diskbench_report *r = fx_report();
	const char *out = getenv("DISKBENCH_HTML_OUT");
	char *page;

	(void)state;
	if (out && *out)
		assert_ok(diskbench_report_write_file(r, DISKBENCH_FORMAT_HTML,
						      NULL, out));
	page = html(r);
	assert_page(page);
	/* 12 phases, each a percentile chart and a timeline. */
	assert_int_equal(count(page, "<svg xmlns="), 24);
	assert_int_equal(count(page, "latency by percentile</title>"), 12);
	assert_int_equal(count(page, "latency and throughput over time</title>"), 12);
	/* One line per run in each chart: the curve, the throughput, and the
	 * worst latency (broken at gaps; a dot where one interval stands
	 * alone). */
	assert_true(count(page, "<polyline") >= 12 * 3 * 2);
	for (int i = 0; i < 3; i++) {
		const char *name = (const char *[]){ "raid-a", "raid-b", "raid-c" }[i];

		assert_non_null(strstr(page, name));
	}
	assert_non_null(strstr(page, "<title>libdiskbench report</title>"));
	assert_non_null(strstr(page, "bench-host"));
	assert_non_null(strstr(page, "Linux 6.1.0-test x86_64"));
	assert_non_null(strstr(page, "-d /mnt/test -s 64M -n 1 -r 32"));
	assert_non_null(strstr(page, "2026-11-29 16:00:00"));   /* 1795968000 */
	assert_non_null(strstr(page, "<td>3333</td>"));
	/* bonnie++'s table: size folded, +++++ for the too-fast block read,
	 * rates with their unit, latencies as bonnie++ writes them. */
	assert_non_null(strstr(page, "<td>64M</td>"));
	assert_non_null(strstr(page, ">+++++</td>"));
	assert_non_null(strstr(page, ">+++</td>"));
	assert_non_null(strstr(page, "700ms</td>"));
	/* The bands where raid-c completed nothing: one for each of its
	 * three stalls in put_block and in ran_create. */
	assert_int_equal(count(page, "<rect class=\"gap\" "), 6);
	assert_int_equal(count(page, "<rect class=\"gap-key\" "), 2);
	/* And the page's note says what a band is. */
	assert_non_null(strstr(page, "Grey bands: stretches in which a run completed "
				     "nothing while one of its stalls (those the summary "
				     "lists) held it up"));
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_stalls(void **state)
{
	struct diskbench_report *r = fx_report();
	char *page;

	(void)state;
	page = html(r);
	/* The verdict across the three... */
	assert_non_null(strstr(page, "<ul class=\"verdict\">\n<li>throughput within 1 % "
				     "across the 3 set-ups (raid-a, raid-b and raid-c) in "
				     "every test</li>\n<li>raid-c&#39;s worst latency is "
				     "333x to 3500x the others&#39; in put_block and "
				     "ran_create</li>\n"));
	/* ...and the stalls, counted, graded (three back to back of 700 ms
	 * hold over half the phase: a stall, not a hiccup), set against the
	 * other runs, worst first. */
	assert_non_null(strstr(page, "<li class=\"g2\"><b>stall</b> raid-c put_block: "
				     "3 stalls of 700 ms, about one every 700 ms, 53 % "
				     "of the phase stalled; its worst 700 ms is 3500x "
				     "the other runs'</li>\n<li class=\"g2\"><b>stall</b> "
				     "raid-c ran_create: 3 stalls of 667 ms"));
	assert_int_equal(count(page, "<li class=\"g"), 2);
	assert_null(strstr(page, "<b>stall</b> raid-a"));
	assert_null(strstr(page, "<b>stall</b> raid-b"));
	assert_null(strstr(page, "No stalls"));
	/* The grid and the phase tables mark the same two cells and rows. */
	assert_int_equal(count(page, "<td class=\"stall g2\" title=\"stall\">"), 2);
	assert_non_null(strstr(page, "700 ms <small>(201 us)</small> <small>&#183; 3 stalls</small></td>"));
	assert_int_equal(count(page, "<tr class=\"stall\">"), 2);
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_no_stalls(void **state)
{
	struct diskbench_report *r;
	char *page;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	fx_add_run(r, "raid-a", 1111, 1795968000, false);
	fx_add_run(r, "raid-b", 2222, 1795969000, false);
	page = html(r);
	assert_int_equal(count(page, "<li class=\"g"), 0);
	assert_null(strstr(page, "<ul class=\"stalls\">"));
	/* The verdict: the same throughput, nothing stands out. */
	assert_non_null(strstr(page, "<ul class=\"verdict\">\n<li>throughput within 1 % "
				     "across the 2 set-ups (raid-a and raid-b) in every "
				     "test</li>\n</ul>"));
	assert_non_null(strstr(page, "No stalls"));
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_xmllint(void **state)
{
	struct diskbench_report *r = fx_report();
	char *page;

	(void)state;
	page = html(r);
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_escaping(void **state)
{
	const char *evil = "<script>&\"'";
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r;
	struct diskbench_result *res;
	char *page;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	fx_add_run(r, "steady", 1, 1795968000, false);
	res = fx_result(DISKBENCH_PHASE_CUSTOM, 100, 4096, FX_S, 1000, 0, 0, 0, 10);
	in.name = evil;
	in.host = "h<o>st&";
	in.kernel = "k\"'";
	in.dir = "/d/<x>";
	in.fs_type = "fs&";
	in.options = "-x '<a href=\"y\">' && rm";
	in.version = "v<1>";
	in.seed_text = "seed&file";
	/* Not UTF-8, and a control character XML refuses. */
	in.start_time_ns = 1;
	assert_ok(diskbench_report_add(r, &in,
		(const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);
	/* A phase whose name is hostile too. */
	assert_ok(diskbench_result_new(&res, "<b>ph\xff\x01se</b>", DISKBENCH_PHASE_CUSTOM,
				       NULL));
	in.name = "bad\xc3(utf8";
	assert_ok(diskbench_report_add(r, &in,
		(const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);

	wo.title = "Title <&> \"'";
	page = fx_write(r, DISKBENCH_FORMAT_HTML, &wo);
	assert_page(page);
	assert_null(strstr(page, "<script"));
	assert_null(strstr(page, "<b>"));
	assert_null(strstr(page, "<o>"));
	assert_null(strstr(page, "<x>"));
	assert_null(strstr(page, "<1>"));
	assert_null(strstr(page, "<a href=\"y"));
	assert_non_null(strstr(page, "&lt;script&gt;&amp;&quot;&#39;"));
	assert_non_null(strstr(page, "<title>Title &lt;&amp;&gt; &quot;&#39;</title>"));
	assert_non_null(strstr(page, "h&lt;o&gt;st&amp;"));
	assert_non_null(strstr(page, "seed&amp;file"));
	assert_non_null(strstr(page, "&lt;b&gt;ph&#xFFFD;&#xFFFD;se&lt;/b&gt;"));
	assert_non_null(strstr(page, "bad&#xFFFD;(utf8"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/* One UTF-8 check under both writers, each with its format's rule: a
 * surrogate, an overlong form and a character above U+10FFFF are not
 * UTF-8 and become U+FFFD in both, one per byte; U+FFFE and U+FFFF are
 * UTF-8, kept in JSON (RFC 8259 allows them) but not in XML, whose Char
 * leaves them out. */
static void test_report_html_utf8_rule(void **state)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r;
	struct diskbench_result *res;
	char *page, *json;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_result_new(&res, "ph", DISKBENCH_PHASE_CUSTOM, NULL));
	in.name = "n[\xef\xbf\xbe|\xef\xbf\xbf|\xed\xa0\x80|\xc0\xaf|\xf4\x90\x80\x80|\xc3\xa9]";
	in.host = "h";
	in.start_time_ns = 1;
	assert_ok(diskbench_report_add(r, &in,
		(const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);
	page = fx_write(r, DISKBENCH_FORMAT_HTML, NULL);
	assert_non_null(strstr(page,
		"n[&#xFFFD;&#xFFFD;&#xFFFD;|&#xFFFD;&#xFFFD;&#xFFFD;|"
		"&#xFFFD;&#xFFFD;&#xFFFD;|&#xFFFD;&#xFFFD;|"
		"&#xFFFD;&#xFFFD;&#xFFFD;&#xFFFD;|\xc3\xa9]"));
	assert_xmllint_ok(page);
	json = fx_write(r, DISKBENCH_FORMAT_JSON, NULL);
	assert_non_null(strstr(json,
		"\"n[\xef\xbf\xbe|\xef\xbf\xbf|"
		"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|"
		"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xc3\xa9]\""));
	free(json);
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_colours(void **state)
{
	struct diskbench_report *r = fx_report();
	char *page;

	(void)state;
	page = html(r);
	/* bon_csv2html's rule on the fixture: put_block rates are equal,
	 * latencies differ (raid-c's 700 ms is the worst: pure red; the two
	 * steady ones tie for best: pure green). */
	assert_non_null(strstr(page, "style=\"background:#"));
	assert_non_null(strstr(page, "<td colspan=\"2\" style=\"background:#FF0000\">700ms</td>"));
	assert_int_equal(count(page, "<td colspan=\"2\" style=\"background:#00FF00\">200us</td>"), 2);
	free(page);
	diskbench_report_free(r);

	assert_ok(diskbench_report_new(&r));
	fx_add_run(r, "alone", 7, 1795968000, true);
	page = html(r);
	assert_null(strstr(page, "style="));
	assert_null(strstr(page, "bgcolor"));
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_one_run(void **state)
{
	struct diskbench_report *r;
	char *page;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	fx_add_run(r, "solo", 7, 1795968000, true);
	page = html(r);
	assert_page(page);
	assert_int_equal(count(page, "<svg xmlns="), 24);
	assert_non_null(strstr(page, "solo"));
	assert_non_null(strstr(page, "<b>stall</b> solo put_block: 3 stalls of 700 ms"));
	/* One run: no verdict across runs. */
	assert_null(strstr(page, "class=\"verdict\""));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/* bonnie++'s own line (reference section 8): no distributions in it. */
static const char bonnie_line[] =
	"1.98,2.00a,testhost,1,1795968920,512M,,8192,5,1316,99,412524,87,"
	"+++++,+++,2157,99,+++++,+++,+++++,+++,4,,,,,8191,99,+++++,+++,+++++,"
	"+++,+++++,+++,+++++,+++,+++++,+++,8100us,458us,129us,7198us,576us,"
	"7399us,267us,312us,1113us,1456us,39us,952us\n"
	"1.98,2.00a,slowhost,1,1795968920,512M,,8192,5,1316,99,412524,87,"
	"+++++,+++,2157,99,+++++,+++,+++++,+++,4,,,,,8191,99,+++++,+++,+++++,"
	"+++,+++++,+++,+++++,+++,+++++,+++,8100us,2s,129us,7198us,576us,"
	"7399us,267us,312us,1113us,1456us,39us,952us\n";

static void test_report_html_summary_only(void **state)
{
	struct diskbench_report *r;
	char *page;
	int rc;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, bonnie_line,
				   strlen(bonnie_line), "bonnie.csv");
	assert_int_equal(rc, 2);
	page = html(r);
	assert_page(page);
	assert_int_equal(count(page, "<svg"), 0);
	assert_true(has_nocase(page, "no distribution in this input"));
	assert_non_null(strstr(page, "testhost"));
	assert_non_null(strstr(page, "403m"));   /* 412524 KiB/s */
	assert_non_null(strstr(page, "<li class=\"g2\"><b>stall</b> slowhost put_block: "
				     "worst latency 2 s, a stall (only the maximum is known); "
				     "its worst 2 s is 4367x the other runs'</li>"));
	assert_null(strstr(page, "</b> testhost"));
	assert_xmllint_ok(page);
	free(page);

	/* Beside runs that have distributions: their charts, and a note. */
	fx_add_run(r, "raid-a", 1111, 1795968000, false);
	page = html(r);
	assert_int_equal(count(page, "<svg xmlns="), 24);
	assert_true(has_nocase(page, "testhost: no distribution in this input"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_empty(void **state)
{
	struct diskbench_report *r;
	char *page;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	page = html(r);
	assert_page(page);
	assert_int_equal(count(page, "<svg"), 0);
	assert_non_null(strstr(page, "no runs"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/* bonnie++'s table in the page shows a phase an error stopped as the CSV
 * does, with empty cells, never +++++ (complete, too fast); the phase's
 * own section gives the error. */
static void test_report_html_failed_phase_cells(void **state)
{
	struct diskbench_report *all = fx_report(), *r;
	struct diskbench_result *v[12];
	struct diskbench_report_info in;
	char *page;
	size_t plus;

	(void)state;
	page = html(all);
	plus = count(page, ">+++++</td>");
	free(page);
	assert_int_equal(diskbench_report_new(&r), 0);
	diskbench_report_info_init(&in, sizeof(in));
	assert_int_equal(diskbench_report_get_info(all, 0, &in), 0);
	for (size_t i = 0; i < 12; i++)
		assert_int_equal(diskbench_result_copy(&v[i],
				 diskbench_report_result(all, 0, i)), 0);
	/* get_block, too fast in the fixture, cancelled */
	assert_true(diskbench_result_too_fast(v[4]));
	assert_int_equal(diskbench_result_set_error(v[4], -ECANCELED, NULL,
						    NULL, UINT64_MAX), 0);
	assert_int_equal(diskbench_report_add(r, &in,
		(const struct diskbench_result *const *)v, 12), 0);
	for (size_t i = 0; i < 12; i++)
		diskbench_result_free(v[i]);
	page = html(r);
	assert_page(page);
	/* the fixture's three runs have 3 each; this one 2 (seq_stat,
	 * ran_stat) */
	assert_int_equal(plus, 9);
	assert_int_equal(count(page, ">+++++</td>"), 2);
	assert_non_null(strstr(page, "stopped by an error: Operation canceled"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
	diskbench_report_free(all);
}

/* A run whose phase did nothing, and a custom phase: no charts for the
 * empty one, a page all the same. */
static void test_report_html_empty_phase(void **state)
{
	struct diskbench_report *r;
	struct diskbench_result *v[2];
	char *page;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_result_new(&v[0], "idle", DISKBENCH_PHASE_CUSTOM, NULL));
	v[1] = fx_result(DISKBENCH_PHASE_SEQ_READ, 1000, 1 << 20, 2 * FX_S,
			 FX_MS, 0, 0, 0, 5);
	assert_ok(diskbench_result_set_error(v[1], -EIO, "read", "data<1>", 4096));
	assert_ok(diskbench_report_add(r, NULL, (const struct diskbench_result *const *)v, 2));
	diskbench_result_free(v[0]);
	diskbench_result_free(v[1]);
	page = html(r);
	assert_page(page);
	assert_int_equal(count(page, "<svg xmlns="), 2);
	assert_non_null(strstr(page, "No operations recorded"));
	assert_non_null(strstr(page, "stopped by an error: read data&lt;1&gt;"));
	assert_non_null(strstr(page, "MiB/s"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

static void test_report_html_deterministic(void **state)
{
	struct diskbench_report *r = fx_report();
	char *a, *b;

	(void)state;
	a = html(r);
	b = html(r);
	assert_string_equal(a, b);
	free(a);
	free(b);
	diskbench_report_free(r);
}

/* The percentiles asked for head the phase tables. */
static void test_report_html_percentiles(void **state)
{
	static const double p[] = { 25, 99.5, 100 };
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	struct diskbench_report *r = fx_report();
	char *page;

	(void)state;
	wo.percentiles = p;
	wo.percentile_count = ARRAY_LEN(p);
	page = fx_write(r, DISKBENCH_FORMAT_HTML, &wo);
	assert_int_equal(count(page, "<th>p25</th><th>p99.5</th><th>max</th></tr>"), 12);
	assert_null(strstr(page, "<th>p99.9</th>"));
	free(page);
	diskbench_report_free(r);
}

/* Two hours at 100 ms: 72000 intervals, drawn with at most 1000 points a
 * line, so the page stays small. */
static void test_report_html_long_timeline(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	struct diskbench_report *r;
	const uint64_t n = 72000, t0 = 1000 * FX_S;
	char *page;

	(void)state;
	ro.interval_ns = 100 * FX_MS;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, t0));
	for (uint64_t i = 0; i < n; i++) {
		uint64_t end = t0 + (i + 1) * 100 * FX_MS - FX_MS;
		/* One stall of 5 s at an hour in: 50 empty intervals. */
		if (i >= 36000 && i < 36050)
			continue;
		assert_ok(diskbench_recorder_record(rec, end - (i == 36050 ? 5 * FX_S : FX_MS),
						    end, 4096));
	}
	assert_ok(diskbench_recorder_end(rec, t0 + n * 100 * FX_MS));
	assert_ok(diskbench_result_new(&res, "soak", DISKBENCH_PHASE_SEQ_WRITE, rec));
	diskbench_recorder_free(rec);
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, NULL, (const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);
	page = html(r);
	assert_int_equal(count(page, "<svg xmlns="), 2);
	assert_true(strlen(page) < 120000);
	assert_non_null(strstr(page, "one point per 7.2 s"));
	assert_non_null(strstr(page, "<b>stall</b> "));   /* the 5 s stall */
	assert_non_null(strstr(page, "1 stall of 5 s at "));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/* The points of the first latency line of the timeline chart. */
static size_t timeline_points(const char *page, char *label, size_t label_len)
{
	const char *svg = strstr(page, ": latency and throughput over time</title>");
	const char *pl, *end, *per;
	size_t n = 1;

	assert_non_null(svg);
	per = strstr(svg, "one point per ");
	assert_non_null(per);
	per += strlen("one point per ");
	end = strchr(per, '<');
	snprintf(label, label_len, "%.*s", (int)(end - per), per);
	/* The latency line is joined round; the throughput steps are not. */
	pl = strstr(svg, "stroke-linejoin=\"round\"");
	if (!pl || pl > strstr(svg, "</svg>"))
		return strstr(svg, "<circle") ? 1 : 0;   /* one point: a dot */
	pl = strstr(pl, "points=\"") + strlen("points=\"");
	end = strchr(pl, '"');
	for (const char *c = pl; c < end; c++)
		n += *c == ' ';
	return n;
}

/* A phase of length phase_ns, ops evenly spread, recorded at interval iv
 * (bounded at max intervals if max > 0); its HTML's timeline points. */
static size_t points_of(uint64_t phase_ns, uint64_t ops, uint64_t iv, uint64_t max,
			char *label, size_t label_len)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	struct diskbench_report *r;
	const uint64_t t0 = 1000 * FX_S;
	char *page;
	size_t n;

	ro.interval_ns = iv;
	ro.timeline_max_intervals = max;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, t0));
	for (uint64_t i = 0; i < ops; i++) {
		uint64_t a = t0 + i * phase_ns / ops, b = t0 + (i + 1) * phase_ns / ops;

		assert_ok(diskbench_recorder_record(rec, a, b, 8192));
	}
	assert_ok(diskbench_recorder_end(rec, t0 + phase_ns));
	assert_ok(diskbench_result_new(&res, "get_block", DISKBENCH_PHASE_GET_BLOCK, rec));
	diskbench_recorder_free(rec);
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, NULL, (const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);
	page = html(r);
	n = timeline_points(page, label, label_len);
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
	return n;
}

/*
 * The timeline's resolution follows the phase's length: a 40 ms phase is
 * one point at 100 ms, but at least 50 when recorded with a bounded
 * timeline from 100 us (diskbench-bonnie's default); a long phase stays
 * within the 1000-point cap; a phase of few operations gets about one
 * point per few operations, not a line of empty intervals.
 */
static void test_report_html_timeline_adapts(void **state)
{
	char label[64];
	size_t n;

	(void)state;
	n = points_of(40 * FX_MS, 400, 100 * FX_MS, 0, label, sizeof(label));
	assert_int_equal(n, 1);
	n = points_of(40 * FX_MS, 400, 100 * 1000, 2048, label, sizeof(label));
	print_message("    40 ms, 400 ops from 100 us: %zu points, one per %s\n", n, label);
	assert_true(n >= 50 && n <= 1000);
	n = points_of(600 * FX_S, 600000, 100 * 1000, 2048, label, sizeof(label));
	print_message("    10 min, 600000 ops from 100 us: %zu points, one per %s\n", n, label);
	assert_true(n >= 500 && n <= 1000);
	/* 40 ops in 40 ms: 100 us intervals are mostly empty; the line has
	 * 20 points of 2.1 ms, about 2 operations each. */
	n = points_of(40 * FX_MS, 40, 100 * 1000, 2048, label, sizeof(label));
	print_message("    40 ms, 40 ops from 100 us: %zu points, one per %s\n", n, label);
	assert_int_equal(n, 20);
	assert_string_equal(label, "2.1 ms");   /* 401 intervals, 21 a point */
}

/*
 * A phase of n operations back to back, the i-th taking lat[i], recorded at
 * interval iv (bounded at max intervals if max > 0): before operation
 * idle_at the run waits idle_ns with nothing outstanding, and after the
 * last one the phase goes on for tail_ns. Every time explicit.
 */
static struct diskbench_result *seq_result(uint64_t iv, uint64_t max,
					   const uint64_t *lat, size_t n,
					   size_t idle_at, uint64_t idle_ns,
					   uint64_t tail_ns)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	const uint64_t t0 = 1000 * FX_S;
	uint64_t t = t0;

	ro.interval_ns = iv;
	ro.timeline_max_intervals = max;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, t0));
	for (size_t i = 0; i < n; i++) {
		if (i == idle_at)
			t += idle_ns;
		assert_ok(diskbench_recorder_record(rec, t, t + lat[i], 8192));
		t += lat[i];
	}
	assert_ok(diskbench_recorder_end(rec, t + tail_ns));
	assert_ok(diskbench_result_new(&res, "get_block", DISKBENCH_PHASE_GET_BLOCK, rec));
	diskbench_recorder_free(rec);
	return res;
}

/* n latencies of base, but the one at `at`, which is lat_at. */
static uint64_t *lats(size_t n, uint64_t base, size_t at, uint64_t lat_at)
{
	uint64_t *v = calloc(n, sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = i == at ? lat_at : base;
	return v;
}

/* The page of runs named names[i], each of the one result res[i] (freed). */
static char *page_of(struct diskbench_result **res, const char *const *names,
		     size_t n)
{
	struct diskbench_report *r;
	char *page;

	assert_ok(diskbench_report_new(&r));
	for (size_t i = 0; i < n; i++) {
		struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;

		in.name = names[i];
		assert_ok(diskbench_report_add(r, &in,
					       (const struct diskbench_result *const *)&res[i], 1));
		diskbench_result_free(res[i]);
	}
	page = html(r);
	assert_page(page);
	diskbench_report_free(r);
	return page;
}

/* The bands of a page: each a grey shade (never in a run's colour, so
 * that runs' bands do not mix) and a bar in its run's lane. The legend
 * says what they are exactly when there are some. */
static size_t bands(const char *page)
{
	size_t n = count(page, "<rect class=\"gap\" ");

	for (const char *p = strstr(page, "<rect class=\"gap\" "); p;
	     p = strstr(p + 1, "<rect class=\"gap\" ")) {
		const char *fill = strstr(p, "fill=\"");

		assert_true(fill && fill < strchr(p, '>'));
		assert_true(!strncmp(fill, "fill=\"#000\" ", 12));
	}
	assert_int_equal(count(page, "<rect class=\"gap-lane\" "), n);
	assert_int_equal(count(page, "<rect class=\"gap-key\" ") > 0, n > 0);
	assert_int_equal(count(page, ">nothing completed while an operation waited ") > 0,
			 n > 0);
	return n;
}

/* The number in attribute name of the element at p. */
static double attr(const char *p, const char *name)
{
	char needle[32];
	const char *a;

	assert_non_null(p);
	snprintf(needle, sizeof(needle), " %s=\"", name);
	a = strstr(p, needle);
	assert_true(a && a < strchr(p, '>'));
	return strtod(a + strlen(needle), NULL);
}

/* The x of the timeline's tick labelled label (seconds into the phase). */
static double tick_x(const char *page, const char *label)
{
	const char *svg = strstr(page, ": latency and throughput over time</title>");
	char needle[48];
	const char *t;

	assert_non_null(svg);
	snprintf(needle, sizeof(needle), " text-anchor=\"middle\">%s</text>", label);
	t = strstr(svg, needle);
	assert_non_null(t);
	while (t > svg && strncmp(t, "<text ", 6))
		t--;
	return attr(t, "x");
}

/* A one-run page of seq_result()'s phase. */
static char *seq_page(uint64_t iv, uint64_t max, const uint64_t *lat, size_t n,
		      size_t idle_at, uint64_t idle_ns, uint64_t tail_ns)
{
	struct diskbench_result *res = seq_result(iv, max, lat, n, idle_at, idle_ns,
						  tail_ns);
	static const char *const name[1] = { "one" };

	return page_of(&res, name, 1);
}

/*
 * Operations every 1 ms, recorded at 100 us: the nine empty intervals
 * between two operations are no hole, and draw no band. Nor does a 50 ms
 * operation among them: the page's stall rule (at least 100 ms and 100
 * times the p99) calls it none, and a band there would say "stall" where
 * the summary says "No stalls". A 150 ms one is a stall, and a band.
 * But a 2 s one on another thread, while this one goes on completing
 * its 1 ms operations, is a stall with no band: only the empty intervals
 * between them are empty, and they are no hole.
 */
static void test_report_html_no_band_between_ops(void **state)
{
	static const uint64_t hole[3] = { FX_MS, 50 * FX_MS, 150 * FX_MS };
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	static const char *const name[1] = { "one" };
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	const uint64_t t0 = 1000 * FX_S;
	char *page;

	(void)state;
	for (int k = 0; k < 3; k++) {
		uint64_t *lat = lats(150, FX_MS, 100, hole[k]);

		page = seq_page(100 * 1000, 2048, lat, 150, SIZE_MAX, 0, 0);
		assert_int_equal(bands(page), k == 2 ? 1 : 0);
		assert_int_equal(strstr(page, "No stalls") != NULL, k < 2);
		free(page);
		free(lat);
	}
	ro.interval_ns = 100 * 1000;
	ro.timeline_max_intervals = 65536;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, t0));
	for (uint64_t i = 0; i < 3000; i++) {
		assert_ok(diskbench_recorder_record(rec, t0 + i * FX_MS,
						    t0 + (i + 1) * FX_MS, 8192));
		if (i == 2500)   /* the other thread's, from 0.5 s */
			assert_ok(diskbench_recorder_record(rec, t0 + FX_S / 2,
							    t0 + (i + 1) * FX_MS, 8192));
	}
	assert_ok(diskbench_recorder_end(rec, t0 + 3 * FX_S));
	assert_ok(diskbench_result_new(&res, "get_block", DISKBENCH_PHASE_GET_BLOCK, rec));
	diskbench_recorder_free(rec);
	page = page_of(&res, name, 1);
	assert_non_null(strstr(page, "<b>severe</b> one get_block: 1 stall of 2 s at 0.500 s into the phase, 67 % of the phase stalled</li>"));
	assert_int_equal(bands(page), 0);
	free(page);
}

/* Seconds into the phase at x on the timeline, by its ticks at 0 and at
 * `at` seconds (labelled label). */
static double secs(const char *page, double x, const char *label, double at)
{
	double x0 = tick_x(page, "0");

	return (x - x0) / (tick_x(page, label) - x0) * at;
}

/* The i-th band of a page, in seconds into the phase; the ticks as for
 * secs(). */
static void band_secs(const char *page, size_t i, const char *label, double at,
		      double *from, double *to)
{
	const char *b = strstr(page, "<rect class=\"gap\" ");

	for (; i && b; i--)
		b = strstr(b + 1, "<rect class=\"gap\" ");
	assert_non_null(b);
	*from = secs(page, attr(b, "x"), label, at);
	*to = secs(page, attr(b, "x") + attr(b, "width"), label, at);
}

/*
 * Nothing completed for seconds, between operations of 1 ms recorded at
 * 100 ms: idle (nothing outstanding; the next operation is quick) it is
 * no band, nor is the end of the phase after its last operation, nor is
 * either in a phase that stalls elsewhere; a stall of 2 s is a band over
 * the empty intervals it held up, ending where it ended (at its ring); an
 * operation of 0.5 s that began 1.5 s into an idle stretch is a band over
 * its own 0.5 s only.
 */
static void test_report_html_band_idle_or_stall(void **state)
{
	uint64_t *quick = lats(2000, FX_MS, SIZE_MAX, 0);
	uint64_t *slow = lats(2000, FX_MS, 1500, 2 * FX_S);
	uint64_t *late = lats(2000, FX_MS, 1000, FX_S / 2);
	double from, to;
	char *page;

	(void)state;
	page = seq_page(100 * FX_MS, 0, quick, 2000, 1000, 2 * FX_S, 2 * FX_S);
	assert_int_equal(bands(page), 0);
	assert_non_null(strstr(page, "No stalls"));
	free(page);
	/* 0.5 s of work, 2 s idle, 1 s of work (to 3.5 s), the 2 s stall,
	 * 0.5 s of work, 2 s more of the phase. The quick operation before
	 * the stall ends right on 3.5 s, so in the interval from there: the
	 * empty ones are from 3.6 s. */
	page = seq_page(100 * FX_MS, 0, slow, 2000, 500, 2 * FX_S, 2 * FX_S);
	assert_int_equal(bands(page), 1);
	band_secs(page, 0, "2", 2, &from, &to);
	print_message("    stall of 2 s at 3.5 s: band %.3f to %.3f s\n", from, to);
	assert_true(fabs(from - 3.6) < 0.01 && fabs(to - 5.5) < 0.01);
	assert_true(fabs(secs(page, attr(strstr(page, "<circle class=\"slow\" "), "cx"),
			      "2", 2) - 5.5) < 0.01);
	assert_non_null(strstr(page, "<b>severe</b> one get_block: 1 stall of 2 s at "));
	assert_xmllint_ok(page);
	free(page);
	/* 1 s of work, 1.5 s idle, the 0.5 s operation to 3 s, 1 s more. */
	page = seq_page(100 * FX_MS, 0, late, 2000, 1000, 3 * FX_S / 2, 0);
	assert_int_equal(bands(page), 1);
	band_secs(page, 0, "1", 1, &from, &to);
	print_message("    0.5 s at 2.5 s after idling: band %.3f to %.3f s\n", from, to);
	assert_true(fabs(from - 2.5) < 0.01 && fabs(to - 3) < 0.01);
	free(page);
	free(quick);
	free(slow);
	free(late);
}

/*
 * A healthy phase of fine operations, as diskbench-bonnie records a stat
 * phase: 1024 operations of 2 us at 100 us intervals, the first (cold)
 * taking 300 us and a few others 80 us. Three empty intervals start it,
 * ended by the 300 us one, 150 times the median: yet no stall by the
 * page's rule, and no band (there was one in each run's colour, blended).
 */
static void test_report_html_no_band_fine_healthy(void **state)
{
	static const char *const names[2] = { "first", "second" };
	struct diskbench_result *res[2];
	char *page;

	(void)state;
	for (int k = 0; k < 2; k++) {
		uint64_t *lat = lats(1024, 2000, 0, 300 * 1000);

		for (size_t i = 100; i < 1024; i += 300)
			lat[i] = 80 * 1000;
		res[k] = seq_result(100 * 1000, 2048, lat, 1024, SIZE_MAX, 0, 0);
		free(lat);
	}
	page = page_of(res, names, 2);
	assert_non_null(strstr(page, "No stalls"));
	assert_int_equal(bands(page), 0);
	free(page);
}

/* The colour of a run's line in a page's first legend. */
static void legend_colour(const char *page, const char *name, char *out,
			  size_t len)
{
	char needle[64];
	const char *p, *c;

	snprintf(needle, sizeof(needle), ">%s</text>", name);
	p = strstr(page, needle);
	assert_non_null(p);
	/* The entry's key is the path just before its name. */
	for (c = p; c > page && strncmp(c, "stroke=\"#", 9); c--)
		;
	assert_true(c > page);
	snprintf(out, len, "%.7s", c + 8);
}

/* The fill and the y of the i-th lane bar of a page. */
static void lane_bar(const char *page, size_t i, char *fill, size_t len, double *y)
{
	const char *p = strstr(page, "<rect class=\"gap-lane\" ");

	for (; i && p; i--)
		p = strstr(p + 1, "<rect class=\"gap-lane\" ");
	assert_non_null(p);
	assert_non_null(strstr(p, " y=\""));
	*y = strtod(strstr(p, " y=\"") + 4, NULL);
	snprintf(fill, len, "%.7s", strstr(p, "fill=\"") + 6);
}

/*
 * Three runs, the first and the third stalling at the same time: their
 * bands share one place, each run's bar in its own colour in its own
 * lane (the first's above the third's), the shades neutral; none is in
 * the steady second run's colour.
 */
static void test_report_html_band_lanes(void **state)
{
	static const char *const names[3] = { "stalls-a", "steady", "stalls-c" };
	struct diskbench_result *res[3];
	char col[3][8], fill[2][8];
	uint64_t *lat[2];
	double y[2];
	char *page;

	(void)state;
	lat[0] = lats(2000, FX_MS, 1000, 2 * FX_S);
	lat[1] = lats(2000, FX_MS, SIZE_MAX, 0);
	for (int k = 0; k < 3; k++)
		res[k] = seq_result(100 * FX_MS, 0, lat[k == 1], 2000, SIZE_MAX, 0,
				    k == 1 ? 2 * FX_S : 0);
	page = page_of(res, names, 3);
	assert_int_equal(bands(page), 2);
	for (int k = 0; k < 3; k++)
		legend_colour(page, names[k], col[k], sizeof(col[k]));
	assert_string_not_equal(col[0], col[1]);
	assert_string_not_equal(col[2], col[1]);
	assert_string_not_equal(col[0], col[2]);
	for (size_t i = 0; i < 2; i++)
		lane_bar(page, i, fill[i], sizeof(fill[i]), &y[i]);
	assert_string_equal(fill[0], col[0]);
	assert_string_equal(fill[1], col[2]);
	assert_true(y[0] < y[1]);
	assert_xmllint_ok(page);
	free(page);
	free(lat[0]);
	free(lat[1]);
}

/* A duration in a configuration is shown for people, exactly: the key
 * without its "_ns", the value in the largest unit it reaches; other
 * numbers as they are. */
static void test_report_html_config_durations(void **state)
{
	struct diskbench_result *res = fx_result(DISKBENCH_PHASE_SEEKS, 100, 8192,
						 FX_S, 1000, 0, 0, 0, 3);
	struct diskbench_report *r;
	char *page;

	(void)state;
	assert_ok(diskbench_result_set_config(res, "seek_time_ns", "3000000000"));
	assert_ok(diskbench_result_set_config(res, "time_limit_ns", "1234567"));
	assert_ok(diskbench_result_set_config(res, "pace_late_ns", "250"));
	assert_ok(diskbench_result_set_config(res, "seekers", "5"));
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, NULL, (const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);
	page = html(r);
	assert_non_null(strstr(page, "<span class=\"ck\">seek_time</span> 3 s"));
	assert_non_null(strstr(page, "<span class=\"ck\">time_limit</span> 1.234567 ms"));
	assert_non_null(strstr(page, "<span class=\"ck\">pace_late</span> 250 ns"));
	assert_non_null(strstr(page, "<span class=\"ck\">seekers</span> 5"));
	assert_null(strstr(page, "3000000000"));
	assert_null(strstr(page, "seek_time_ns"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/* The runs table names each run's engine, from its results'
 * configurations: each distinct one once; a dash where none says. */
static void test_report_html_engine(void **state)
{
	static const char *const engines[3][2] = {
		{ "io_uring", "io_uring" }, { "sync", "null" }, { NULL, NULL },
	};
	static const char *const names[3] = { "ring", "mixed", "told-nothing" };
	struct diskbench_report *r;
	char *page, *row;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	for (int i = 0; i < 3; i++) {
		struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
		struct diskbench_result *v[2];

		for (int k = 0; k < 2; k++) {
			v[k] = fx_result(k ? DISKBENCH_PHASE_GET_BLOCK : DISKBENCH_PHASE_PUT_BLOCK,
					 100, 8192, FX_S, 1000, 0, 0, 0, 3);
			if (engines[i][k])
				assert_ok(diskbench_result_set_config(v[k], "engine",
								      engines[i][k]));
		}
		in.name = names[i];
		assert_ok(diskbench_report_add(r, &in, (const struct diskbench_result *const *)v, 2));
		diskbench_result_free(v[0]);
		diskbench_result_free(v[1]);
	}
	page = html(r);
	assert_non_null(strstr(page, "<th>directory</th><th>engine</th>"));
	row = strstr(page, "ring</td>");
	assert_non_null(row);
	assert_non_null(strstr(row, "<td>io_uring</td>"));
	assert_true(strstr(row, "<td>io_uring</td>") < strstr(row, "</tr>"));
	row = strstr(page, "mixed</td>");
	assert_non_null(row);
	assert_non_null(strstr(row, "<td>sync, null</td>"));
	assert_true(strstr(row, "<td>sync, null</td>") < strstr(row, "</tr>"));
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

/* bonnie++'s table, 30 columns and more, fits a 1400 px window: compact
 * type, headings and names that wrap (checked by eye in headless
 * chromium, see docs/report-formats.md), in a box that scrolls rather
 * than cut its last columns off on a narrower one. */
static void test_report_html_bonnie_fits(void **state)
{
	struct diskbench_report *r = fx_report();
	char *page = html(r), *tab;

	(void)state;
	assert_non_null(strstr(page, "div.wide{overflow-x:auto;max-width:100%}"));
	assert_non_null(strstr(page, "table.bonnie{font-size:10px}"));
	assert_non_null(strstr(page, "table.bonnie th{white-space:normal}"));
	assert_non_null(strstr(page, "table.bonnie td.name{text-align:left;font-weight:600;"
				     "white-space:normal;overflow-wrap:anywhere;max-width:7em}"));
	tab = strstr(page, "<div class=\"wide\"><table class=\"bonnie\">");
	assert_non_null(tab);
	assert_non_null(strstr(tab, "</table></div>"));
	assert_int_equal(count(page, "<table class=\"bonnie\">"), 1);
	free(page);
	diskbench_report_free(r);
}

/* The chart of run ri of the page (a copy, for the caller to free),
 * from its caption to its end. */
static char *run_chart(const char *page, size_t ri)
{
	const char *p = strstr(page, "<h2 id=\"whole-runs\">"), *e;
	char *c;

	assert_non_null(p);
	for (size_t i = 0; i <= ri; i++) {
		p = strstr(p + 1, "<p class=\"run\">");
		assert_non_null(p);
	}
	e = strstr(p, "</svg>");
	assert_non_null(e);
	c = strndup(p, (size_t)(e - p));
	assert_non_null(c);
	return c;
}

/* The x of a time on the whole-run chart, as the page writes it. */
static double run_x(uint64_t ns, uint64_t span_ns)
{
	return 66.0 + (double)ns / (double)span_ns * (1186.0 - 66.0);
}

/*
 * Whole runs: every test of a run on one axis, each stall marked where
 * the stall analysis puts it, in its test's grade's colour; a run whose
 * tests overlap in time says why it has no such chart.
 */
static void test_report_html_whole_run(void **state)
{
	struct diskbench_report *r = fx_report();
	const struct diskbench_result *first, *pb, *last;
	struct diskbench_stalls *st;
	struct diskbench_stall x;
	uint64_t span, off;
	char *page = html(r), *c, want[64];
	const char *bar;

	(void)state;
	assert_int_equal(count(page, "<svg class=\"run\""), 3);
	c = run_chart(page, 0);
	assert_non_null(strstr(c, "<strong>raid-a</strong>: 12 tests over "));
	assert_non_null(strstr(c, "; no stalls.</p>"));
	assert_int_equal(count(c, "class=\"stall-bar\""), 0);
	assert_int_equal(count(c, "<rect class=\"test\""), 12);
	free(c);
	/* raid-c: 3 stalls in put_block and 3 in ran_create. */
	c = run_chart(page, 2);
	assert_non_null(strstr(c, "<strong>raid-c</strong>: 12 tests over "));
	assert_non_null(strstr(c, "; 6 stalls, "));
	assert_int_equal(count(c, "class=\"stall-bar\""), 6);
	assert_int_equal(count(c, "class=\"stall-shade\""), 6);
	/* Its first stall, where the analysis puts it on the run's clock, in
	 * the orange of grade "stall". */
	first = diskbench_report_result_get(r, 2, 0);
	pb = diskbench_report_result_get(r, 2, 1);
	last = diskbench_report_result_get(r, 2, 11);
	span = diskbench_result_start_ns(last) + diskbench_result_elapsed_ns(last) -
	       diskbench_result_start_ns(first);
	off = diskbench_result_start_ns(pb) - diskbench_result_start_ns(first);
	assert_ok(diskbench_stalls_find(&st, pb, NULL));
	memset(&x, 0, sizeof(x));
	x.sz = sizeof(x);
	assert_ok(diskbench_stalls_get(st, 0, &x));
	diskbench_stalls_free(st);
	bar = strstr(c, "<rect class=\"stall-bar\" x=\"");
	assert_non_null(bar);
	assert_true(fabs(strtod(bar + strlen("<rect class=\"stall-bar\" x=\""), NULL) -
			 run_x(off + x.start_ns, span)) <= 0.051);
	snprintf(want, sizeof(want), "fill=\"#ef6c00\"><title>put_block: ");
	assert_non_null(strstr(bar, want));
	free(c);
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);

	/* Two tests at the same time: no order of stalls across them. */
	{
		struct diskbench_result *v[2];

		assert_ok(diskbench_report_new(&r));
		v[0] = fx_result(DISKBENCH_PHASE_PUT_BLOCK, 100, 1 << 20, FX_S,
				 FX_MS, 0, 0, 0, 5);
		v[1] = fx_result(DISKBENCH_PHASE_GET_BLOCK, 100, 1 << 20, FX_S,
				 FX_MS, 0, 0, 0, 5);
		assert_ok(diskbench_report_add(r, NULL,
			(const struct diskbench_result *const *)v, 2));
		diskbench_result_free(v[0]);
		diskbench_result_free(v[1]);
		page = html(r);
		assert_int_equal(count(page, "<svg class=\"run\""), 0);
		assert_non_null(strstr(page, ": its tests overlap in time (run side by "
					     "side, or timed on different clocks): no "
					     "whole-run timeline.</p>"));
		assert_xmllint_ok(page);
		free(page);
		diskbench_report_free(r);
	}
}

/* Every timeline with slow-operation rings says what they are, in its
 * legend; one without rings has no such entry. */
static void test_report_html_slow_legend(void **state)
{
	struct diskbench_report *r = fx_report();
	char *page = html(r);
	size_t with = 0, without = 0;

	(void)state;
	/* The phases' charts (a whole-run chart marks stalls, not rings). */
	for (char *p = strstr(page, "<svg xmlns="); p; p = strstr(p + 1, "<svg xmlns=")) {
		char *end = strstr(p, "</svg>");
		bool rings, key;

		assert_non_null(end);
		*end = 0;
		rings = strstr(p, "<circle class=\"slow\"") != NULL;
		key = strstr(p, "<circle class=\"slow-key\"") != NULL &&
		      strstr(p, ">slow operation (ring in its run's colour") != NULL;
		assert_true(rings == key);
		with += rings;
		without += !rings;
		*end = '<';
	}
	/* raid-c's stalls in put_block and ran_create are slow operations
	 * (over 50 ms); the other phases have none. */
	assert_int_equal(with, 2);
	assert_int_equal(without, 22);
	assert_xmllint_ok(page);
	free(page);
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_html_fixture),
		cmocka_unit_test(test_report_html_stalls),
		cmocka_unit_test(test_report_html_no_stalls),
		cmocka_unit_test(test_report_html_xmllint),
		cmocka_unit_test(test_report_html_escaping),
		cmocka_unit_test(test_report_html_utf8_rule),
		cmocka_unit_test(test_report_html_colours),
		cmocka_unit_test(test_report_html_one_run),
		cmocka_unit_test(test_report_html_summary_only),
		cmocka_unit_test(test_report_html_empty),
		cmocka_unit_test(test_report_html_empty_phase),
		cmocka_unit_test(test_report_html_failed_phase_cells),
		cmocka_unit_test(test_report_html_deterministic),
		cmocka_unit_test(test_report_html_percentiles),
		cmocka_unit_test(test_report_html_long_timeline),
		cmocka_unit_test(test_report_html_timeline_adapts),
		cmocka_unit_test(test_report_html_no_band_between_ops),
		cmocka_unit_test(test_report_html_band_idle_or_stall),
		cmocka_unit_test(test_report_html_no_band_fine_healthy),
		cmocka_unit_test(test_report_html_band_lanes),
		cmocka_unit_test(test_report_html_config_durations),
		cmocka_unit_test(test_report_html_engine),
		cmocka_unit_test(test_report_html_bonnie_fits),
		cmocka_unit_test(test_report_html_slow_legend),
		cmocka_unit_test(test_report_html_whole_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
