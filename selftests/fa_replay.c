// SPDX-License-Identifier: GPL-2.0
/*
 * fa_replay - conformance of the kernel's control law with the userspace one.
 *
 *   fa_replay [-m MIN_RECORDS] [-v] [TRACE...]     (stdin when no TRACE)
 *   fa_replay -P      print the tunables table of fa_params.h, one
 *                     "name default min max" line per tunable
 *
 * Reads ftrace text (the tracefs "trace" file) and replays every
 * fast_adaptive:update record through fa_law() of
 * include/fast_adaptive/fa_law.h: the parameters the record carries
 * (alpha_pkts, gamma_min, gamma_max, gamma_fixed, gain_k, adaptive_gain) are
 * set on top of fa_params_default(), the inputs (cwnd, base_rtt_us,
 * avg_rtt_us, cwnd_limited) are fed to the law, and its outputs must equal
 * the recorded backlog_q10, dist_q10, gamma, target and cwnd_out exactly.
 *
 * Prints each mismatch (or, with -v, each record) and a summary line
 *   fa_replay: N records, M mismatches, P unparsable
 * Exit status: 0 when every record matched and there were at least
 * MIN_RECORDS (default 1); 1 otherwise; 2 on a usage or I/O error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fast_adaptive/fa_law.h"

enum {
	F_SPORT, F_DPORT, F_CWND, F_BASE, F_AVG, F_LIMITED, F_ALPHA, F_GMIN,
	F_GMAX, F_GFIXED, F_GAINK, F_ADAPTIVE, F_BACKLOG, F_DIST, F_GAMMA,
	F_TARGET, F_CWND_OUT, F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"sport", "dport", "cwnd", "base_rtt_us", "avg_rtt_us", "cwnd_limited",
	"alpha_pkts", "gamma_min", "gamma_max", "gamma_fixed", "gain_k",
	"adaptive_gain", "backlog_q10", "dist_q10", "gamma", "target",
	"cwnd_out",
};

static unsigned long records, mismatches, unparsable;
static int verbose;

/* Parse "key=value ..." after "update:"; 0 when every field was found. */
static int parse(const char *s, uint64_t *v)
{
	unsigned int seen = 0;

	while (*s) {
		const char *eq, *end;
		char *num_end;
		size_t klen;
		int i;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		end = s + strcspn(s, " \t\r\n");
		if (end == s)
			break;
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq) {
			s = end;
			continue;
		}
		klen = (size_t)(eq - s);
		for (i = 0; i < F_COUNT; i++) {
			if (strlen(field_names[i]) == klen &&
			    !memcmp(field_names[i], s, klen))
				break;
		}
		if (i < F_COUNT) {
			errno = 0;
			v[i] = strtoull(eq + 1, &num_end, 10);
			if (errno || num_end != end)
				return -1;
			seen |= 1U << i;
		}
		s = end;
	}
	return seen == (1U << F_COUNT) - 1 ? 0 : -1;
}

static int fits_u32(const uint64_t *v)
{
	for (int i = 0; i < F_COUNT; i++)
		if (i != F_BACKLOG && v[i] > UINT32_MAX)
			return 0;
	return 1;
}

static void replay_line(const char *line, const char *where)
{
	const char *p = strstr(line, " update: ");
	uint64_t v[F_COUNT];
	struct fa_params prm;
	struct fa_update u;
	int bad;

	if (!p || line[0] == '#')
		return;
	p += strlen(" update: ");
	if (parse(p, v) || !fits_u32(v)) {
		unparsable++;
		fprintf(stdout, "fa_replay: %s: cannot parse: %s", where, line);
		return;
	}
	records++;
	fa_params_default(&prm);
	prm.alpha_pkts = (u32)v[F_ALPHA];
	prm.gamma_min = (u32)v[F_GMIN];
	prm.gamma_max = (u32)v[F_GMAX];
	prm.gamma_fixed = (u32)v[F_GFIXED];
	prm.gain_k = (u32)v[F_GAINK];
	prm.adaptive_gain = (u32)v[F_ADAPTIVE];
	memset(&u, 0, sizeof(u));
	fa_law(&prm, (u32)v[F_CWND], (u32)v[F_BASE], (u32)v[F_AVG],
	       v[F_LIMITED] != 0, &u);

	bad = u.backlog_q10 != v[F_BACKLOG] || u.dist_q10 != v[F_DIST] ||
	      u.gamma != v[F_GAMMA] || u.target != v[F_TARGET] ||
	      u.cwnd_out != v[F_CWND_OUT];
	if (bad)
		mismatches++;
	if (bad || verbose)
		printf("fa_replay: %s: %s sport=%" PRIu64 " cwnd=%" PRIu64
		       " base=%" PRIu64 " avg=%" PRIu64 " limited=%" PRIu64
		       " alpha=%" PRIu64 ": kernel backlog_q10=%" PRIu64
		       " dist_q10=%" PRIu64 " gamma=%" PRIu64 " target=%" PRIu64
		       " cwnd_out=%" PRIu64 ", userspace backlog_q10=%" PRIu64
		       " dist_q10=%u gamma=%u target=%u cwnd_out=%u\n",
		       where, bad ? "MISMATCH" : "match", v[F_SPORT], v[F_CWND],
		       v[F_BASE], v[F_AVG], v[F_LIMITED], v[F_ALPHA],
		       v[F_BACKLOG], v[F_DIST], v[F_GAMMA], v[F_TARGET],
		       v[F_CWND_OUT], (uint64_t)u.backlog_q10, u.dist_q10,
		       u.gamma, u.target, u.cwnd_out);
}

static int replay_file(FILE *f, const char *name)
{
	char *line = NULL, where[512];
	size_t cap = 0;
	unsigned long n = 0;

	while (getline(&line, &cap, f) > 0) {
		n++;
		snprintf(where, sizeof(where), "%s:%lu", name, n);
		replay_line(line, where);
	}
	free(line);
	if (ferror(f)) {
		fprintf(stderr, "fa_replay: read error on %s\n", name);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long min_records = 1;
	int opt, i;

	while ((opt = getopt(argc, argv, "m:vP")) != -1) {
		switch (opt) {
		case 'P':
			for (i = 0; i < FA_P_COUNT; i++)
				printf("%s %u %u %u\n", fa_param_descs[i].name,
				       fa_param_descs[i].def, fa_param_descs[i].min,
				       fa_param_descs[i].max);
			return 0;
		case 'm': min_records = strtoul(optarg, NULL, 10); break;
		case 'v': verbose = 1; break;
		default:
			fprintf(stderr, "usage: fa_replay [-m MIN_RECORDS] [-v] [TRACE...] | -P\n");
			return 2;
		}
	}
	if (optind == argc) {
		if (replay_file(stdin, "stdin"))
			return 2;
	}
	for (i = optind; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");

		if (!f) {
			fprintf(stderr, "fa_replay: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (replay_file(f, argv[i])) {
			fclose(f);
			return 2;
		}
		fclose(f);
	}
	printf("fa_replay: %lu records, %lu mismatches, %lu unparsable\n",
	       records, mismatches, unparsable);
	if (records < min_records) {
		printf("fa_replay: fewer than %lu records\n", min_records);
		return 1;
	}
	return mismatches || unparsable ? 1 : 0;
}
