/* The HTML writer's shared pieces (format/html-common-internal.h):
 * escaping, numbers for people, run names and colours, and what the page
 * knows of its groups of phases. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/timeline.h>

#include "base/kind-internal.h"
#include "format/html-common-internal.h"
#include "format/label-internal.h"

#define NS_PER_S 1000000000.0
#define S_NS UINT64_C(1000000000)

static const char *const palette[DISKBENCH__HTML_COLOURS] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

const char *diskbench__html_colour(size_t ri)
{
	return palette[ri % DISKBENCH__HTML_COLOURS];
}

/* The length of the character at p if XML 1.0 allows it (well-formed
 * UTF-8 but for U+FFFE and U+FFFF, which XML's Char leaves out; the
 * control characters are diskbench__html_esc()'s), else 0. */
static size_t xml_char_len(const unsigned char *p)
{
	uint32_t c;
	size_t n = diskbench__utf8_len(p, &c);

	if (!n || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

/* Writes user text escaped for element content and quoted attributes. */
void diskbench__html_esc(struct diskbench__out *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *plain = p;

	while (*p) {
		const char *rep = NULL;
		size_t n = xml_char_len(p);

		switch (*p) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') ||
			    !n)
				rep = "&#xFFFD;";
		}
		if (!rep) {
			p += n;
			continue;
		}
		diskbench__out_write(o, plain, (size_t)(p - plain));
		diskbench__out_puts(o, rep);
		p += n ? n : 1;
		plain = p;
	}
	diskbench__out_write(o, plain, (size_t)(p - plain));
}

/* Seconds into a phase: "1.6 s". */
const char *diskbench__html_sec(char *buf, size_t size, uint64_t ns)
{
	char num[40];

	snprintf(buf, size, "%s s",
		 diskbench__fixed(num, sizeof(num), (double)ns / NS_PER_S,
				  ns < 100 * S_NS ? 1 : 0));
	return buf;
}

/* A duration exactly, in the largest unit it reaches: "3 s", "1.5 ms",
 * "1.234567 ms", "250 ns" (integer arithmetic, so nothing is rounded). */
const char *diskbench__html_dur(char *buf, size_t size, uint64_t ns)
{
	static const struct { uint64_t div; int digits; const char *unit; } u[] = {
		{ 1000000000, 9, "s" }, { 1000000, 6, "ms" }, { 1000, 3, "us" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (ns < u[i].div)
			continue;
		if (ns % u[i].div) {
			char frac[16];

			snprintf(frac, sizeof(frac), "%0*llu", u[i].digits,
				 (unsigned long long)(ns % u[i].div));
			for (char *e = frac + strlen(frac); e > frac && e[-1] == '0'; )
				*--e = 0;
			snprintf(buf, size, "%llu.%s %s",
				 (unsigned long long)(ns / u[i].div), frac, u[i].unit);
		} else {
			snprintf(buf, size, "%llu %s",
				 (unsigned long long)(ns / u[i].div), u[i].unit);
		}
		return buf;
	}
	snprintf(buf, size, "%llu ns", (unsigned long long)ns);
	return buf;
}

/* A percentile's label: "p99.9"; 100 is "max". */
const char *diskbench__html_pct(char *buf, size_t size, double p)
{
	char num[40];

	if (p >= 100)
		snprintf(buf, size, "max");
	else
		snprintf(buf, size, "p%s",
			 diskbench__html_trim0((char *)diskbench__fixed(num,
						sizeof(num), p, 6)));
	return buf;
}

const char *diskbench__html_run_name(const struct diskbench__html_page *pg,
				     size_t ri)
{
	const char *n = diskbench__run_label(pg->r, pg->labels, ri);

	return *n ? n : "(unnamed)";
}

static bool is_bonnie_kind(enum diskbench_phase_kind kind)
{
	const struct diskbench__kind *k = diskbench__kind(kind);

	return k && k->group != DISKBENCH__GROUP_NONE;
}

/* Whether a group's rates are bytes (MiB/s) or operations per second. The
 * bonnie++ kinds use bonnie++'s units; other kinds bytes when they move
 * any. */
bool diskbench__html_group_bytes(const struct diskbench__html_page *pg,
				 const struct diskbench__html_group *g)
{
	if (is_bonnie_kind(g->kind) || diskbench__kind_moves_bytes(g->kind))
		return diskbench__kind_moves_bytes(g->kind);
	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (g->res[ri] && diskbench_result_bytes(g->res[ri]))
			return true;
	return false;
}

/* Whether the result has a latency distribution to draw. */
bool diskbench__html_has_hist(const struct diskbench_result *res)
{
	return res && !diskbench_result_summary_only(res) &&
	       diskbench_hist_count(diskbench_result_hist(res)) > 0;
}

bool diskbench__html_has_timeline(const struct diskbench_result *res)
{
	return res && !diskbench_result_summary_only(res) &&
	       diskbench_timeline_count(diskbench_result_timeline(res)) > 0;
}

uint64_t diskbench__html_percentile(const struct diskbench_result *res,
				    double p)
{
	uint64_t v = 0;

	/* -ERANGE (rank among overflowed values) still gives an upper bound. */
	(void)diskbench_hist_percentile(diskbench_result_hist(res), p, &v);
	return v;
}

void diskbench__html_key(struct diskbench__html_page *pg, size_t ri)
{
	diskbench__out_printf(pg->o, "<span class=\"key k%zu\"></span>",
			      ri % DISKBENCH__HTML_COLOURS);
}
