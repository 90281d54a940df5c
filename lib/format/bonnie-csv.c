/* bonnie++'s CSV line, written (format 1.98), and its header line. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/phase.h>
#include <diskbench/target.h>

#include "base/kind-internal.h"
#include "format/format-internal.h"
#include "format/bonnie-internal.h"

/* bonnie++'s header line: 48 names, without the two seek fields. */
static const char header_line[] =
	"format_version,bonnie_version,name,concurrency,seed,file_size,"
	"io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,"
	"rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,"
	"num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,"
	"seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,"
	"ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,"
	"putc_latency,put_block_latency,rewrite_latency,getc_latency,"
	"get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,"
	"seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency\n";

/* The rate and CPU cells of a CSV line. */
static void csv_pair(struct diskbench__out *o, const struct diskbench_result *res)
{
	double rate;
	char num[32];

	if (!diskbench__bonnie_measured(res)) {
		diskbench__out_puts(o, ",,");
		return;
	}
	if (diskbench_result_too_fast(res)) {
		diskbench__out_puts(o, ",+++++,+++");
		return;
	}
	if (diskbench__kind_moves_bytes(diskbench_result_kind(res))) {
		rate = diskbench_result_bytes_per_sec(res) / 1024.0;
		diskbench__out_printf(o, ",%llu", diskbench__bonnie_whole(rate));
	} else if (diskbench__bonnie_is_seeks(diskbench_result_kind(res))) {
		rate = diskbench_result_ops_per_sec(res);
		diskbench__out_printf(o, ",%s",
				      diskbench__fixed(num, sizeof(num), rate,
						       rate >= 1000 ? 0 : 1));
	} else {
		diskbench__out_printf(o, ",%llu",
				      diskbench__bonnie_whole(diskbench_result_ops_per_sec(res)));
	}
	diskbench__out_printf(o, ",%llu", diskbench__bonnie_whole(diskbench_result_cpu_percent(res)));
}

static void csv_latency(struct diskbench__out *o, const struct diskbench_result *res)
{
	char lat[32] = "";

	if (diskbench__bonnie_measured(res))
		diskbench__latency_str(lat, sizeof(lat),
				       diskbench_result_max_latency_ns(res));
	diskbench__out_printf(o, ",%s", lat);
}

static int csv_check(struct diskbench_report *r, size_t run, const char *what,
		     const char *s)
{
	char shown[DISKBENCH__ESCAPED_SIZE(60)];

	if (s && strpbrk(s, ",\r\n")) {
		diskbench__report_seterr(r,
			"run %zu: its %s \"%s\" holds a comma or a line break, which bonnie++ CSV cannot carry",
			run + 1, what, diskbench__escape(shown, s, strlen(s), 60));
		return -EINVAL;
	}
	return 0;
}

int diskbench__write_bonnie_csv(struct diskbench_report *r,
				const struct diskbench__wopts *w,
				struct diskbench__out *o)
{
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench_report_info *in = &r->runs.v[i].info;
		int err = csv_check(r, i, "name", in->name);

		if (!err)
			err = csv_check(r, i, "version", in->version);
		if (!err)
			err = csv_check(r, i, "seed", in->seed_text);
		if (err)
			return err;
	}
	if (w->flags & DISKBENCH_WRITE_CSV_HEADER)
		diskbench__out_puts(o, header_line);
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];
		const struct diskbench_report_info *in = &run->info;
		char buf[64];

		diskbench__out_printf(o, "1.98,%s,%s,%u,",
				      in->version ? in->version : "",
				      in->name ? in->name : "",
				      in->concurrency ? in->concurrency : 1);
		if (in->seed_text)
			diskbench__out_puts(o, in->seed_text);
		else if (in->flags & DISKBENCH_INFO_HAS_SEED)
			diskbench__out_printf(o, "%u", in->seed);
		if (in->file_bytes) {
			diskbench__size_str(buf, sizeof(buf), in->file_bytes);
			/* Field 6, the chunk size, stays empty as in 2.00a. */
			diskbench__out_printf(o, ",%s,,%u,%u", buf,
					      in->seeks ? in->seeks :
					      DISKBENCH_BONNIE_DEFAULT_SEEKS,
					      in->seekers ? in->seekers :
					      DISKBENCH_BONNIE_DEFAULT_SEEKERS);
		} else {
			diskbench__out_puts(o, ",,,,");
		}
		for (int k = 0; k < 6; k++)
			csv_pair(o, diskbench__bonnie_find(run, k));
		if (in->files) {
			diskbench__bonnie_files_str(buf, sizeof(buf), in->files);
			diskbench__out_printf(o, ",%s", buf);
			if (in->files_mode == DISKBENCH_FILES_HARDLINK)
				diskbench__out_puts(o, ",link,");
			else if (in->files_mode == DISKBENCH_FILES_SYMLINK)
				diskbench__out_puts(o, ",symlink,");
			else if (in->max_bytes && in->min_bytes)
				diskbench__out_printf(o, ",%" PRIu64 ",%" PRIu64,
						      in->max_bytes, in->min_bytes);
			else if (in->max_bytes)
				diskbench__out_printf(o, ",%" PRIu64 ",", in->max_bytes);
			else
				diskbench__out_puts(o, ",,");
			/* Field 24 empty, the directories in 25, as 2.00a. */
			if (in->dirs > 1)
				diskbench__out_printf(o, ",,%u", in->dirs);
			else
				diskbench__out_puts(o, ",,");
		} else {
			diskbench__out_puts(o, ",,,,,");
		}
		for (int k = 0; k < 6; k++)
			csv_pair(o, diskbench__bonnie_find(run, 6 + k));
		for (int k = 0; k < 6; k++)
			csv_latency(o, diskbench__bonnie_find(run, k));
		for (int k = 0; k < 6; k++)
			csv_latency(o, diskbench__bonnie_find(run, 6 + k));
		diskbench__out_puts(o, "\n");
	}
	return 0;
}
