/*
 * bench-datagen: what the written-data generator (diskbench_phase_set_data())
 * costs. A sequential write on the null engine (no device: the phase's rate
 * is what the library and the generator can give) once per pattern, each
 * line:
 *
 *   pattern=P ops=N mib_per_sec=X gen_mib_per_sec=X fill_share=X
 *
 * gen_mib_per_sec: the bytes over the time spent filling (data_fill_ns);
 * fill_share: that time over the phase's. Compare gen_mib_per_sec with the
 * fastest byte row of bench/compare (docs/performance.md): a device faster
 * than it would wait on the generator, and the result says how long
 * (data_fill_ns).
 *
 * Usage: bench-datagen DIR [TOTAL_MIB [BLOCK]]   (defaults 1024, 1048576)
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, int err, const char *detail)
{
	fprintf(stderr, "bench-datagen: %s: %s%s%s\n", what,
		diskbench_strerror(err), detail && *detail ? ": " : "",
		detail ? detail : "");
	exit(1);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		uint32_t pattern, pct, dedupe;
	} pats[] = {
		{ "default", DISKBENCH_DATA_DEFAULT, 0, 0 },
		{ "zeros", DISKBENCH_DATA_ZEROS, 0, 0 },
		{ "random", DISKBENCH_DATA_RANDOM, 0, 0 },
		{ "random_c50", DISKBENCH_DATA_RANDOM, 50, 0 },
		{ "random_d30", DISKBENCH_DATA_RANDOM, 0, 30 },
	};
	uint64_t total, block;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-datagen DIR [TOTAL_MIB [BLOCK]]\n");
		return 2;
	}
	total = (argc > 2 ? strtoull(argv[2], NULL, 10) : 1024) << 20;
	block = argc > 3 ? strtoull(argv[3], NULL, 10) : 1 << 20;
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_data_opts d = DISKBENCH_DATA_OPTS_INIT;
		struct diskbench_engine *engine = NULL;
		struct diskbench_target *target;
		struct diskbench_phase *phase;
		struct diskbench_run *run;
		const struct diskbench_result *res;
		const char *v;
		uint64_t fill_ns;
		char *why = NULL;
		int err;

		err = diskbench_engine_null_new(&engine);
		if (err)
			die("engine", err, NULL);
		to.engine = engine;
		to.file_bytes = total;
		to.block_bytes = (uint32_t)block;
		err = diskbench_target_new(&target, argv[1], &to, &why);
		if (err)
			die("target", err, why);
		so.flags = DISKBENCH_SEQ_WRITE;
		so.block_bytes = block;
		so.total_bytes = total;
		d.pattern = pats[i].pattern;
		d.compress_percent = pats[i].pct;
		d.dedupe_percent = pats[i].dedupe;
		if ((err = diskbench_run_new(&run, target, NULL)) ||
		    (err = diskbench_phase_seq_new(&phase, &so)) ||
		    (err = diskbench_phase_set_data(phase, &d)) ||
		    (err = diskbench_run_add(run, phase)))
			die("run", err, diskbench_error_last());
		err = diskbench_run_execute(run);
		if (err)
			die("execute", err, diskbench_run_errmsg(run));
		res = diskbench_run_result_get(run, 0);
		v = diskbench_result_config(res, "data_fill_ns");
		fill_ns = v ? strtoull(v, NULL, 10) : 0;
		printf("pattern=%s ops=%" PRIu64 " mib_per_sec=%.1f", pats[i].name,
		       diskbench_result_ops(res),
		       diskbench_result_bytes_per_sec(res) / 1048576.0);
		if (fill_ns)
			printf(" gen_mib_per_sec=%.1f fill_share=%.3f",
			       diskbench_result_bytes(res) / 1048576.0 /
				       (fill_ns / 1e9),
			       (double)fill_ns / diskbench_result_elapsed_ns(res));
		printf("\n");
		diskbench_run_free(run);
		diskbench_target_free(target);
		diskbench_engine_free(engine);
	}
	return 0;
}
