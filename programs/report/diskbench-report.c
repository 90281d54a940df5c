/*
 * diskbench-report: reads result files into one report and writes it again,
 * as bonnie++'s text table, bonnie++ CSV, JSON or an HTML comparison page,
 * or says the verdict across set-ups (--verdict).
 *
 * What bon_csv2txt and bon_csv2html do, for any mix of this library's JSON
 * and bonnie++ CSV (from diskbench-bonnie or from bonnie++ itself), plus
 * latency percentiles and timelines where the inputs carry them (JSON).
 * Public API only.
 *
 *   diskbench-report --html -o compare.html new.json old-runs.csv
 *
 *   cc -o diskbench-report diskbench-report.c ../common/signals.c \
 *       $(pkg-config --cflags --libs diskbench)
 */
#include <diskbench.h>

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/percentiles.h"
#include "../common/signals.h"

#define PROG "diskbench-report"

enum {
	OPT_TEXT = 256, OPT_CSV, OPT_JSON, OPT_HTML, OPT_TITLE,
	OPT_PERCENTILES, OPT_HELP, OPT_VERSION, OPT_HDR_LOG, OPT_VERDICT,
};

/*
 * Signals. Every catchable signal whose default action ends the process
 * goes to on_signal(). While the library writes the report to a temporary
 * file (the -o file is a regular file or new), the handler only notes the
 * signal: the library removes or renames its temporary file before it
 * returns, and then the program ends by the signal's default action, so
 * that nothing is left and the -o file is the old one or the complete new
 * one. Anywhere else (reading, or writing into standard output, a FIFO or
 * a device, where nothing would be left, and where a stalled reader could
 * block the write for ever) the default action is taken at once.
 * Signals the caller ignores (nohup, trap '' PIPE) stay ignored.
 */
static volatile sig_atomic_t g_defer;
static volatile sig_atomic_t g_caught;

/* Ends the process by sig's default action (async-signal-safe). */
static void die_by(int sig)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	if (g_defer) {
		if (!g_caught)
			g_caught = sig;
		return;
	}
	die_by(sig);
}

static void catch_one(int sig, const sigset_t *mask)
{
	struct sigaction sa, old;

	if (sigaction(sig, NULL, &old) || old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_mask = *mask;
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, NULL);
}

/* The signals of ../common/signals.c, and SIGRTMIN to SIGRTMAX. */
static void catch_signals(void)
{
	size_t n = stop_signal_count;
	sigset_t mask;

	/* One handler at a time: a second signal waits for the first. */
	sigemptyset(&mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&mask, stop_signals[i].sig);
#ifdef SIGRTMIN
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&mask, sig);
#endif
	for (size_t i = 0; i < n; i++)
		catch_one(stop_signals[i].sig, &mask);
#ifdef SIGRTMIN
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		catch_one(sig, &mask);
#endif
}

/* Whether the library will write @p path through a temporary file: a
 * regular file, or nothing yet (as it decides, with lstat). */
static bool through_temporary(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}

static const char usage_text[] =
	"usage: " PROG " [--text | --csv | --json | --html | --hdr-log | --verdict]\n"
	"       [--title TITLE] [--percentiles P,P,...] [-o FILE] RESULT-FILE...\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(1);
}

static void help(void)
{
	printf("%s\n"
	       "Reads result files (libdiskbench JSON, bonnie++ CSV from bonnie++ or\n"
	       "diskbench-bonnie, the results journal of a diskbench-bonnie run, also\n"
	       "one killed by SIGKILL; - is standard input) into one report and\n"
	       "writes it.\n"
	       "\n"
	       "  --text             bonnie++'s text table, one row per run (default)\n"
	       "  --csv              bonnie++ CSV, format 1.98, one line per run\n"
	       "  --json             libdiskbench JSON (docs/result-schema.json)\n"
	       "  --html             a self-contained HTML page comparing the runs\n"
	       "  --hdr-log          an HdrHistogram interval log (format 1.3): one\n"
	       "                     histogram per timeline interval, tagged run/phase\n"
	       "  --verdict          the verdict across set-ups (runs of one name),\n"
	       "                     a line each: throughput, worst latencies that\n"
	       "                     stand out, stalls over whole runs and per test,\n"
	       "                     differences with confidence intervals\n"
	       "  --title TITLE      title of the HTML page\n"
	       "  --percentiles LIST latency percentiles for JSON and HTML, ascending,\n"
	       "                     comma-separated (default 50,90,99,99.9,99.99,100)\n"
	       "  -o FILE            write to FILE instead of standard output\n"
	       "  --help             this text\n"
	       "  --version          the program's version\n"
	       "\nVersion: %s\n", usage_text, diskbench_version_string());
	exit(0);
}

/* A one-line message naming the bad option, then the usage. */
static void bad(const char *fmt, const char *arg, const char *more)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg, more);
	fputc('\n', stderr);
	usage();
}

