/* What the JSON writer (lib/format/json.c) and the JSON reader
 * (lib/format/json-read.c, built with jansson) share; never
 * installed. */
#ifndef DISKBENCH_SERIALIZE_JSON_INTERNAL_H
#define DISKBENCH_SERIALIZE_JSON_INTERNAL_H

/* The names of enum diskbench_files_mode's values, in order ("files_mode"
 * of a run's info). */
extern const char *const diskbench__json_files_modes[3];

/* The names of the device roles DISKBENCH_DEVICE_*, in order ("role" of a
 * device of a phase's "devices"). */
extern const char *const diskbench__json_device_roles[4];

#endif
