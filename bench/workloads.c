/*
 * bench-workloads: what a phase costs in a group against alone, per
 * operation and in memory (docs/performance.md, "Workloads").
 *
 * Each measurement runs in a child process of its own, so that its peak
 * memory (VmHWM) is its own; the modes alternate round by round:
 *   base   a run with no phase: the process, the library, the target
 *   alone  one random-read phase of 4 KiB requests on the null engine
 *   group  two such phases in a group (DISKBENCH_GROUP_ALL), each on a
 *          thread of its own
 *
 * Per mode it prints the median over the rounds of the phase's time per
 * request (its elapsed time over its requests: on the null engine, the
 * library's own cost per request) and of the peak memory above base, then
 * the ratios: a grouped phase's cost per request over a lone one's (1.0:
 * a group costs nothing per operation), and the group's memory over the
 * sum of its phases' (1.0: a group's memory is the sum of its phases').
 *
 * The comparison checks itself before it prints a ratio: every phase did
 * all its requests, and the group's two phases ran at the same time (each
 * started before the other ended, their spans overlapping by at least
 * half the shorter). A round that fails a check stops the benchmark.
 *
 * Usage: bench-workloads DIR [ROUNDS [OPS]]   (default 7 rounds, 2000000
 * requests a phase). With 2 cores or more the group's phases run side by
 * side; on one core they take turns, and the per-request figure holds.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum mode { BASE, ALONE, GROUP, NMODES };

static const char *const mode_name[NMODES] = { "base", "alone", "group" };

struct sample {
	double ns_per_op;     /* the first phase's */
	double hwm_kib;       /* peak resident memory */
	int ok;               /* the checks held */
	char why[160];
};

static double vm_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	double kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kib = strtod(line + 6, NULL);
	fclose(f);
	return kib;
}

static int make_phase(struct diskbench_phase **p, uint64_t ops)
{
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;

	ro.block_bytes = 4096;
	ro.ops = ops;
	return diskbench_phase_random_new(p, &ro);
}

/* One measurement, in the child: fills s. */
static void measure(enum mode m, const char *dir, uint64_t ops, struct sample *s)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_group_opts go = DISKBENCH_GROUP_OPTS_INIT;
	struct diskbench_engine *engine = NULL;
	struct diskbench_target *target = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *ph[2] = { NULL, NULL };
	char *why = NULL;
	int err;

	memset(s, 0, sizeof(*s));
	err = diskbench_engine_null_new(&engine);
	to.engine = engine;
	to.file_bytes = UINT64_C(1) << 30;
	to.block_bytes = 4096;
	if (!err)
		err = diskbench_target_new(&target, dir, &to, &why);
	if (!err)
		err = diskbench_run_new(&run, target, NULL);
	if (!err && m != BASE)
		err = make_phase(&ph[0], ops);
	if (!err && m == GROUP)
		err = make_phase(&ph[1], ops);
	if (!err && m == ALONE)
		err = diskbench_run_add(run, ph[0]);
	if (!err && m == GROUP) {
		go.flags = DISKBENCH_GROUP_ALL;
		err = diskbench_run_add_group(run, ph, 2, "pair", &go);
	}
	if (!err)
		err = diskbench_run_execute(run);
	if (err) {
		snprintf(s->why, sizeof(s->why), "%s: %s", mode_name[m],
			 why ? why : run ? diskbench_run_errmsg(run)
					 : diskbench_strerror(err));
		goto out;
	}
	s->hwm_kib = vm_hwm_kib();
	s->ok = 1;
	if (m == BASE)
		goto out;
	for (size_t i = 0; i < (m == GROUP ? 2u : 1u); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);

		if (!r || diskbench_result_ops(r) != ops) {
			s->ok = 0;
			snprintf(s->why, sizeof(s->why), "%s: phase %zu did %" PRIu64
				 " requests, not %" PRIu64, mode_name[m], i,
				 r ? diskbench_result_ops(r) : 0, ops);
			goto out;
		}
	}
	const struct diskbench_result *a = diskbench_run_result_get(run, 0);

	s->ns_per_op = (double)diskbench_result_elapsed_ns(a) / (double)ops;
	if (m == GROUP) {
		const struct diskbench_result *b = diskbench_run_result_get(run, 1);
		uint64_t a0 = diskbench_result_start_ns(a);
		uint64_t a1 = a0 + diskbench_result_elapsed_ns(a);
		uint64_t b0 = diskbench_result_start_ns(b);
		uint64_t b1 = b0 + diskbench_result_elapsed_ns(b);
		uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
		uint64_t shorter = a1 - a0 < b1 - b0 ? a1 - a0 : b1 - b0;

		if (hi <= lo || 2 * (hi - lo) < shorter) {
			s->ok = 0;
			snprintf(s->why, sizeof(s->why), "group: the phases did not "
				 "run together (overlap %" PRIu64 " ns of %" PRIu64 ")",
				 hi > lo ? hi - lo : 0, shorter);
		}
	}
