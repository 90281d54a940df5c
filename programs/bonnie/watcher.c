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

/* Watches standard output and error when they are pipes or sockets. */
void watcher_start(struct watcher *w)
{
	sigset_t all, old;
	int fds[2], quit[2];
	nfds_t n = 0;
	pid_t parent = getpid();

	memset(w, 0, sizeof(*w));
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat st;

		if (!fstat(fd, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
			fds[n++] = fd;
	}
	if (!n || pipe(quit))
		return;
	fcntl(quit[0], F_SETFD, FD_CLOEXEC);
	fcntl(quit[1], F_SETFD, FD_CLOEXEC);
	/* No signal reaches the child before it ignores them all. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	w->pid = fork();
	if (w->pid == 0) {
		long max = sysconf(_SC_OPEN_MAX);

		/* Ctrl-C and the like are the parent's to handle; the child
		 * ends when the parent closes its end of the pipe, or exits. */
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_IGN);
		if (max < 0 || max > 1024)
			max = 1024;
		for (int fd = 0; fd < max; fd++)
			if (fd != quit[0] && fd != STDOUT_FILENO &&
			    fd != STDERR_FILENO)
				close(fd);
		sigprocmask(SIG_SETMASK, &old, NULL);
		watch(quit[0], fds, n, parent);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(quit[0]);
	w->running = w->pid > 0;
	if (w->running)
		w->quit = quit[1];
	else
		close(quit[1]);
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
