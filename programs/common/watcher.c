/*
 * The reader of standard output and error (watcher.h): a `| head` that has
 * what it wanted goes away while nothing is being written, and the
 * watcher's SIGPIPE then stops the run: no run measures on for nobody.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "watcher.h"

/* Whether the reader of fd, a pipe or a socket, is gone: then a write
 * gives SIGPIPE or EPIPE. */
bool reader_gone(int fd)
{
	struct pollfd p = { fd, 0, 0 };
	struct stat st;

	if (fstat(fd, &st) || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return false;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

static _Noreturn void watch(int quit, const int *fds, nfds_t n, pid_t parent)
{
	struct pollfd p[3];

	p[0] = (struct pollfd){ quit, POLLIN, 0 };
	for (nfds_t i = 0; i < n; i++)
		p[i + 1] = (struct pollfd){ fds[i], 0, 0 };
	for (;;) {
		if (poll(p, n + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(0);
		}
		if (p[0].revents || getppid() != parent)
			_exit(0);
		for (nfds_t i = 1; i <= n; i++)
			if (p[i].revents & (POLLERR | POLLHUP)) {
				kill(parent, SIGPIPE);
				_exit(0);
			}
	}
}

pid_t helper_fork(int *quit, bool job_control)
{
	sigset_t all, old;
	int q[2];
	pid_t pid;

	if (pipe(q))
		return -1;
	fcntl(q[0], F_SETFD, FD_CLOEXEC);
	fcntl(q[1], F_SETFD, FD_CLOEXEC);
	/* No signal reaches the child before it ignores them. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		long max = sysconf(_SC_OPEN_MAX);

		/* Ctrl-C and the like are the parent's to handle; the child
		 * ends when the parent closes its end of the pipe, or exits. */
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP &&
			    !(job_control && (sig == SIGTSTP || sig == SIGTTIN ||
					      sig == SIGTTOU || sig == SIGCONT)))
				signal(sig, SIG_IGN);
		if (max < 0 || max > 1024)
			max = 1024;
		for (int fd = 0; fd < max; fd++)
			if (fd != q[0] && fd != STDOUT_FILENO && fd != STDERR_FILENO)
				close(fd);
		/* Nothing of the scratch directory held: it can go. */
		(void)!chdir("/");
		sigprocmask(SIG_SETMASK, &old, NULL);
		*quit = q[0];
		return 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(q[0]);
	if (pid < 0)
		close(q[1]);
	else
		*quit = q[1];
	return pid;
}

/* Watches standard output and error when they are pipes or sockets. */
void watcher_start(struct watcher *w)
{
	int fds[2], quit;
	nfds_t n = 0;
	pid_t parent = getpid();

	memset(w, 0, sizeof(*w));
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat st;

		if (!fstat(fd, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
			fds[n++] = fd;
	}
	if (!n)
		return;
	w->pid = helper_fork(&quit, false);
	if (w->pid == 0)
		watch(quit, fds, n, parent);
	w->running = w->pid > 0;
	if (w->running)
		w->quit = quit;
}

void watcher_stop(struct watcher *w)
{
	if (!w->running)
		return;
	close(w->quit);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	w->running = false;
}
