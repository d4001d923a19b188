// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl plot: a gnuplot script for the CSV that watch writes.
 *
 * Three panels over time_s, one colour per flow: the congestion window,
 * the RTTs (smoothed RTT solid, base RTT dashed; min RTT dotted for flows
 * that have no base RTT) and the backlog.  The data are inlined as
 * datablocks, so the script is self-contained and columns are found by
 * name in the CSV header (extra or reordered columns do not matter).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fc.h"

#define PLOT_MAX_FLOWS	64
#define PLOT_MAX_COLS	128

enum {
	C_T, C_FLOW, C_CWND, C_SRTT, C_BASE, C_AVG, C_MIN, C_BL, C_SRC,
	C_SPORT, C_DST, C_DPORT, C_CC, C_N
};

static const char *const col_names[C_N] = {
	"time_s", "flow", "cwnd", "srtt_us", "base_rtt_us", "avg_rtt_us",
	"min_rtt_us", "backlog_pkts", "src", "sport", "dst", "dport", "cc",
};

struct series {
	int id;
	char label[160];
	char *data;		/* "t cwnd srtt base avg min backlog\n"... */
	size_t len, cap;
	bool has[C_N];		/* a column had at least one value */
};

static int append(struct series *s, const char *line)
{
	size_t n = strlen(line);

	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		char *d;

		while (cap < s->len + n + 1)
			cap *= 2;
		d = realloc(s->data, cap);
		if (!d)
			return -1;
		s->data = d;
		s->cap = cap;
	}
	memcpy(s->data + s->len, line, n + 1);
	s->len += n;
	return 0;
}

/* A numeric CSV cell, or NaN for an empty or non-numeric one. */
static double cell(char **f, int nf, int col)
{
	char *end;
	double v;

	if (col < 0 || col >= nf || !*f[col])
		return NAN;
	v = strtod(f[col], &end);
	return *end ? NAN : v;
}

/* gnuplot single-quoted string: '' stands for one quote. */
static void gp_quote(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', out);
		if (*s != '\n')
			fputc(*s, out);
	}
	fputc('\'', out);
}

static void gp_num(char *buf, size_t len, double v, double scale)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else
		snprintf(buf, len, "%.6g", v * scale);
}

/*
 * One panel: for each flow, column cols[0] (titled, solid) and the others
 * (dashed dt 2, dotted dt 3); or a "no data" note when no flow has any.
 */
struct pcol {
	int col;	/* C_* */
	int dcol;	/* column in the datablock */
	int dt;		/* dash type */
};

static void panel(FILE *out, struct series *s, int ns, const char *ylabel,
		  const struct pcol *pc, int npc, const char *what)
{
	bool any = false;
	int i, k;

	for (i = 0; i < ns; i++)
		for (k = 0; k < npc; k++)
			if (s[i].has[pc[k].col])
				any = true;
	fprintf(out, "set ylabel ");
	gp_quote(out, ylabel);
	fprintf(out, "\n");
	if (!any) {
		fprintf(out, "set yrange [0:1]\nset label 1 ");
		gp_quote(out, what);
		fprintf(out, " at graph 0.5, graph 0.5 center\n");
		fprintf(out, "plot 2 notitle\nunset label 1\n");
		return;
	}
	fprintf(out, "set yrange [0:*]\nplot ");
	any = false;
	for (i = 0; i < ns; i++) {
		for (k = 0; k < npc; k++) {
			if (!s[i].has[pc[k].col])
				continue;
			fprintf(out, "%s$f%d using 1:%d with lines lw %d dt %d lc %d ",
				any ? ", \\\n     " : "", i, pc[k].dcol,
				k ? 1 : 2, pc[k].dt, i + 1);
			if (k) {
				fprintf(out, "notitle");
			} else {
				fprintf(out, "title ");
				gp_quote(out, s[i].label);
			}
			any = true;
		}
	}
	fprintf(out, "\n");
}

