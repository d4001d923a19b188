// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl: addresses and ss-like filters.
 *
 *	FILTER := COND [COND ...]		(all must hold)
 *	COND   := dst ADDR[/PLEN] | src ADDR[/PLEN]
 *		| dport [OP] [:]PORT | sport [OP] [:]PORT
 *	OP     := = | == | eq
 *	ADDR   := IPv4 | IPv6 | [IPv6]
 *
 * An IPv4-mapped IPv6 socket address (::ffff:a.b.c.d) matches the IPv4
 * address a.b.c.d, as ss does.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "fc.h"

static const uint8_t v4mapped_prefix[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

/* An IPv4-mapped IPv6 address becomes the IPv4 address. */
static void addr_canon(const struct fc_addr *in, struct fc_addr *out)
{
	*out = *in;
	if (in->family == AF_INET6 &&
	    !memcmp(in->a, v4mapped_prefix, sizeof(v4mapped_prefix))) {
		memset(out, 0, sizeof(*out));
		out->family = AF_INET;
		memcpy(out->a, in->a + 12, 4);
	}
}

int fc_addr_parse(const char *s, struct fc_addr *a, int *plen)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash, *p = buf;
	size_t n = strlen(s);
	int maxlen;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);

	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	if (*p == '[') {
		char *end = strchr(p, ']');

		if (!end || end[1] != '\0')
			return -1;
		*end = '\0';
		p++;
	}

	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, p, a->a) == 1) {
		a->family = AF_INET;
		maxlen = 32;
	} else if (inet_pton(AF_INET6, p, a->a) == 1) {
		a->family = AF_INET6;
		maxlen = 128;
	} else {
		return -1;
	}

	if (slash) {
		uint64_t v;

		if (!plen || fc_parse_uint(slash, maxlen, &v))
			return -1;
		*plen = (int)v;
	} else if (plen) {
		*plen = maxlen;
	}
	return 0;
}

const char *fc_addr_str(const struct fc_addr *a, char *buf, size_t len)
{
	struct fc_addr c;

	addr_canon(a, &c);
	if (!inet_ntop(c.family, c.a, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

const char *fc_endpoint_str(const struct fc_addr *a, uint16_t port,
			    char *buf, size_t len)
{
	char ab[INET6_ADDRSTRLEN];
	struct fc_addr c;

	addr_canon(a, &c);
	fc_addr_str(&c, ab, sizeof(ab));
	if (c.family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", ab, port);
	else
		snprintf(buf, len, "%s:%u", ab, port);
	return buf;
}

static bool prefix_match(const struct fc_addr *want, int plen,
			 const struct fc_addr *have)
{
	struct fc_addr w, h;
	int full, rest;

	addr_canon(want, &w);
	addr_canon(have, &h);
	if (want->family == AF_INET6 && w.family == AF_INET)
		plen = plen > 96 ? plen - 96 : 0;	/* ::ffff:a.b.c.d/PLEN */
	if (w.family != h.family)
		return false;
	full = plen / 8;
	rest = plen % 8;
	if (memcmp(w.a, h.a, full))
		return false;
	if (rest) {
		uint8_t mask = (uint8_t)(0xff << (8 - rest));

		if ((w.a[full] & mask) != (h.a[full] & mask))
			return false;
	}
	return true;
}

int fc_filter_parse(int argc, char **argv, struct fc_filter *f,
		    char *err, size_t errlen)
{
	int i = 0;

	memset(f, 0, sizeof(*f));
	while (i < argc) {
		const char *key = argv[i++];
		struct fc_cond c;
		const char *val;

		memset(&c, 0, sizeof(c));
		if (!strcmp(key, "dst"))
			c.kind = FC_F_DST;
		else if (!strcmp(key, "src"))
			c.kind = FC_F_SRC;
		else if (!strcmp(key, "dport"))
			c.kind = FC_F_DPORT;
		else if (!strcmp(key, "sport"))
			c.kind = FC_F_SPORT;
		else {
			snprintf(err, errlen,
				 "unknown filter '%s' (use dst, src, dport, sport)",
				 key);
			return -1;
		}
		if (i < argc && (!strcmp(argv[i], "=") ||
				 !strcmp(argv[i], "==") ||
				 !strcmp(argv[i], "eq")))
			i++;
		if (i >= argc) {
			snprintf(err, errlen, "filter '%s' needs a value", key);
			return -1;
		}
		val = argv[i++];

		if (c.kind == FC_F_DST || c.kind == FC_F_SRC) {
			if (fc_addr_parse(val, &c.addr, &c.plen)) {
				snprintf(err, errlen,
					 "bad address '%s' for '%s' (want ADDR or ADDR/PLEN)",
					 val, key);
				return -1;
			}
		} else {
			uint64_t v;

			if (*val == ':')
				val++;
			if (fc_parse_uint(val, 65535, &v)) {
				snprintf(err, errlen,
					 "bad port '%s' for '%s' (want 0-65535)",
					 argv[i - 1], key);
				return -1;
			}
			c.port = (uint16_t)v;
		}
		if (f->n >= FC_MAX_CONDS) {
			snprintf(err, errlen, "too many filter conditions (max %d)",
				 FC_MAX_CONDS);
			return -1;
		}
		f->c[f->n++] = c;
	}
	return 0;
}

bool fc_filter_match(const struct fc_filter *f, const struct fc_flow *fl)
{
	int i;

	for (i = 0; i < f->n; i++) {
		const struct fc_cond *c = &f->c[i];

		switch (c->kind) {
		case FC_F_DST:
			if (!prefix_match(&c->addr, c->plen, &fl->dst))
				return false;
			break;
		case FC_F_SRC:
			if (!prefix_match(&c->addr, c->plen, &fl->src))
				return false;
			break;
		case FC_F_DPORT:
			if (fl->dport != c->port)
				return false;
			break;
		case FC_F_SPORT:
			if (fl->sport != c->port)
				return false;
			break;
		}
	}
	return true;
}
