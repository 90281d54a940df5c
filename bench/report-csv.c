/*
 * bench-report-csv: the time and peak memory of diskbench-report reading a
 * large bonnie++ CSV and writing it as text.
 *
 *   bench-report-csv PATH-TO-diskbench-report [LINES [ROUNDS [FORMAT]]]
 *
 * Writes a CSV of LINES runs (default 100000; one bonnie++ 2.00a line, each
 * named apart) to a temporary file, then runs `diskbench-report --FORMAT
 * FILE > /dev/null` (FORMAT: text, the default, csv, json or html) ROUNDS
 * times (default 3), each forked from this small process so that wait4()'s
 * ru_maxrss is the program's own peak (Linux counts the parent's memory at
 * exec too; a Python parent would add its own). Prints one line per round
 * and the medians:
 *
 *   lines 100000  seconds 0.52  peak 92632 KiB
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

/* Everything of a real bonnie++ line but its name. */
static const char tail[] =
	",1,1111,64M,,8192,5,1536,98,16384,40,21845,35,1536,99,+++++,+++,"
	"1638,3,1,,,,,1024,90,+++++,+++,1365,60,341,88,+++++,+++,512,30,"
	"8000us,200us,366us,4000us,15us,610us,976us,50us,732us,2000us,"
	"40us,1953us\n";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long lines = argc > 2 ? atol(argv[2]) : 100000;
	int rounds = argc > 3 ? atoi(argv[3]) : 3;
	const char *format = argc > 4 ? argv[4] : "text";
	char path[] = "/tmp/bench-report-csv-XXXXXX", opt[32];
	double *secs;
	long *peak;
	FILE *f;
	int fd;

	if (argc < 2 || argc > 5 || lines < 1 || rounds < 1) {
		fprintf(stderr, "usage: bench-report-csv PATH-TO-diskbench-report "
				"[LINES [ROUNDS [text|csv|json|html]]]\n");
		return 2;
	}
	snprintf(opt, sizeof(opt), "--%s", format);
	secs = calloc((size_t)rounds, sizeof(*secs));
	peak = calloc((size_t)rounds, sizeof(*peak));
	fd = mkstemp(path);
	if (!secs || !peak || fd < 0 || !(f = fdopen(fd, "w"))) {
		perror("bench-report-csv");
		return 1;
	}
	for (long i = 0; i < lines; i++)
		fprintf(f, "1.98,2.00a,run%ld%s", i, tail);
	if (fclose(f)) {
		perror(path);
		unlink(path);
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		struct rusage ru;
		double t0 = now();
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			unlink(path);
			return 1;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
				_exit(127);
			execl(argv[1], argv[1], opt, path, (char *)NULL);
			perror(argv[1]);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "bench-report-csv: %s failed\n", argv[1]);
			unlink(path);
			return 1;
		}
		secs[r] = now() - t0;
		peak[r] = ru.ru_maxrss;
		printf("round %d: lines %ld  seconds %.2f  peak %ld KiB\n", r + 1,
		       lines, secs[r], peak[r]);
	}
	unlink(path);
	qsort(secs, (size_t)rounds, sizeof(*secs), cmp_double);
	qsort(peak, (size_t)rounds, sizeof(*peak), cmp_long);
	printf("lines %ld  seconds %.2f  peak %ld KiB  (%s, median of %d)\n",
	       lines, secs[rounds / 2], peak[rounds / 2], format, rounds);
	free(secs);
	free(peak);
	return 0;
}
