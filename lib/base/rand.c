#include "base/rand-internal.h"
#include <stddef.h>

void diskbench__rand_seed(struct diskbench__rand *g, uint32_t seed)
{
	/* As glibc's srandom_r(): a Lehmer generator fills the table
	 * (Schrage's method, no overflow), then 310 outputs are dropped. */
	int32_t word = (int32_t)(seed ? seed : 1);

	g->fn = NULL;
	g->user_data = NULL;
	g->st[0] = word;
	for (int i = 1; i < 31; i++) {
		int32_t hi = word / 127773, lo = word % 127773;

		word = 16807 * lo - 2836 * hi;
		if (word < 0)
			word += 2147483647;
		g->st[i] = word;
	}
	g->f = 3;
	g->r = 0;
	for (int i = 0; i < 310; i++)
		(void)diskbench__rand_next(g);
}
