// SPDX-License-Identifier: MIT
/*
 * A metric's better direction is its workload's own (issue 46): two
 * workloads that give one name different directions each keep theirs, and
 * every metric of the registry resolves to what its own description says.
 */
#include <string.h>

#include "tap.h"
#include "wldesc.h"

static const struct bm_wl_metric a_metrics[] = {
	{ "lat", "us", BM_BETTER_LOWER }, { NULL, NULL, BM_BETTER_NONE },
};
static const struct bm_wl_metric b_metrics[] = {
	{ "lat", "ops/s", BM_BETTER_HIGHER }, { NULL, NULL, BM_BETTER_NONE },
};
static const struct bm_wl_desc a_desc = { .name = "a", .metrics = a_metrics };
static const struct bm_wl_desc b_desc = { .name = "b", .metrics = b_metrics };
static const struct bm_wl_desc *const two[] = { &a_desc, &b_desc, NULL };

static int dir(const char *wl, const char *metric)
{
	const struct bm_wl_metric *m = bm_wl_metric_lookup(two, wl, metric);

	return m ? (int)m->better : -1;
}

static void test_shared_name(void)
{
	TAP_EQ_INT(dir("a", "lat"), BM_BETTER_LOWER, "a's lat is a's: lower is better");
	TAP_EQ_INT(dir("b", "lat"), BM_BETTER_HIGHER, "b's lat is b's: higher is better");
	TAP_EQ_INT(dir("c", "lat"), -1, "an unknown workload takes no one's lat");
	TAP_EQ_INT(dir(NULL, "lat"), -1, "nor does a record without a workload");
	TAP_EQ_INT(dir("b", "real"), BM_BETTER_LOWER, "the window's real is every workload's");
	TAP_EQ_INT(dir("a", "nosuch"), -1, "a name nobody lists has no direction");
}

static void test_registry(void)
{
	int n = 0, bad = 0;

	for (const struct bm_wl_desc *const *d = bm_wl_descs; *d; d++)
		for (const struct bm_wl_metric *m = (*d)->metrics; m && m->name; m++, n++)
			if (bm_wl_metric_better((*d)->name, m->name) != m->better) {
				bad++;
				tap_diag("%s.%s: not its own direction", (*d)->name, m->name);
			}
	tap_ok(n > 20 && !bad, "every registry metric (%d) has its own workload's direction", n);
	TAP_EQ_INT(bm_wl_metric_better("dd", "real"), BM_BETTER_LOWER, "dd's real: the window's");
}

int main(void)
{
	tap_plan(0);
	test_shared_name();
	test_registry();
	return tap_done();
}
