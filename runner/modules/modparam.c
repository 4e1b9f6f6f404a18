// SPDX-License-Identifier: MIT
/*
 * Module options from the kernel command line (modload.h, modparam_*).
 *
 * For a module built in, the kernel itself takes "nvme.poll_queues=2" from
 * its command line; for a loadable one it does not: load_module() parses
 * only the string init_module(2) hands it.  On a distribution modprobe
 * reads /proc/cmdline and passes the module's words on (kmod,
 * libkmod/libkmod-config.c, kmod_config_parse_kcmdline), so the same
 * command line configures the same driver either way.  The runner loads
 * modules itself, so it does what modprobe does: every "module.param=value"
 * word (the module's name with '-' as '_') goes to that module's load as
 * "param=value", in command-line order.  Quotes stay as they are: the
 * kernel's parser of the string (next_arg) reads them as on the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "modload.h"

/* The words of the command line that are a module's: set once, before any
 * load (the boot thread waits for the command line), then only read. */
static struct modparams params;

/* The next word of s (kernel rules: blanks split, double quotes join) into
 * *w, *wlen; returns where the word ends, or NULL at the end. */
static const char *next_word(const char *s, const char **w, size_t *wlen)
{
	int quoted = 0;
	const char *p;

	s += strspn(s, " \t\n");
	if (!*s)
		return NULL;
	for (p = s; *p && (quoted || !strchr(" \t\n", *p)); p++)
		if (*p == '"')
			quoted = !quoted;
	*w = s;
	*wlen = (size_t)(p - s);
	return p;
}

/* The entry of module name (normalised), added when absent: NULL when full. */
static struct modparam *entry(struct modparams *mp, const char *name)
{
	unsigned i;

	for (i = 0; i < mp->n; i++)
		if (!strcmp(mp->p[i].module, name))
			return &mp->p[i];
	if (mp->n == MODPARAM_MODULES)
		return NULL;
	snprintf(mp->p[mp->n].module, sizeof(mp->p[0].module), "%s", name);
	mp->p[mp->n].args[0] = '\0';
	return &mp->p[mp->n++];
}

int modparam_parse(struct modparams *mp, const char *cmdline)
{
	const char *w, *dot, *eq;
	char name[MODPARAM_NAME];
	struct modparam *e;
	size_t wlen, n, used;
	int ret = 0;

	memset(mp, 0, sizeof(*mp));
	while (cmdline && (cmdline = next_word(cmdline, &w, &wlen))) {
		dot = memchr(w, '.', wlen);
		eq = memchr(w, '=', wlen);
		/* "module.param" or "module.param=value": a dot before any '=' */
		if (!dot || dot == w || (eq && eq < dot) || dot + 1 == w + wlen || dot + 1 == eq)
			continue;
		n = (size_t)(dot - w);
		if (n >= sizeof(name) || memchr(w, '"', n))
			continue;
		memcpy(name, w, n);
		name[n] = '\0';
		if (bm_mod_normalise(name, 0, name, sizeof(name)))
			continue;
		e = entry(mp, name);
		used = e ? strlen(e->args) : 0;
		if (!e || used + wlen - n + 1 > sizeof(e->args)) {
			ret = -E2BIG;   /* the others still apply; the caller says so */
			continue;
		}
		snprintf(e->args + used, sizeof(e->args) - used, "%s%.*s", used ? " " : "",
			 (int)(wlen - n - 1), dot + 1);
	}
	return ret;
}

const char *modparam_args(const struct modparams *mp, const char *module)
{
	char name[MODPARAM_NAME];
	unsigned i;

	if (bm_mod_normalise(module, 0, name, sizeof(name)))
		return "";
	for (i = 0; i < mp->n; i++)
		if (!strcmp(mp->p[i].module, name))
			return mp->p[i].args;
	return "";
}

int modparam_set_cmdline(const char *cmdline)
{
	return modparam_parse(&params, cmdline);
}

const char *modparam_for(const char *module)
{
	return modparam_args(&params, module);
}
