/* This machine's facts, for the metadata of runs (lib/base/sysinfo.c). */
#ifndef DISKBENCH_SYSINFO_INTERNAL_H
#define DISKBENCH_SYSINFO_INTERNAL_H

#include <stdint.h>

/* Each returns a malloc'd string or NULL when it cannot tell. */
char *diskbench__sys_hostname(void);
char *diskbench__sys_kernel(void);
char *diskbench__sys_fs_type(const char *dir);

/* The machine: its CPU's model ("" when it cannot tell), its CPUs
 * online and its memory; read once a process. */
struct diskbench__machine {
	char cpu[128];
	uint32_t cpus;
	uint64_t memory_bytes;
};
const struct diskbench__machine *diskbench__sys_machine(void);

/* The real-time clock: ns since 1970-01-01 UTC. */
uint64_t diskbench__sys_realtime_ns(void);

#endif
