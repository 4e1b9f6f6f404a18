// SPDX-License-Identifier: MIT
/* dd's table is the seed-004 one (common/report_generic.c), which is also
 * the table of any workload without a formatter of its own. */
#include "report.h"
#include "wl_dd.h"

const struct bm_report_ops report_dd_ops = {
	.wl = "dd",
	.print = bm_report_generic,
};
