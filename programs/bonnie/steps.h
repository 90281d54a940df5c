/*
 * bonnie++'s twelve tests as diskbench-bonnie shows them: which of them a
 * run has, and what it does as each starts and ends (the run's events).
 */
#ifndef DISKBENCH_BONNIE_STEPS_H
#define DISKBENCH_BONNIE_STEPS_H

#include <diskbench.h>

struct cli;
struct options;

/* The callbacks' state for a run of o, before any test. */
void cli_init(struct cli *cli, const struct options *o);

struct diskbench_run;

/* The tests of the run, in its order (the library's suite): 0, or -EINVAL
 * for a phase that is none of bonnie++'s twelve. */
int steps_choose(struct cli *cli, const struct diskbench_run *run);

/* diskbench_run_opts.event, user_data the struct cli. */
int on_event(const struct diskbench_run_event *ev, void *user_data);

#endif
