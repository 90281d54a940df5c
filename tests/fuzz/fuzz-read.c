/*
 * libFuzzer target for the report readers: FUZZ_FORMAT picks bonnie++ CSV
 * or JSON. Whatever reads must also write in every format, and JSON must
 * read back, so the writers see every shape a reader accepts.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <diskbench.h>

#ifndef FUZZ_FORMAT
# error "FUZZ_FORMAT must be set"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sink {
	size_t len;
	char *json;
	size_t cap;
	int keep;
};

static int sink_write(const void *buf, size_t len, void *user_data)
{
	struct sink *s = user_data;

	s->len += len;
	if (s->keep) {
		if (s->len + 1 > s->cap) {
			s->cap = (s->len + 1) * 2;
			s->json = realloc(s->json, s->cap);
			if (!s->json)
				abort();
		}
		for (size_t i = 0; i < len; i++)
			s->json[s->len - len + i] = ((const char *)buf)[i];
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum diskbench_format out[] = {
		DISKBENCH_FORMAT_BONNIE_TEXT, DISKBENCH_FORMAT_HTML,
		DISKBENCH_FORMAT_BONNIE_CSV,
	};
	struct diskbench_report *r, *again;
	struct sink s = { 0 };
	int n;

	if (diskbench_report_new(&r))
		abort();
	n = diskbench_report_read(r, FUZZ_FORMAT, data, size, "fuzz");
	if (n < 0 && diskbench_report_errmsg(r)[0] == 0)
		abort(); /* every failure names its cause */
	if (n >= 0) {
		for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
			int err = diskbench_report_write(r, out[i], NULL,
							 sink_write, &s);

			/* CSV may refuse a name with a comma read from JSON. */
			if (err && !(err == -EINVAL &&
				     out[i] == DISKBENCH_FORMAT_BONNIE_CSV))
				abort();
		}
		s.keep = 1;
		s.len = 0;
		if (diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL,
					   sink_write, &s))
			abort();
		/* What was read, written as JSON, reads back. */
		if (diskbench_report_new(&again))
			abort();
		int m = diskbench_report_read(again, DISKBENCH_FORMAT_JSON,
					      s.json, s.len, "again");

		if (m != n && m != -ENOTSUP)
			abort();
		diskbench_report_free(again);
		free(s.json);
	}
	diskbench_report_free(r);
	return 0;
}
