/*
 * libFuzzer target for the job reader (job.h): any bytes as a job file.
 * What parses must write its text, and that text must parse into a job
 * whose text is the same; what fails must say why in one line naming the
 * file. A job that parses is also set once more (as a command line's
 * override would), and its table read.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(const char *msg)
{
	if (!msg || !*msg || strchr(msg, '\n') || strncmp(msg, "f.ini", 5))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diskbench_job *job = NULL, *again = NULL;
	char *err = NULL, *text = NULL, *text2 = NULL;
	int rc;

	rc = diskbench_job_parse(&job, (const char *)data, size, "f.ini", &err);
	if (rc) {
		if (rc != -ENOMEM)
			one_line(err);
		free(err);
		return 0;
	}
	if (diskbench_job_text(job, &text) < 0)
		abort();
	if (diskbench_job_parse(&again, text, strlen(text), "f.ini", &err)) {
		/* a job's own text must read back */
		abort();
	}
	if (diskbench_job_text(again, &text2) < 0 || strcmp(text, text2))
		abort();
	/* an override that may or may not fit; the job stays whole */
	if (diskbench_job_phase_count(job)) {
		const char *p = diskbench_job_phase_get(job, 0);

		rc = diskbench_job_set(job, p, "queue_depth", "2", &err);
		if (rc && rc != -ENOMEM)
			one_line(err);
		free(err);
		err = NULL;
	}
	free(text);
	free(text2);
	diskbench_job_free(again);
	diskbench_job_free(job);
	return 0;
}
