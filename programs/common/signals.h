/*
 * Signals that stop a run, as diskbench-bonnie and diskbench-mpi handle
 * them: the handler stores the first signal that came, cancels the run
 * being executed (diskbench_run_cancel(), an atomic store) and, where the
 * program asked for it, writes a byte to a wake pipe so that a wait in
 * poll(2) ends too. The program then stops the way it chose and ends.
 * diskbench-report keeps its own handler and uses the table only.
 */
#ifndef DISKBENCH_PROGRAMS_SIGNALS_H
#define DISKBENCH_PROGRAMS_SIGNALS_H

#include <stddef.h>

struct diskbench_run;

/* The signals that end a program by default and can be caught, but for
 * those that report a fault of the program itself (SEGV, BUS, FPE, ILL,
 * ABRT, SYS, TRAP), whose handler could not run safely. SIGRTMIN to
 * SIGRTMAX, not in the table, end a program by default too. */
struct stop_signal {
	int sig;
	const char *name;
};
extern const struct stop_signal stop_signals[];
extern const size_t stop_signal_count;

/* stop_signals_catch() flags. */
/* On SIGXCPU and SIGXFSZ, bonnie++'s line on standard error. */
#define STOP_SAY_LIMITS  0x1u
/* A wake pipe: stop_wake_fd() becomes readable on each signal. */
#define STOP_WAKE        0x2u
/* SIGHUP, when ignored at the start (nohup), stays ignored. */
#define STOP_KEEP_NOHUP  0x4u
/* The signals caught are unblocked, should whoever started the program
 * have blocked them (one pending since then comes at once). */
#define STOP_UNBLOCK     0x8u

/*
 * Catches @p sigs (@p n of them) or, with @p sigs NULL, every signal of
 * stop_signals[] and SIGRTMIN to SIGRTMAX. The handler blocks every other
 * signal while it runs and is not reset (a second Ctrl-C must not end the
 * program before the files are removed); no SA_RESTART, so that a wait
 * ends. A signal that cannot be caught: "Can't handle SIGxxx." on standard
 * output, exit 1.
 */
void stop_signals_catch(const int *sigs, size_t n, unsigned flags);

/* The first signal that came, or 0. */
int stop_signal(void);

/* The run a signal cancels from now on, or NULL for none; a run set after
 * a signal came is cancelled at once. */
void stop_signals_set_run(struct diskbench_run *run);

/* The wake pipe's reading end (non-blocking), or -1 without STOP_WAKE. */
int stop_wake_fd(void);

/* "SIGQUIT", "SIGRTMIN+3", "signal 99": in @p buf (16 bytes are enough)
 * unless the table has it. */
const char *stop_signal_name(int sig, char *buf, size_t size);

/* The default action back for every signal stop_signals_catch() caught,
 * then a signal that came already is raised again. */
void stop_signals_default(void);

#endif