/* The library's message, with the file's name in front if it lacks it. */
static void say(const struct diskbench_report *rep, const char *name, int err)
{
	const char *msg = diskbench_report_errmsg(rep);

	if (!*msg)
		msg = diskbench_strerror(err);
	if (strstr(msg, name))
		fprintf(stderr, PROG ": %s\n", msg);
	else
		fprintf(stderr, PROG ": %s: %s\n", name, msg);
}

/* Where a writer's bytes go, and why the last write failed. */
struct out {
	FILE *f;
	int err;
};

static int sink(const void *buf, size_t len, void *user_data)
{
	struct out *o = user_data;

	if (fwrite(buf, 1, len, o->f) == len)
		return 0;
	o->err = errno ? -errno : -EIO;
	return o->err;
}

/* Writes to standard output. */
static int write_stdout(struct diskbench_report *rep, enum diskbench_format fmt,
			const struct diskbench_write_opts *wo)
{
	struct out o = { stdout, 0 };
	int err;

	errno = 0;
	err = diskbench_report_write(rep, fmt, wo, sink, &o);
	if (!err && fflush(stdout))
		err = -errno;
	if (err && err == o.err)
		fprintf(stderr, PROG ": standard output: %s\n", diskbench_strerror(err));
	else if (err)
		say(rep, "standard output", err);
	return err ? 1 : 0;
}

/* Writes to @p path through the library, which replaces a regular file
 * only by rename of a complete temporary file (keeping its mode), writes
 * into a device or a FIFO, and refuses anything else. */
static int write_path(struct diskbench_report *rep, enum diskbench_format fmt,
		      const struct diskbench_write_opts *wo, const char *path)
{
	int err = diskbench_report_write_file(rep, fmt, wo, path);

	if (err)
		say(rep, path, err);
	return err ? 1 : 0;
}

/* The verdict across set-ups (diskbench_compare_text()) on standard
 * output; with fewer than two set-ups, a line on standard error. */
