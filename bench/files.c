/*
 * bench-files: bonnie++'s six small-file phases through the public API, for
 * side-by-side runs against bonnie++ -n (bench/vs-bonnie). Prints one line
 * per phase: "<name> <files per second> <cpu percent> <max latency ns>".
 *
 * Usage: bench-files NUM DIR [MAX [MIN [DIRS]]]
 *   NUM files in units of 1024, as bonnie++ -n; MAX, MIN sizes in bytes;
 *   DIRS subdirectories
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	static const enum diskbench_phase_kind kinds[] = {
		DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
		DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
		DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
	};
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *target;
	struct diskbench_run *run;
	char *why = NULL;
	int err;

	if (argc < 3 || argc > 6) {
		fprintf(stderr, "usage: bench-files NUM DIR [MAX [MIN [DIRS]]]\n");
		return 1;
	}
	fo.files = strtoull(argv[1], NULL, 10) * 1024;
	fo.max_bytes = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
	fo.min_bytes = argc > 4 ? strtoull(argv[4], NULL, 10) : 0;
	fo.dirs = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 10) : 0;
	to.file_bytes = 1 << 20; /* no big file is written */
	err = diskbench_target_new(&target, argv[2], &to, &why);
	if (err) {
		fprintf(stderr, "bench-files: %s\n", why ? why : diskbench_strerror(err));
		return 1;
	}
	err = diskbench_run_new(&run, target, NULL);
	for (size_t i = 0; !err && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct diskbench_phase *p;

		err = diskbench_phase_files_new(&p, kinds[i], &fo);
		if (!err)
			err = diskbench_run_add(run, p);
	}
	if (!err)
		err = diskbench_run_execute(run);
	if (err) {
		fprintf(stderr, "bench-files: %s: %s\n", diskbench_strerror(err),
			diskbench_run_errmsg(run));
		return 1;
	}
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);

		printf("%s %.0f %.0f %" PRIu64 "\n", diskbench_result_name(r),
		       diskbench_result_ops_per_sec(r),
		       diskbench_result_cpu_percent(r),
		       diskbench_hist_max(diskbench_result_hist(r)));
	}
	diskbench_run_free(run);
	diskbench_target_free(target);
	return 0;
}