int fc_plot_script(const char *csv, const char *png, FILE *out,
		   char *err, size_t errlen)
{
	struct series s[PLOT_MAX_FLOWS];
	int col[C_N], ns = 0, nf, i, ret = -1;
	char *fields[PLOT_MAX_COLS];
	char line[4096], row[512];
	unsigned long lineno = 1, rows = 0;
	double last_t = -INFINITY, first_t = NAN;
	FILE *in;

	memset(s, 0, sizeof(s));
	in = fopen(csv, "r");
	if (!in) {
		snprintf(err, errlen, "%s: %s", csv, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), in)) {
		snprintf(err, errlen, "%s: empty file", csv);
		goto out;
	}
	nf = fc_csv_split(line, fields, PLOT_MAX_COLS);
	for (i = 0; i < C_N; i++) {
		int k;

		col[i] = -1;
		for (k = 0; k < nf; k++)
			if (!strcmp(fields[k], col_names[i]))
				col[i] = k;
	}
	if (col[C_T] < 0 || col[C_FLOW] < 0 || col[C_CWND] < 0) {
		snprintf(err, errlen,
			 "%s: not a fastctl watch CSV (needs time_s, flow and cwnd columns)",
			 csv);
		goto out;
	}

	while (fgets(line, sizeof(line), in)) {
		double t, v[C_N];
		struct series *se = NULL;
		char num[7][32];
		long id;

		lineno++;
		if (line[0] == '\n' || line[0] == '#')
			continue;
		nf = fc_csv_split(line, fields, PLOT_MAX_COLS);
		t = cell(fields, nf, col[C_T]);
		v[C_FLOW] = cell(fields, nf, col[C_FLOW]);
		if (isnan(t) || isnan(v[C_FLOW])) {
			snprintf(err, errlen, "%s:%lu: no time_s or flow", csv,
				 lineno);
			goto out;
		}
		/* (long) of a value out of its range is undefined */
		if (!(v[C_FLOW] >= INT_MIN && v[C_FLOW] <= INT_MAX) ||
		    v[C_FLOW] != floor(v[C_FLOW])) {
			snprintf(err, errlen, "%s:%lu: flow '%s' is not a flow number",
				 csv, lineno, fields[col[C_FLOW]]);
			goto out;
		}
		if (t < last_t) {
			snprintf(err, errlen,
				 "%s:%lu: time_s goes backwards (%.3f after %.3f)",
				 csv, lineno, t, last_t);
			goto out;
		}
		last_t = t;
		if (isnan(first_t))
			first_t = t;
		id = (long)v[C_FLOW];
		for (i = 0; i < ns; i++)
			if (s[i].id == id)
				se = &s[i];
		if (!se) {
			if (ns == PLOT_MAX_FLOWS) {
				snprintf(err, errlen,
					 "%s: more than %d flows; filter them with watch FILTER",
					 csv, PLOT_MAX_FLOWS);
				goto out;
			}
			se = &s[ns++];
			se->id = (int)id;
			snprintf(se->label, sizeof(se->label),
				 "%ld %s:%s > %s:%s %s", id,
				 col[C_SRC] >= 0 && col[C_SRC] < nf ? fields[col[C_SRC]] : "?",
				 col[C_SPORT] >= 0 && col[C_SPORT] < nf ? fields[col[C_SPORT]] : "?",
				 col[C_DST] >= 0 && col[C_DST] < nf ? fields[col[C_DST]] : "?",
				 col[C_DPORT] >= 0 && col[C_DPORT] < nf ? fields[col[C_DPORT]] : "?",
				 col[C_CC] >= 0 && col[C_CC] < nf ? fields[col[C_CC]] : "");
		}
		for (i = C_CWND; i <= C_BL; i++) {
			v[i] = cell(fields, nf, col[i]);
			if (!isnan(v[i]))
				se->has[i] = true;
		}
		gp_num(num[0], sizeof(num[0]), v[C_CWND], 1);
		gp_num(num[1], sizeof(num[1]), v[C_SRTT], 1e-3);
		gp_num(num[2], sizeof(num[2]), v[C_BASE], 1e-3);
		gp_num(num[3], sizeof(num[3]), v[C_AVG], 1e-3);
		gp_num(num[4], sizeof(num[4]), v[C_MIN], 1e-3);
		gp_num(num[5], sizeof(num[5]), v[C_BL], 1);
		snprintf(row, sizeof(row), "%.3f %s %s %s %s %s %s\n", t,
			 num[0], num[1], num[2], num[3], num[4], num[5]);
		if (append(se, row)) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		rows++;
	}
	if (!rows) {
		snprintf(err, errlen, "%s: no samples (did watch see any flow?)",
			 csv);
		goto out;
	}

	fprintf(out, "# fastctl plot of %s\n", csv);
	for (i = 0; i < ns; i++)
		fprintf(out, "$f%d << EOD\n%sEOD\n", i, s[i].data);
	fprintf(out,
		"if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		"  set terminal pngcairo noenhanced size 1200,1000 font ',10'\n"
		"} else {\n"
		"  set terminal png noenhanced size 1200,1000\n"
		"}\n"
		"set output ");
	gp_quote(out, png);
	fprintf(out,
		"\nset datafile missing 'NaN'\n"
		"set grid\nset key top left Left reverse opaque box font ',8'\n"
		"set lmargin 10\n"
		"set multiplot layout 3,1 title ");
	snprintf(row, sizeof(row), "fastctl watch: %s", csv);
	gp_quote(out, row);
	fprintf(out, "\nset xlabel 'time (s)'\n");
	if (last_t > first_t)
		fprintf(out, "set xrange [%.3f:%.3f]\n", first_t, last_t);
	{
		static const struct pcol cw[] = { { C_CWND, 2, 1 } };
		static const struct pcol rtt[] = {
			{ C_SRTT, 3, 1 }, { C_BASE, 4, 2 }, { C_MIN, 6, 3 },
		};
		static const struct pcol bl[] = { { C_BL, 7, 1 } };

		panel(out, s, ns, "cwnd (packets)", cw, 1, "no cwnd");
		fprintf(out, "set key off\n");
		/* base RTT dashed where known, else min RTT dotted */
		for (i = 0; i < ns; i++)
			if (s[i].has[C_BASE])
				s[i].has[C_MIN] = false;
		panel(out, s, ns, "RTT (ms): srtt, base --, min ..", rtt, 3,
		      "no RTT");
		panel(out, s, ns, "backlog (packets)", bl, 1,
		      "no backlog (no fast_adaptive flow)");
	}
	fprintf(out, "unset multiplot\nset output\n");
	ret = ns;
out:
	for (i = 0; i < PLOT_MAX_FLOWS; i++)
		free(s[i].data);
	fclose(in);
	return ret;
}
