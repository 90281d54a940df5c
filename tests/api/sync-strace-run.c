/*
 * tests/api/sync-strace-run.c: one sequential write on the sync engine
 * with a sync method, for check-sync-strace.py to watch under strace:
 *
 *   sync-strace-run DIR METHOD EVERY WRITES [apart]
 *
 * METHOD is a number (enum diskbench_sync_method); each write is 8 KiB.
 * Prints the result's sync_* configuration keys, one "key=value" a line,
 * and exits 0, or 1 with the library's message.
 */
#include <diskbench.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_sync_opts sy = DISKBENCH_SYNC_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_phase *p = NULL;
	struct diskbench_run *run = NULL;
	const struct diskbench_result *r;
	uint64_t writes;
	int status = 1;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: sync-strace-run DIR METHOD EVERY WRITES [apart]\n");
		return 2;
	}
	sy.method = (uint32_t)strtoul(argv[2], NULL, 10);
	sy.every = strtoull(argv[3], NULL, 10);
	writes = strtoull(argv[4], NULL, 10);
	if (argc == 6 && !strcmp(argv[5], "apart"))
		sy.flags = DISKBENCH_SYNC_APART;
	to.file_bytes = writes * 8192;
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 8192;
	if (diskbench_target_new(&t, argv[1], &to, NULL) < 0 ||
	    diskbench_phase_seq_new(&p, &so) < 0 ||
	    diskbench_phase_set_sync(p, &sy) < 0 ||
	    diskbench_run_new(&run, t, NULL) < 0 ||
	    diskbench_run_add(run, p) < 0)
		goto fail;
	p = NULL;
	if (diskbench_run_execute(run) < 0)
		goto fail;
	r = diskbench_run_result_get(run, 0);
	for (size_t i = 0; i < diskbench_result_config_count(r); i++) {
		const char *k = NULL, *v = NULL;

		if (diskbench_result_config_get(r, i, &k, &v) == 0 &&
		    !strncmp(k, "sync_", 5))
			printf("%s=%s\n", k, v);
	}
	printf("ops=%llu\n", (unsigned long long)diskbench_result_ops(r));
	status = 0;
	goto out;
fail:
	fprintf(stderr, "sync-strace-run: %s\n", diskbench_error_last());
out:
	diskbench_phase_free(p);
	diskbench_run_free(run);
	diskbench_target_free(t);
	return status;
}
