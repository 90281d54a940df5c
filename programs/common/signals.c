/*
 * Signals that stop a run (signals.h): the table of the signals that end a
 * program, their names, the handler that stops the run, and catching them.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "signals.h"

#if ATOMIC_INT_LOCK_FREE != 2 || ATOMIC_POINTER_LOCK_FREE != 2
# error "the signal handler needs lock-free atomics"
#endif

const struct stop_signal stop_signals[] = {
	{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
	{ SIGTERM, "SIGTERM" }, { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
	{ SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" }, { SIGXFSZ, "SIGXFSZ" },
	{ SIGXCPU, "SIGXCPU" }, { SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
#ifdef SIGIO
	{ SIGIO, "SIGIO" },
#endif
#if defined(SIGPOLL) && (!defined(SIGIO) || SIGPOLL != SIGIO)
	{ SIGPOLL, "SIGPOLL" },
#endif
#ifdef SIGPWR
	{ SIGPWR, "SIGPWR" },
#endif
#ifdef SIGSTKFLT
	{ SIGSTKFLT, "SIGSTKFLT" },
#endif
#if defined(SIGLOST) && (!defined(SIGPWR) || SIGLOST != SIGPWR)
	{ SIGLOST, "SIGLOST" },
#endif
#ifdef SIGEMT
	{ SIGEMT, "SIGEMT" },
#endif
};
const size_t stop_signal_count = sizeof(stop_signals) / sizeof(stop_signals[0]);

static atomic_int g_signal;
static _Atomic(struct diskbench_run *) g_run;
static int g_wake[2] = { -1, -1 };
static unsigned g_flags;      /* set before the handler is */

static void on_signal(int sig)
{
	int saved = errno;
	int none = 0;
	struct diskbench_run *run;

	/* bonnie++'s messages for these two. */
	if ((g_flags & STOP_SAY_LIMITS) && sig == SIGXCPU)
		(void)!write(STDERR_FILENO, "Exceeded CPU usage.\n", 20);
	else if ((g_flags & STOP_SAY_LIMITS) && sig == SIGXFSZ)
		(void)!write(STDERR_FILENO, "exceeded file storage limits.\n", 30);
	atomic_compare_exchange_strong(&g_signal, &none, sig);
	run = atomic_load(&g_run);
	if (run)
		diskbench_run_cancel(run);
	if (g_wake[1] >= 0)
		(void)!write(g_wake[1], "", 1);
	errno = saved;
}

int stop_signal(void)
{
	return atomic_load(&g_signal);
}

void stop_signals_set_run(struct diskbench_run *run)
{
	atomic_store(&g_run, run);
	if (run && atomic_load(&g_signal))   /* a signal before g_run was set */
		diskbench_run_cancel(run);
}

int stop_wake_fd(void)
{
	return g_wake[0];
}

const char *stop_signal_name(int sig, char *buf, size_t size)
{
	for (size_t i = 0; i < stop_signal_count; i++)
		if (stop_signals[i].sig == sig)
			return stop_signals[i].name;
#ifdef SIGRTMIN
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		snprintf(buf, size, "SIGRTMIN+%d", sig - SIGRTMIN);
		return buf;
	}
#endif
	snprintf(buf, size, "signal %d", sig);
	return buf;
}

/* Catches one; false if it was left alone (nohup's SIGHUP). */
static bool catch_one(int sig, const struct sigaction *sa, unsigned flags)
{
	struct sigaction old;
	char buf[16];

	if ((flags & STOP_KEEP_NOHUP) && sig == SIGHUP &&
	    sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return false;
	if (sigaction(sig, sa, NULL)) {
		printf("Can't handle %s.\n", stop_signal_name(sig, buf, sizeof(buf)));
		exit(1);
	}
	return true;
}

void stop_signals_catch(const int *sigs, size_t n, unsigned flags)
{
	struct sigaction sa;
	sigset_t unblock;

	g_flags = flags;
	/* The wake pipe: never blocks the handler, never inherited. */
	if ((flags & STOP_WAKE) && pipe(g_wake) == 0) {
		for (int i = 0; i < 2; i++) {
			fcntl(g_wake[i], F_SETFL, O_NONBLOCK);
			fcntl(g_wake[i], F_SETFD, FD_CLOEXEC);
		}
	} else {
		g_wake[0] = g_wake[1] = -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigemptyset(&unblock);
	if (sigs) {
		for (size_t i = 0; i < n; i++)
			if (catch_one(sigs[i], &sa, flags))
				sigaddset(&unblock, sigs[i]);
	} else {
		for (size_t i = 0; i < stop_signal_count; i++)
			if (catch_one(stop_signals[i].sig, &sa, flags))
				sigaddset(&unblock, stop_signals[i].sig);
#ifdef SIGRTMIN
		for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
			if (catch_one(sig, &sa, flags))
				sigaddset(&unblock, sig);
#endif
	}
	if (flags & STOP_UNBLOCK)
		sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

void stop_signals_default(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < stop_signal_count; i++)
		if (sigaction(stop_signals[i].sig, NULL, &old) == 0 &&
		    old.sa_handler == on_signal)
			sigaction(stop_signals[i].sig, &sa, NULL);
#ifdef SIGRTMIN
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
#endif
	if (atomic_load(&g_signal))   /* one that came already */
		raise(atomic_load(&g_signal));
}
