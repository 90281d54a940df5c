/*
 * Writes the fixed three-run report of report-fixture.h to standard output
 * in a format: csv, text, json or html. The consumer tests feed it to
 * bon_csv2txt and bon_csv2html; golden files are made with it.
 * Usage: report-dump csv|text|json|html, report-dump result N (result N in
 * the binary encoding) or report-dump journal (the runs as a results
 * journal, to a regular file on standard output): seeds for the fuzzers.
 */
#include "common-test.h"
#include "report-fixture.h"

/* Result want of r, counted across runs, in the binary encoding
 * (exchange.h) on standard output; frees r. The exit status: 0, 1 on an
 * error, 3 when r has no such result. */
static int encode_nth(struct diskbench_report *r, size_t want)
{
	size_t n = 0;

	for (size_t i = 0; i < diskbench_report_run_count(r); i++) {
		for (size_t k = 0; k < diskbench_report_result_count(r, i); k++, n++) {
			void *buf;
			size_t len;
			int err;

			if (n != want)
				continue;
			err = diskbench_result_encode(diskbench_report_result(r, i, k),
						      &buf, &len);
			if (!err && fwrite(buf, 1, len, stdout) != len)
				err = -EIO;
			if (!err)
				diskbench_free(buf);
			diskbench_report_free(r);
			return err ? 1 : 0;
		}
	}
	diskbench_report_free(r);
	return 3;   /* no such result */
}

int main(int argc, char **argv)
{
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	struct diskbench_report *r;
	enum diskbench_format f;
	int err;

	if (argc == 3 && strcmp(argv[1], "result") == 0) {
		/* Result N of the fixed report's runs, counted across runs, in
		 * the binary encoding (exchange.h): a seed for fuzz-result. */
		return encode_nth(fx_report(), (size_t)strtoul(argv[2], NULL, 10));
	}
	if (argc == 4 && strcmp(argv[1], "encode") == 0) {
		/* Result N of a result file (any format the readers take),
		 * counted across runs, in the binary encoding: a seed for
		 * fuzz-result from a document (tests/fuzz/seeds). */
		if (diskbench_report_new(&r))
			return 1;
		if (diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO, argv[2]) < 0) {
			fprintf(stderr, "report-dump: %s\n", diskbench_report_errmsg(r));
			diskbench_report_free(r);
			return 1;
		}
		return encode_nth(r, (size_t)strtoul(argv[3], NULL, 10));
	}
	if (argc == 2 && strcmp(argv[1], "journal") == 0) {
		struct diskbench_journal *j;

		r = fx_report();
		err = diskbench_journal_new(&j, 1);
		for (size_t i = 0; !err && i < diskbench_report_run_count(r); i++) {
			struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;

			err = diskbench_report_run_get(r, i, &info);
			if (!err)
				err = diskbench_journal_begin(j, &info, NULL);
			for (size_t k = 0; !err && k < diskbench_report_result_count(r, i); k++)
				err = diskbench_journal_add(j, diskbench_report_result(r, i, k));
			if (!err)
				err = diskbench_journal_end(j, &info, NULL);
		}
		if (err)
			fprintf(stderr, "report-dump: %s\n", diskbench_error_last());
		diskbench_journal_free(j);
		diskbench_report_free(r);
		return err ? 1 : 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: report-dump csv|text|json|html, report-dump result N, "
				"report-dump encode FILE N, or report-dump journal\n");
		return 2;
	}
	if (strcmp(argv[1], "csv") == 0) {
		f = DISKBENCH_FORMAT_BONNIE_CSV;
		wo.flags = DISKBENCH_WRITE_CSV_HEADER;
	} else if (strcmp(argv[1], "text") == 0) {
		f = DISKBENCH_FORMAT_BONNIE_TEXT;
	} else if (strcmp(argv[1], "json") == 0) {
		f = DISKBENCH_FORMAT_JSON;
	} else if (strcmp(argv[1], "html") == 0) {
		f = DISKBENCH_FORMAT_HTML;
	} else {
		fprintf(stderr, "report-dump: unknown format %s\n", argv[1]);
		return 2;
	}
	r = fx_report();
	err = diskbench_report_write_file(r, f, &wo, "-");
	if (err)
		fprintf(stderr, "report-dump: %s\n", diskbench_report_errmsg(r));
	diskbench_report_free(r);
	return err ? 1 : 0;
}
