/*
 * -u and -g: the user and group diskbench-bonnie runs as, set as bonnie++
 * sets them; root must give -u.
 */
#ifndef DISKBENCH_BONNIE_USER_H
#define DISKBENCH_BONNIE_USER_H

struct options;

/* Becomes -u's user and -g's group, or ends the program (exit 1). */
void become_user(const struct options *o);

#endif
