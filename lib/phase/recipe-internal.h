/*
 * The options of a phase as a job writes them (lib/phase/recipe.c): the
 * rows of the job table that belong to phases, the text of their values,
 * and a phase's recipe: its section on one line, from the options it was
 * made with. The run's rows are in run/run-recipe.c; the job layer
 * (lib/job/) reads both as one table.
 */
#ifndef DISKBENCH_RECIPE_INTERNAL_H
#define DISKBENCH_RECIPE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/phase.h>

/* Where an option may be set: the [job] section, or phases of a kind. */
#define JK_JOB     (1u << 0)
#define JK_SEQ_R   (1u << 1)	/* seq_read */
#define JK_SEQ_W   (1u << 2)	/* seq_write */
#define JK_RANDOM  (1u << 3)	/* random_io */
#define JK_BIG     (1u << 4)	/* putc put_block rewrite getc get_block */
#define JK_SEEKS   (1u << 5)	/* seeks */
#define JK_FILES   (1u << 6)	/* seq_create ... ran_del */
#define JK_SUITE   (1u << 7)	/* bonnie: the whole bonnie++ suite */
#define JK_SEQ     (JK_SEQ_R | JK_SEQ_W)
#define JK_STREAM  (JK_SEQ | JK_RANDOM)
#define JK_BONNIE  (JK_BIG | JK_SEEKS)
#define JK_PHASE   (JK_STREAM | JK_BONNIE | JK_FILES)

/* A job's phase kinds: the library's, and these. */
#define JOB_KIND_SUITE 100u
#define JOB_KIND_NONE  101u

enum job_type {
	JT_SIZE,	/* bytes, k m g t */
	JT_TIME,	/* ns, with a unit */
	JT_COUNT,	/* a whole number */
	JT_RATE,	/* a real number a second */
	JT_PERCENT,	/* 0 to 100, whole */
	JT_REAL,	/* a real number */
	JT_BOOL,	/* a bool field */
	JT_FLAG,	/* a bit of a flags field */
	JT_WORD,	/* one of a list */
	JT_MIX,		/* a block mix: SIZE:WEIGHT,... */
	JT_TEXT,	/* a string (char *) */
	JT_KIND,	/* the phase kind */
};

struct job_word {
	const char *word;
	uint32_t value;
};

/* Which struct a row's offset is in. */
#define RP_PHASE 0u	/* struct diskbench__phase_opts */
#define RP_SEC   1u	/* struct diskbench__run_sec (run/run-recipe.c) */
#define RP_GLOB  2u	/* struct diskbench__job_glob (run/run-recipe.c) */

/* Limits the rows share */
#define JOB_U32 4294967295.0
#define JOB_U64 18446744073709551615.0
#define JOB_MAXNS ((double)DISKBENCH_STEADY_MAX_NS)

/* Row flags */
#define JR_ZERO_OK 0x01u	/* 0 is a value of its own, not the default */
#define JR_RECIPE  0x02u	/* a [job] option written in `job_run` */

struct job_row {
	const char *key;
	uint32_t kinds;
	uint8_t type;
	uint8_t width;		/* bytes of the field: 1 (bool), 4 or 8 */
	uint8_t flags;
	uint8_t part;		/* RP_* */
	size_t off;
	uint64_t bit;		/* JT_FLAG */
	double min, max;	/* limits; max 0: none */
	const struct job_word *words;
	const char *values;	/* what it takes, for the docs */
	const char *help;
};

/* What a phase section sets of a phase: every option struct a phase can
 * have, as the C API takes them. */
struct diskbench__phase_opts {
	uint32_t kind;		/* enum diskbench_phase_kind or JOB_KIND_* */
	struct diskbench_seq_opts seq;
	struct diskbench_random_opts rnd;
	struct diskbench_files_opts files;
	struct diskbench_bonnie_opts bon;
	struct diskbench_pace_opts pace;
	struct diskbench_shape_opts shape;
	uint64_t ramp_ns;
	uint32_t steady;	/* 0 none, 1 iops, 2 bandwidth */
	struct diskbench_steady_opts st;
	struct diskbench_sync_opts sync;
	struct diskbench_data_opts data;
	struct diskbench_block_size mix[DISKBENCH_BLOCK_MIX_MAX];
	uint32_t mix_n;
};

extern const struct job_row diskbench__phase_rows[];
extern const size_t diskbench__phase_nrows;

/* Every option struct at its _init() values. */
void diskbench__phase_opts_init(struct diskbench__phase_opts *o);

/* The JK_ bit of a kind (JOB_KIND_SUITE included); 0 for custom. */
uint32_t diskbench__job_kind_bit(uint32_t kind);
/* The kind of a `kind` word; JOB_KIND_NONE if none. */
uint32_t diskbench__job_kind_of(const char *word);
const char *diskbench__job_kind_word(uint32_t kind);

/*
 * Parses @p value for @p row into the field at @p base + row->off (a
 * JT_MIX: base is a struct diskbench__phase_opts). On failure writes why
 * into @p why (the value first: "100000 is over 4096") and returns
 * -EINVAL; -ENOMEM.
 */
int diskbench__job_value_parse(const struct job_row *row, void *base,
			       const char *value, char *why, size_t wlen);

/* Whether the field holds a value of its own (not the default). */
bool diskbench__job_value_set(const struct job_row *row, const void *base);

/* The field's value in its shortest exact text; NULL when it holds the
 * default (zero; never for JR_ZERO_OK rows) or on ENOMEM. malloc'd. */
char *diskbench__job_value_text(const struct job_row *row, const void *base);

/* Appends key=value to a one-line recipe (the value quoted where it has
 * a space, a quote, a backslash or '='). 0 or -ENOMEM. */
int diskbench__recipe_add(char **line, const char *key, const char *value);

/* Appends key=value for each of the n rows of kind bit kbit (and with
 * all of need_flags) whose field in base is set. 0 or -ENOMEM. */
int diskbench__recipe_rows(char **line, const struct job_row *rows, size_t n,
			   const void *base, uint32_t kbit, uint32_t need_flags);

/*
 * The next key=value word of a recipe line, into k and v: 1 for a word,
 * 0 at the end, -EINVAL for text that is not one.
 */
int diskbench__recipe_next(const char **pp, char *k, size_t kl, char *v,
			   size_t vl);

struct diskbench_phase;

/* The phase's options as it was made ("kind=seq_write block=8k ...");
 * NULL for a custom phase (or one made by a suite: its recipe is the
 * suite's) and on ENOMEM. */
char *diskbench__phase_recipe(const struct diskbench_phase *p);

#endif
