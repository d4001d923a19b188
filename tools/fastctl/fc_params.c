// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl: the module's tunables.
 *
 * The names, defaults and ranges come from fa_param_descs[] in
 * include/fast_adaptive/fa_params.h, the same rows the module's parameter
 * handlers check writes against (decimal, in range, gamma_min <=
 * gamma_max), so fastctl refuses what the kernel would refuse before it
 * writes anything.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fc.h"

int fc_param_index(const char *name)
{
	int i;

	for (i = 0; i < fc_param_count; i++)
		if (!strcmp(fc_param_defs[i].name, name))
			return i;
	return -1;
}

int fc_param_parse(int idx, const char *s, uint32_t *val,
		   char *err, size_t errlen)
{
	const struct fa_param_desc *d = &fc_param_defs[idx];
	uint64_t v;

	if (fc_parse_uint(s, UINT32_MAX, &v)) {
		snprintf(err, errlen,
			 "%s: '%s' is not a non-negative decimal integer",
			 d->name, s);
		return -1;
	}
	if (v < d->min || v > d->max) {
		snprintf(err, errlen, "%s: %llu is out of range %u..%u",
			 d->name, (unsigned long long)v, d->min, d->max);
		return -1;
	}
	*val = (uint32_t)v;
	return 0;
}

int fc_param_args_parse(int n, char **args, struct fc_param_args *a,
			char *err, size_t errlen)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < n; i++) {
		char name[64], *eq = strchr(args[i], '=');
		size_t len = eq ? (size_t)(eq - args[i]) : strlen(args[i]);
		int idx;

		if (len >= sizeof(name)) {
			snprintf(err, errlen,
				 "unknown parameter '%.*s' (fastctl params lists them)",
				 (int)len, args[i]);
			return -1;
		}
		memcpy(name, args[i], len);
		name[len] = '\0';
		idx = fc_param_index(name);
		if (idx < 0) {
			snprintf(err, errlen,
				 "unknown parameter '%s' (fastctl params lists them)",
				 name);
			return -1;
		}
		if (a->named[idx]) {
			snprintf(err, errlen, "parameter '%s' given twice", name);
			return -1;
		}
		a->named[idx] = true;
		a->nnamed++;
		if (eq) {
			if (fc_param_parse(idx, eq + 1, &a->want[idx], err,
					   errlen))
				return -1;
			a->set[idx] = true;
			a->nset++;
		}
	}
	if (a->set[FA_P_GAMMA_MIN] && a->set[FA_P_GAMMA_MAX] &&
	    a->want[FA_P_GAMMA_MIN] > a->want[FA_P_GAMMA_MAX]) {
		snprintf(err, errlen,
			 "gamma_min (%u) must not exceed gamma_max (%u)",
			 a->want[FA_P_GAMMA_MIN], a->want[FA_P_GAMMA_MAX]);
		return -1;
	}
	return 0;
}

int fc_param_check_set(const uint32_t *vals, char *err, size_t errlen)
{
	if (vals[FA_P_GAMMA_MIN] > vals[FA_P_GAMMA_MAX]) {
		snprintf(err, errlen,
			 "gamma_min (%u) must not exceed gamma_max (%u)",
			 vals[FA_P_GAMMA_MIN], vals[FA_P_GAMMA_MAX]);
		return -1;
	}
	return 0;
}

void fc_param_to_fa(const uint32_t *vals, struct fa_params *p)
{
	p->alpha_pkts = vals[FA_P_ALPHA_PKTS];
	p->gamma_min = vals[FA_P_GAMMA_MIN];
	p->gamma_max = vals[FA_P_GAMMA_MAX];
	p->gamma_fixed = vals[FA_P_GAMMA_FIXED];
	p->gain_k = vals[FA_P_GAIN_K];
	p->ss_exit_pkts = vals[FA_P_SS_EXIT_PKTS];
	p->ss_delay_us = vals[FA_P_SS_DELAY_US];
	p->update_rtts = vals[FA_P_UPDATE_RTTS];
	p->adaptive_gain = vals[FA_P_ADAPTIVE_GAIN];
	p->adaptive_ss = vals[FA_P_ADAPTIVE_SS];
	p->base_win_ms = vals[FA_P_BASE_WIN_MS];
	fa_params_sanitize(p);
}

const char *fc_param_dir(void)
{
	const char *d = getenv("FASTCTL_PARAM_DIR");

	return d && *d ? d : FA_PARAM_DIR;
}

static bool cc_available(const char *name)
{
	char buf[1024], *tok, *save = NULL;
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control",
			"r");
	bool found = false;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		for (tok = strtok_r(buf, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, name))
				found = true;
	}
	fclose(f);
	return found;
}

bool fc_module_present(void)
{
	struct stat st;

	if (!stat(fc_param_dir(), &st) && S_ISDIR(st.st_mode))
		return true;
	if (getenv("FASTCTL_PARAM_DIR"))
		return false;
	return cc_available(FA_CC_NAME);
}

static int param_path(int idx, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", fc_param_dir(),
			 fc_param_defs[idx].name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int fc_param_read(int idx, uint32_t *val)
{
	char path[4096], buf[64];
	uint64_t v;
	ssize_t n;
	int fd;

	if (param_path(idx, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	if (fc_parse_uint(buf, UINT32_MAX, &v))
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}

int fc_param_write(int idx, uint32_t val)
{
	char path[4096], buf[32];
	int fd, n, e = 0;

	if (param_path(idx, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%u\n", val);
	errno = 0;
	if (write(fd, buf, n) != n)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	return -e;
}

void fc_params_live(struct fa_params *p)
{
	uint32_t vals[FC_PARAM_MAX];
	int i;

	for (i = 0; i < fc_param_count; i++)
		if (fc_param_read(i, &vals[i]))
			vals[i] = fc_param_defs[i].def;
	fc_param_to_fa(vals, p);
}
