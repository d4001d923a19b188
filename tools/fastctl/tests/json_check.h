/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON syntax checker (the RFC 8259 subset that fastctl writes),
 * for the unit tests and the fuzzer: json_valid(s) is true when s is one
 * JSON value and nothing else, its strings valid UTF-8.
 */
#ifndef _FASTCTL_JSON_CHECK_H
#define _FASTCTL_JSON_CHECK_H

#include <stdbool.h>
#include <string.h>

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *js_value(const char *p, int depth);

/* Length of the valid UTF-8 sequence at p (RFC 3629), 0 if invalid. */
static int js_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	int n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static const char *js_string(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p && *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if ((unsigned char)*p >= 0x80) {
			int n = js_utf8_len(p);

			if (!n)
				return NULL;
			p += n - 1;
			continue;
		}
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s ? p : NULL;
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = js_ws(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		bool obj = *p == '{';

		p = js_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				p = js_string(js_ws(p));
				if (!p)
					return NULL;
				p = js_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = js_value(p, depth + 1);
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p == ',') {
				p++;
				continue;
			}
			return *p == close ? p + 1 : NULL;
		}
	}
	if (*p == '"')
		return js_string(p);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	return js_number(p);
}

static bool json_valid(const char *s)
{
	const char *p = js_value(s, 0);

	return p && *js_ws(p) == '\0';
}

#endif /* _FASTCTL_JSON_CHECK_H */
