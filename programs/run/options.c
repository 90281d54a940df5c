/*
 * The command line of diskbench-run (run.h): its options, --help,
 * --version, and --options (the job table, one option a line).
 */
#include <diskbench.h>

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/escape.h"
#include "run.h"

enum {
	OPT_JSON = 256, OPT_CSV, OPT_HTML, OPT_TEXT, OPT_HDR, OPT_JOURNAL,
	OPT_NO_JOURNAL, OPT_AGAIN, OPT_DRY_RUN, OPT_OPTIONS, OPT_HELP,
	OPT_VERSION, OPT_PROGRESS, OPT_NO_PROGRESS,
};

const char *format_option(enum diskbench_format f)
{
	switch (f) {
	case DISKBENCH_FORMAT_JSON: return "--json";
	case DISKBENCH_FORMAT_BONNIE_CSV: return "--csv";
	case DISKBENCH_FORMAT_HTML: return "--html";
	case DISKBENCH_FORMAT_BONNIE_TEXT: return "--text";
	case DISKBENCH_FORMAT_HDR_LOG: return "--hdr";
	case DISKBENCH_FORMAT_JOURNAL: return "--journal";
	default: return "output";
	}
}

static void usage(FILE *f)
{
	fputs("usage: " PROG " [options] JOB...\n"
	      "       " PROG " [options] --again RESULT[:N]\n"
	      "       " PROG " --options | --help | --version\n"
	      "\n"
	      "Runs each job file (INI: a [job] section and a section per phase)\n"
	      "one after another into one report.\n"
	      "\n"
	      "  -d, --dir DIR          the directory benchmarked (over the job's dir)\n"
	      "  -s, --set SECTION.KEY=VALUE\n"
	      "                         set one option of every job (job.size=16m)\n"
	      "      --json FILE        write the results as JSON\n"
	      "      --csv FILE         write bonnie++ CSV\n"
	      "      --html FILE        write the HTML report\n"
	      "      --text FILE        write bonnie++'s text table\n"
	      "      --hdr FILE         write HdrHistogram logs\n"
	      "                         (each over the jobs' own output of its format)\n"
	      "      --journal FILE     the results journal (default: beside the first\n"
	      "                         output, else JOB.journal here)\n"
	      "      --no-journal       no results journal\n"
	      "      --again RESULT[:N] run again the job of run N (from 1) of a JSON,\n"
	      "                         journal or bonnie++ CSV result, and say what\n"
	      "                         differs between the two machines\n"
	      "      --dry-run          print each job's plan; run nothing\n"
	      "  -m, --name NAME        the set-up's name in the reports\n"
	      "  -q, --quiet            no live progress line\n"
	      "      --progress         the live line even when stderr is no terminal\n"
	      "      --no-progress      no live line\n"
	      "      --options          the job file's options, one a line (tab-separated:\n"
	      "                         key, sections, type, values, help)\n"
	      "  -h, --help             this help\n"
	      "      --version          the version\n"
	      "\n"
	      "Exit status: 0 ok, 1 a phase (or an output) failed, 2 a bad command line\n"
	      "or job (nothing ran), 128+N stopped by signal N (130: SIGINT).\n", f);
}

_Noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	escape_vprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help'.\n", stderr);
	exit(EXIT_USAGE);
}

/* The job table: key, sections, type, values, help, tab-separated. */
static int print_options(void)
{
	size_t n = diskbench_job_option_count();

	for (size_t i = 0; i < n; i++) {
		struct diskbench_job_option opt = DISKBENCH_JOB_OPTION_INIT;

		if (diskbench_job_option_get(i, &opt))
			return EXIT_FAILED;
		printf("%s\t%s\t%s\t%s\t%s\n", opt.key, opt.sections, opt.type,
		       opt.values, opt.help);
	}
	return fflush(stdout) ? EXIT_FAILED : 0;
}

/* The command line as one string, for the report's run metadata. */
static char *join(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	/* A report holds no control character (its reader refuses them). */
	for (char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return s;
}

void options_parse(struct options *o, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "set", required_argument, NULL, 's' },
		{ "name", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "text", required_argument, NULL, OPT_TEXT },
		{ "hdr", required_argument, NULL, OPT_HDR },
		{ "journal", required_argument, NULL, OPT_JOURNAL },
		{ "no-journal", no_argument, NULL, OPT_NO_JOURNAL },
		{ "again", required_argument, NULL, OPT_AGAIN },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "options", no_argument, NULL, OPT_OPTIONS },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:s:m:qh", longs, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dir = optarg;
			break;
		case 's': {
			const char **v = realloc(o->sets, (o->nsets + 1) * sizeof(*v));

			if (!v) {
				fputs(PROG ": out of memory\n", stderr);
				exit(EXIT_USAGE);
			}
			o->sets = v;
			o->sets[o->nsets++] = optarg;
			break;
		}
		case 'm':
			o->name = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_JSON: case OPT_CSV: case OPT_HTML: case OPT_TEXT:
		case OPT_HDR:
			o->out[c - OPT_JSON] = optarg;
			break;
		case OPT_JOURNAL:
			o->journal = optarg;
			break;
		case OPT_NO_JOURNAL:
			o->no_journal = true;
			break;
		case OPT_AGAIN:
			o->again = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_PROGRESS:
			o->progress = PROGRESS_ON;
			break;
		case OPT_NO_PROGRESS:
			o->progress = PROGRESS_OFF;
			break;
		case OPT_OPTIONS:
			exit(print_options());
		case 'h':
		case OPT_HELP:
			usage(stdout);
			exit(fflush(stdout) ? EXIT_FAILED : 0);
		case OPT_VERSION:
			printf(PROG " %s\n", diskbench_version_string());
			exit(fflush(stdout) ? EXIT_FAILED : 0);
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		default:
			if (optopt)
				usage_error("unknown option -%c", optopt);
			usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	o->jobs = argv + optind;
	o->njobs = (size_t)(argc - optind);
	if (o->journal && o->no_journal)
		usage_error("--journal and --no-journal: one or the other");
	if (o->again && o->njobs)
		usage_error("--again runs the job of a result: no JOB with it");
	if (!o->again && !o->njobs)
		usage_error("no job file");
	if (o->name && !*o->name)
		usage_error("-m: an empty name");
	for (const char *ch = o->name; ch && *ch; ch++)
		if ((unsigned char)*ch < 0x20 || *ch == 0x7f)
			usage_error("-m %s: a control character (a report holds none)",
				    o->name);
	o->command = join(argc, argv);
}

void options_free(struct options *o)
{
	free(o->sets);
	free(o->command);
}