out:
	free(why);
	diskbench_phase_free(ph[0]);
	diskbench_phase_free(ph[1]);
	diskbench_run_free(run);
	diskbench_target_free(target);
	diskbench_engine_free(engine);
}

static int run_child(enum mode m, const char *dir, uint64_t ops, struct sample *s)
{
	int fd[2], status;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct sample mine;

		close(fd[0]);
		measure(m, dir, ops, &mine);
		_exit(write(fd[1], &mine, sizeof(mine)) == (ssize_t)sizeof(mine) ? 0 : 1);
	}
	close(fd[1]);
	ssize_t n = read(fd[0], s, sizeof(*s));

	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || n != (ssize_t)sizeof(*s) ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_ROUNDS 64

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	uint64_t ops = argc > 3 ? strtoull(argv[3], NULL, 10) : 2000000;
	double ns[NMODES][MAX_ROUNDS], hwm[NMODES][MAX_ROUNDS];

	if (argc < 2 || argc > 4 || rounds < 1 || rounds > MAX_ROUNDS || !ops) {
		fprintf(stderr, "usage: bench-workloads DIR [ROUNDS (1-64) [OPS]]\n");
		return 2;
	}
	printf("libdiskbench %s bench-workloads: %d rounds, %" PRIu64
	       " requests of 4 KiB a phase, null engine\n",
	       diskbench_version_string(), rounds, ops);
	for (int r = 0; r < rounds; r++)
		for (int m = 0; m < NMODES; m++) {
			struct sample s;

			if (run_child((enum mode)m, argv[1], ops, &s) || !s.ok) {
				fprintf(stderr, "bench-workloads: round %d, %s: %s\n",
					r + 1, mode_name[m],
					s.why[0] ? s.why : "the child failed");
				return 1;
			}
			ns[m][r] = s.ns_per_op;
			hwm[m][r] = s.hwm_kib;
		}
	double base = median(hwm[BASE], rounds);
	double alone_ns = median(ns[ALONE], rounds), group_ns = median(ns[GROUP], rounds);
	double alone_kib = median(hwm[ALONE], rounds) - base;
	double group_kib = median(hwm[GROUP], rounds) - base;

	printf("%-8s %12s %16s\n", "mode", "ns/request", "peak KiB > base");
	printf("%-8s %12s %16.0f (VmHWM of the base itself)\n", "base", "-", base);
	printf("%-8s %12.2f %16.0f\n", "alone", alone_ns, alone_kib);
	printf("%-8s %12.2f %16.0f\n", "group", group_ns, group_kib);
	printf("ratio per request, grouped / alone: %.3f\n", group_ns / alone_ns);
	printf("ratio memory, group / (2 x alone):  %.3f\n",
	       alone_kib > 0 ? group_kib / (2 * alone_kib) : 0.0);
	return 0;
}
