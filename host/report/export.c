// SPDX-License-Identifier: MIT
/* Tidy JSON and CSV rows from the results model. */
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "json.h"
#include "schema.h"
#include "util.h"

static const char *const columns[] = {
	"kernel", "fs", "workload", "variant", "metric", "value", "unit", "repeat",
	"partial", "status", "run", "label", "schema", "disk_bus", "arch", NULL,
};

void bm_csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' && (!s[0] || s[strlen(s) - 1] != ' ')) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void bm_export_begin(struct bm_export *e, FILE *f, enum bm_export_fmt fmt)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->f = f;
	e->fmt = fmt;
	if (fmt == BM_EXPORT_JSON) {
		fputc('[', f);
		return;
	}
	for (i = 0; columns[i]; i++)
		fprintf(f, "%s%s", i ? "," : "", columns[i]);
	fputc('\n', f);
}

static void row(struct bm_export *e, const char *const vals[])
{
	int i;

	if (e->fmt == BM_EXPORT_CSV) {
		for (i = 0; columns[i]; i++) {
			if (i)
				fputc(',', e->f);
			bm_csv_field(e->f, vals[i]);
		}
		fputc('\n', e->f);
	} else {
		fputs(e->rows ? ",\n  {" : "\n  {", e->f);
		for (i = 0; columns[i]; i++) {
			fprintf(e->f, "%s\"%s\": ", i ? ", " : "", columns[i]);
			/* value, repeat and partial are numbers; the rest strings */
			if (!strcmp(columns[i], "value") || !strcmp(columns[i], "repeat") ||
			    !strcmp(columns[i], "partial"))
				fputs(vals[i][0] ? vals[i] : "null", e->f);
			else
				bm_json_escape(e->f, vals[i]);
		}
		fputc('}', e->f);
	}
	e->rows++;
}

void bm_export_boot(struct bm_export *e, const char *label, const struct bm_results *r)
{
	const char *kernel = bm_hello_get(r, "kernel");
	/* the bus the guest found its disk on (HELLO), as the tests ran on it */
	const char *bus = bm_hello_get(r, "disk_bus");
	/* the guest's architecture, Debian's name, from its own uname (HELLO) */
	const char *mach = bm_hello_get(r, "machine");
	const char *arch = mach && mach[0] ? bm_arch_of_machine(mach) : "";
	char value[40], rep[16], partial[4];
	size_t i;
	unsigned m;

	for (i = 0; i < r->nres; i++) {
		const struct bm_rres *h = &r->res[i];

		snprintf(rep, sizeof(rep), "%d", h->rep);
		snprintf(partial, sizeof(partial), "%d", h->partial);
		for (m = 0; m < h->nm; m++) {
			const char *vals[] = {
				kernel ? kernel : "", h->fs, h->wl, h->test, h->m[m].name,
				value, h->m[m].unit, rep, partial, bm_status_name(r->status),
				r->run, label, BM_SCHEMA_EXPORT, bus ? bus : "", arch, NULL,
			};

			bm_fmt_double(value, sizeof(value), h->m[m].value);
			/* JSON has no inf/nan; CSV keeps the text */
			if (e->fmt == BM_EXPORT_JSON && !strpbrk(value, "0123456789"))
				value[0] = '\0';
			row(e, vals);
		}
	}
}

void bm_export_end(struct bm_export *e)
{
	if (e->fmt == BM_EXPORT_JSON)
		fputs(e->rows ? "\n]\n" : "]\n", e->f);
}