static int write_verdict(struct diskbench_report *rep)
{
	struct diskbench_compare *c = NULL;
	char *text = NULL;
	long n;
	int err = diskbench_compare_new(&c, rep, NULL);

	if (err) {
		fprintf(stderr, PROG ": the comparison: %s\n", diskbench_strerror(err));
		return 1;
	}
	if (diskbench_compare_setup_count(c) < 2) {
		fprintf(stderr, PROG ": --verdict: %zu set-up%s (runs of one name): "
			"nothing to compare\n", diskbench_compare_setup_count(c),
			diskbench_compare_setup_count(c) == 1 ? "" : "s");
		diskbench_compare_free(c);
		return 0;
	}
	n = diskbench_compare_text(c, NULL, 0);
	if (n >= 0)
		text = malloc((size_t)n + 1);
	if (n < 0 || !text) {
		fprintf(stderr, PROG ": the comparison: %s\n",
			diskbench_strerror(n < 0 ? (int)n : -ENOMEM));
		diskbench_compare_free(c);
		return 1;
	}
	(void)diskbench_compare_text(c, text, (size_t)n + 1);
	diskbench_compare_free(c);
	errno = 0;
	if (fputs(text, stdout) == EOF || fflush(stdout)) {
		fprintf(stderr, PROG ": standard output: %s\n",
			diskbench_strerror(errno ? -errno : -EIO));
		free(text);
		return 1;
	}
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "text", no_argument, NULL, OPT_TEXT },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "html", no_argument, NULL, OPT_HTML },
		{ "hdr-log", no_argument, NULL, OPT_HDR_LOG },
		{ "verdict", no_argument, NULL, OPT_VERDICT },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "percentiles", required_argument, NULL, OPT_PERCENTILES },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const names[] = {
		[DISKBENCH_FORMAT_BONNIE_TEXT] = "--text",
		[DISKBENCH_FORMAT_BONNIE_CSV] = "--csv",
		[DISKBENCH_FORMAT_JSON] = "--json",
		[DISKBENCH_FORMAT_HTML] = "--html",
		[DISKBENCH_FORMAT_HDR_LOG] = "--hdr-log",
	};
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	double percentiles[DISKBENCH_WRITE_MAX_PERCENTILES];
	enum diskbench_format fmt = DISKBENCH_FORMAT_AUTO;
	struct diskbench_report *rep = NULL;
	bool verdict_only = false;
	bool damaged = false;
	const char *out = NULL;
	bool stdin_used = false;
	char short_opt[3] = "-?";
	const char *why;
	int c, status;

	catch_signals();
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longs, NULL)) != -1) {
		enum diskbench_format want = DISKBENCH_FORMAT_AUTO;

		switch (c) {
		case ':':
			/* A long option is the last word getopt read; a short
			 * one is optopt (a char, made a string for bad()). */
			if (strncmp(argv[optind - 1], "--", 2) == 0)
				bad("option %s needs an argument%s",
				    argv[optind - 1], "");
			short_opt[1] = (char)optopt;
			bad("option %s needs an argument%s", short_opt, "");
			break;
		case '?':
			if (optopt)
				fprintf(stderr, PROG ": unknown option -%c\n", optopt);
			else
				fprintf(stderr, PROG ": unknown option %s\n", argv[optind - 1]);
			usage();
			break;
		case 'o':
			if (out)
				bad("-o %s: the output file is already given%s", optarg, "");
			if (!*optarg)
				bad("-o: the file name is empty%s%s", "", "");
			out = optarg;
			break;
		case OPT_TEXT:
			want = DISKBENCH_FORMAT_BONNIE_TEXT;
			break;
		case OPT_CSV:
			want = DISKBENCH_FORMAT_BONNIE_CSV;
			break;
		case OPT_JSON:
			want = DISKBENCH_FORMAT_JSON;
			break;
		case OPT_HTML:
			want = DISKBENCH_FORMAT_HTML;
			break;
		case OPT_HDR_LOG:
			want = DISKBENCH_FORMAT_HDR_LOG;
			break;
		case OPT_VERDICT:
			verdict_only = true;
			break;
		case OPT_TITLE:
			wo.title = optarg;
			break;
		case OPT_PERCENTILES:
			why = parse_percentile_list(optarg, percentiles,
						    &wo.percentile_count);
			if (why)
				bad("--percentiles %s: %s", optarg, why);
			wo.percentiles = percentiles;
			break;
		case OPT_HELP:
			help();
			break;
		case OPT_VERSION:
			printf(PROG " %s\n", diskbench_version_string());
			return 0;
		}
		if (want != DISKBENCH_FORMAT_AUTO) {
			if (fmt != DISKBENCH_FORMAT_AUTO && fmt != want)
				bad("%s and %s: choose one output format", names[fmt],
				    names[want]);
			fmt = want;
		}
	}
	if (verdict_only && fmt != DISKBENCH_FORMAT_AUTO)
		bad("--verdict and %s: choose one output%s", names[fmt], "");
	if (verdict_only && out && strcmp(out, "-"))
		bad("-o %s: --verdict writes to standard output only%s", out, "");
	if (fmt == DISKBENCH_FORMAT_AUTO)
		fmt = DISKBENCH_FORMAT_BONNIE_TEXT;
	if (optind == argc) {
		fprintf(stderr, PROG ": no result files given\n");
		usage();
	}
	for (int i = optind; i < argc; i++) {
		if (strcmp(argv[i], "-"))
			continue;
		if (stdin_used) {
			fprintf(stderr, PROG ": - (standard input) given twice\n");
			usage();
		}
		stdin_used = true;
	}

	if (diskbench_report_new(&rep)) {
		fprintf(stderr, PROG ": %s\n", diskbench_strerror(-ENOMEM));
		return 1;
	}
	for (int i = optind; i < argc; i++) {
		const char *name = strcmp(argv[i], "-") ? argv[i] : "standard input";
		struct stat st;
		int n;

		/* A device (/dev/zero) never ends: the reader would fill memory. */
		if (strcmp(argv[i], "-") && !stat(argv[i], &st) &&
		    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode))) {
			fprintf(stderr, PROG ": %s: not a file\n", name);
			diskbench_report_free(rep);
			return 1;
		}
		n = diskbench_report_read_file(rep, DISKBENCH_FORMAT_AUTO, argv[i]);

		if (n < 0) {
			if (n == -ENOTSUP && !*diskbench_report_errmsg(rep))
				fprintf(stderr, PROG ": %s: cannot read this format "
					"(JSON needs a library built with jansson)\n", name);
			else
				say(rep, argv[i], n);
			diskbench_report_free(rep);
			return 1;
		}
		/* A journal damaged in its middle: what came before the damage
		 * is read, and the library says where and what it kept. */
		if (*diskbench_report_errmsg(rep)) {
			say(rep, argv[i], n);
			damaged = true;
		}
		if (n == 0) {
			fprintf(stderr, PROG ": %s: no runs in this file\n", name);
			diskbench_report_free(rep);
			return 1;
		}
	}

	if (verdict_only) {
		status = write_verdict(rep);
	} else if (out && strcmp(out, "-")) {
		g_defer = through_temporary(out);
		status = write_path(rep, fmt, &wo, out);
		g_defer = 0;
		if (g_caught) {
			diskbench_report_free(rep);
			die_by(g_caught);
		}
	} else {
		status = write_stdout(rep, fmt, &wo);
	}
	diskbench_report_free(rep);
	/* Written, but without what a damaged journal lost: said above. */
	return status ? status : damaged ? 2 : 0;
}
