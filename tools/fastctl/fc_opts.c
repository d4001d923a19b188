// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl: the options of the subcommands.
 *
 * A pure function of argv (no exit, no I/O), so that the unit tests and the
 * fuzzer (tests/fuzz_fastctl.c) can call it; fastctl.c turns its errors
 * into the usage exit status.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fc.h"

/* Free what was parsed so far and say why; a usage error (-1). */
static int __attribute__((format(printf, 4, 5)))
usage(struct fc_opts *o, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	free(o->pos);
	o->pos = NULL;
	o->npos = 0;
	return -1;
}

struct optdef {
	const char *s, *l;
	unsigned int bit;
	bool arg;
};

static const struct optdef optdefs[] = {
	{ "-a", "--all", FC_O_ALL, false },
	{ "-j", "--json", FC_O_JSON, false },
	{ NULL, "--cc", FC_O_CC, true },
	{ "-4", NULL, FC_O_FAM, false },
	{ "-6", NULL, FC_O_FAM, false },
	{ "-i", "--interval", FC_O_INTERVAL, true },
	{ NULL, "--csv", FC_O_CSV, true },
	{ "-c", "--count", FC_O_COUNT, true },
	{ "-d", "--duration", FC_O_DURATION, true },
	{ "-q", "--quiet", FC_O_QUIET, false },
	{ NULL, "--rate", FC_O_RATE, true },
	{ "-o", "--output", FC_O_OUTPUT, true },
	{ NULL, "--script", FC_O_SCRIPT, true },
};

int fc_opts_parse(const char *cmd, int argc, char **argv,
		  unsigned int allowed, struct fc_opts *o, char *err,
		  size_t errlen)
{
	int i;

	o->npos = 0;
	o->pos = calloc(argc + 1, sizeof(char *));
	if (!o->pos) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	for (i = 0; i < argc; i++) {
		char *a = argv[i], *val = NULL, *eq;
		const struct optdef *d = NULL;
		size_t k, namelen;

		if (a[0] != '-' || !a[1] || !strcmp(a, "-")) {
			o->pos[o->npos++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			while (++i < argc)
				o->pos[o->npos++] = argv[i];
			break;
		}
		eq = a[1] == '-' ? strchr(a, '=') : NULL;
		namelen = eq ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < sizeof(optdefs) / sizeof(optdefs[0]); k++) {
			const struct optdef *od = &optdefs[k];

			if ((od->s && !strcmp(a, od->s)) ||
			    (od->l && strlen(od->l) == namelen &&
			     !strncmp(a, od->l, namelen))) {
				d = od;
				break;
			}
		}
		if (!d)
			return usage(o, err, errlen,
				     "unknown option '%s' (fastctl --help)", a);
		if (!(allowed & d->bit))
			return usage(o, err, errlen,
				     "option '%.*s' does not apply to '%s'",
				     (int)namelen, a, cmd);
		if (d->arg) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return usage(o, err, errlen,
					     "option '%s' needs a value", a);
		} else if (eq) {
			return usage(o, err, errlen,
				     "option '%.*s' takes no value",
				     (int)namelen, a);
		}
		o->seen |= d->bit;

		switch (d->bit) {
		case FC_O_ALL:
			o->all = true;
			break;
		case FC_O_JSON:
			o->json = true;
			break;
		case FC_O_QUIET:
			o->quiet = true;
			break;
		case FC_O_CC:
			if (!*val || strlen(val) > FC_CA_NAME_MAX)
				return usage(o, err, errlen,
					     "bad congestion control name '%s'",
					     val);
			o->cc = val;
			break;
		case FC_O_FAM:
			o->family = !strcmp(a, "-4") ? AF_INET : AF_INET6;
			break;
		case FC_O_INTERVAL:
			if (fc_parse_uint(val, 3600000, &o->interval_ms))
				return usage(o, err, errlen,
					     "bad interval '%s' (milliseconds, 0-3600000)",
					     val);
			break;
		case FC_O_CSV:
			if (!*val)
				return usage(o, err, errlen,
					     "--csv needs a file name");
			o->csv = val;
			break;
		case FC_O_COUNT:
			if (fc_parse_uint(val, 100000000, &o->count) || !o->count)
				return usage(o, err, errlen,
					     "bad count '%s' (a positive integer)",
					     val);
			break;
		case FC_O_DURATION:
			if (fc_parse_seconds(val, &o->duration))
				return usage(o, err, errlen,
					     "bad duration '%s' (seconds > 0)",
					     val);
			break;
		case FC_O_RATE:
			if (fc_parse_rate(val, &o->rate))
				return usage(o, err, errlen,
					     "bad rate '%s' (e.g. 100mbit, 1gbit, 50000000)",
					     val);
			break;
		case FC_O_OUTPUT:
			if (!*val)
				return usage(o, err, errlen,
					     "--output needs a file name");
			o->output = val;
			break;
		case FC_O_SCRIPT:
			if (!*val)
				return usage(o, err, errlen,
					     "--script needs a file name");
			o->script = val;
			break;
		}
	}
	return 0;
}
