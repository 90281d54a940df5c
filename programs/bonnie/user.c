/*
 * -u and -g (user.h): the user and group diskbench-bonnie runs as.
 */
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "options.h"
#include "user.h"

/* bonnie++'s bon_setugid(), with two fixes: -g alone does not setuid(0),
 * and root drops its supplementary groups too. */
static void set_ugid(const struct options *o)
{
	uid_t uid = 0;
	gid_t gid = 0;
	bool set_user = false, set_group = false;
	int64_t id;

	if (o->user) {
		struct passwd *pw;

		if (parse_num(o->user, NULL, NULL, 0, INT_MAX, &id)) {
			uid = (uid_t)id;
			set_user = true;
			pw = getpwuid(uid);
			if (pw) {
				gid = pw->pw_gid;
				set_group = true;
			} else {
				struct group *gr = getgrnam("nogroup");

				if (gr) {
					gid = gr->gr_gid;
					set_group = true;
				}
			}
		} else {
			pw = getpwnam(o->user);
			if (!pw)
				die("Can't find user %s", o->user);
			uid = pw->pw_uid;
			gid = pw->pw_gid;
			set_user = set_group = true;
		}
	}
	if (o->group) {
		if (parse_num(o->group, NULL, NULL, 0, INT_MAX, &id)) {
			gid = (gid_t)id;
		} else {
			struct group *gr = getgrnam(o->group);

			if (!gr)
				die("Can't find group %s", o->group);
			gid = gr->gr_gid;
		}
		set_group = true;
	}
	if (set_group) {
		if (geteuid() == 0 && setgroups(1, &gid))
			die("Can't set gid to %d.", (int)gid);
		if (setgid(gid))
			die("Can't set gid to %d.", (int)gid);
	}
	if (set_user && setuid(uid))
		die("Can't set uid to %d.", (int)uid);
	if (!o->quiet)
		fprintf(stderr, "Using uid:%d, gid:%d.\n", (int)getuid(), (int)getgid());
}

void become_user(const struct options *o)
{
	if (o->user || o->group)
		set_ugid(o);
	else if (geteuid() == 0) {
		fprintf(stderr, "You must use the \"-u\" switch when running as root.\n");
		usage();
	}
}
