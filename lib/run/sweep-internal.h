#ifndef DISKBENCH_SWEEP_INTERNAL_H
#define DISKBENCH_SWEEP_INTERNAL_H

/* The steps of diskbench_run_sweep()'s removal of an entry at which
 * diskbench__sweep_step is called. */
enum diskbench__sweep_at {
	/* Every check of the entry is done; it is about to be taken away. */
	DISKBENCH__SWEEP_CHECKED,
	/* It was moved to the private name `priv`, not yet checked there. */
	DISKBENCH__SWEEP_TAKEN,
};

/*
 * Tests only (tests/unit): when set, called at each step above with the
 * entry's directory, its name and our private name (NULL before it is
 * taken), so that a test can put a stranger's entry at a name in the
 * window a racing process would use. NULL in every program.
 */
extern void (*diskbench__sweep_step)(enum diskbench__sweep_at at, int dfd,
				     const char *name, const char *priv);

#endif
