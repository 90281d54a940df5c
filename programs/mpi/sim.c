/*
 * The simulated device of diskbench-mpi-sim (sim.h): rank r's latencies
 * as the tests compute them, a stall where --sim-stall puts it, a device
 * that fills where --sim-full says, a read whose untimed fsync before it
 * takes --sim-prep longer, and rank r's clock --sim-skew-ns x r ahead;
 * its device figures are the simulated device's own.
 */
#include <diskbench.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "options.h"
#include "rank.h"
#include "sim.h"

/* Per phase, the i-th read (write) takes 50 us + 7 us x rank + (i^2 mod
 * 97) us, the i-th fsync 1 ms; the stall asked for is added to one. The
 * test computes the same figures. */
static uint64_t sim_latency(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	struct rank *rk = ud;
	int k = kind == SIM_READ ? 0 : kind == SIM_WRITE ? 1 : 2;
	uint64_t i = rk->sim_nth[k]++;
	uint64_t lat;

	(void)nth, (void)bytes;
	if (k == 2)
		return 1000000 + (rk->o->prep_rank == g_rank &&
				  !strcmp(rk->sim_phase, "seq_read") ? rk->o->prep_ns : 0);
	lat = 50000 + 7000 * (uint64_t)g_rank + (i * i % 97) * 1000;
	if (rk->o->stall_rank == g_rank &&
	    !strcmp(rk->sim_phase, rk->o->stall_phase) && i == rk->o->stall_nth &&
	    ((k == 0) != !strcmp(rk->sim_phase, "seq_write")))
		lat += rk->o->stall_ns;
	return lat;
}

int sim_setup(struct rank *rk)
{
	struct sim_config sc = { 0 };

	sc.name = "sim";
	sc.latency = sim_latency;
	sc.latency_user_data = rk;
	sc.no_data = true;
	sc.meta_ns = 20000;
	sc.open_ns = sc.close_ns = sc.unlink_ns = 10000;
	/* Its own device figures: a stalled request is one the device held,
	 * so a stall's verdict is known exactly (below the block layer). */
	sc.device = true;
	if (rk->o->full_rank == g_rank)
		sc.capacity = rk->o->full_bytes;
	rk->sim = sim_new(&sc);
	if (!rk->sim) {
		set_err(rk, "out of memory");
		return -ENOMEM;
	}
	sim_advance(rk->sim, (uint64_t)g_rank * rk->o->skew_ns);
	rk->engine = sim_engine(rk->sim);
	return 0;
}
