// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl: a TCP oscilloscope for fast_adaptive flows.
 *
 *	fastctl show   [-a] [--cc NAME] [--json] [FILTER]
 *	fastctl watch  [-a] [--cc NAME] [-i MS] [--csv FILE] [-c N] [-d S]
 *		       [--json] [FILTER]
 *	fastctl doctor [-a] [--cc NAME] [-i MS] [--rate RATE] [--json] [FILTER]
 *	fastctl params [--json] [NAME[=VALUE] ...]
 *	fastctl plot   CSV [-o PNG] [--script FILE]
 *
 * See fastctl.8.  Exit status: 0 ok, 1 runtime error or kernel refusal,
 * 2 bad arguments or module not loaded.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fc.h"

static const char usage_text[] =
"usage: fastctl COMMAND [OPTIONS] [FILTER]\n"
"\n"
"commands:\n"
"  show   [FILTER]        fast_adaptive sockets: phase, cwnd, RTTs, backlog, rates\n"
"  watch  [FILTER]        follow flows over time; --csv FILE records them\n"
"  doctor [FILTER]        what limits each flow (cwnd, rwnd, sndbuf, application)\n"
"  params [NAME[=VALUE]...]  show or set the module's tunables\n"
"  plot   CSV -o PNG      draw cwnd, RTT/base RTT and backlog of a watch CSV\n"
"\n"
"options:\n"
"  -a, --all              all TCP sockets, not only fast_adaptive ones\n"
"      --cc NAME          sockets of congestion control NAME\n"
"  -4, -6                 IPv4 or IPv6 sockets only\n"
"  -j, --json             JSON output (show, watch, doctor, params)\n"
"  -i, --interval MS      sampling interval (watch: 1000; doctor: 1000, 0 = since start)\n"
"      --csv FILE         watch: write CSV to FILE ('-' for stdout)\n"
"  -c, --count N          watch: stop after N samples\n"
"  -d, --duration S       watch: stop after S seconds\n"
"  -q, --quiet            watch: no terminal lines\n"
"      --rate RATE        doctor: size buffer advice for RATE (e.g. 100mbit)\n"
"  -o, --output PNG       plot: output file (default: CSV with .png)\n"
"      --script FILE      plot: write the gnuplot script, do not run gnuplot\n"
"  -h, --help             this text\n"
"  -V, --version          version\n"
"\n"
"FILTER: dst ADDR[/PLEN]  src ADDR[/PLEN]  dport N  sport N  (all must hold)\n"
"exit status: 0 ok, 1 runtime error or kernel refusal, 2 bad arguments or module missing\n";

static const char *prog = "fastctl";

static void __attribute__((format(printf, 1, 2))) die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(FC_EXIT_USAGE);
}

static void __attribute__((format(printf, 1, 2))) die_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(FC_EXIT_FAIL);
}

/* ------------------------------------------------------------------ */
/* Options (fc_opts.c). */

static void parse_opts(const char *cmd, int argc, char **argv,
		       unsigned int allowed, struct fc_opts *o)
{
	char err[4096];
	int ret = fc_opts_parse(cmd, argc, argv, allowed, o, err, sizeof(err));

	if (ret == -2)
		die_fail("%s", err);
	if (ret)
		die_usage("%s", err);
}

/* ------------------------------------------------------------------ */
/* Selecting flows. */

struct selector {
	const char *cc;		/* NULL: every congestion control */
	struct fc_filter filter;
	int family;
};

static void make_selector(const struct fc_opts *o, struct selector *s)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	s->family = o->family;
	if (fc_filter_parse(o->npos, o->pos, &s->filter, err, sizeof(err)))
		die_usage("%s", err);
	if (o->cc) {
		s->cc = o->cc;
	} else if (!o->all) {
		s->cc = FA_CC_NAME;
		if (!fc_module_present())
			die_usage("congestion control %s is not available: module %s is not loaded (modprobe %s, or use -a for all TCP sockets)",
				  FA_CC_NAME, FA_MODULE_NAME, FA_MODULE_NAME);
	}
}

static void sample(const struct selector *s, struct fc_flows *out)
{
	struct fc_flows all = { 0 };
	char err[256];
	size_t i;

	if (fc_diag_dump(s->family, FC_STATES_CONNECTED, &all, err,
			 sizeof(err)))
		die_fail("%s", err);
	out->n = 0;
	for (i = 0; i < all.n; i++) {
		struct fc_flow *fl = &all.v[i], *d;

		if (s->cc && strcmp(fl->cc, s->cc))
			continue;
		if (!fc_filter_match(&s->filter, fl))
			continue;
		d = fc_flows_push(out);
		if (!d)
			die_fail("out of memory");
		*d = *fl;
	}
	fc_flows_free(&all);
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* ------------------------------------------------------------------ */
/* show */

static int cmd_show(int argc, char **argv)
{
	struct fc_opts o = { 0 };
	struct selector s;
	struct fc_flows fs = { 0 };
	struct fa_params p;
	size_t i;

	parse_opts("show", argc, argv, FC_O_ALL | FC_O_JSON | FC_O_CC | FC_O_FAM, &o);
	make_selector(&o, &s);
	fc_params_live(&p);
	sample(&s, &fs);

	if (o.json) {
		struct fc_json j;

		fc_json_init(&j, stdout, false);
		fc_json_obj_begin(&j, NULL);
		fc_json_u64(&j, "schema", FC_SCHEMA);
		fc_json_arr_begin(&j, "flows");
		for (i = 0; i < fs.n; i++) {
			struct fc_view v;

			fc_view_make(&fs.v[i], &p, &v);
			fc_json_obj_begin(&j, NULL);
			fc_json_flow(&j, &fs.v[i], &v);
			fc_json_obj_end(&j);
		}
		fc_json_arr_end(&j);
		fc_json_obj_end(&j);
	} else {
		fc_table_header(stdout);
		for (i = 0; i < fs.n; i++) {
			struct fc_view v;

			fc_view_make(&fs.v[i], &p, &v);
			fc_table_row(stdout, &fs.v[i], &v);
		}
	}
	fc_flows_free(&fs);
	free(o.pos);
	return fflush(stdout) ? FC_EXIT_FAIL : FC_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* watch */

struct idmap {
	uint64_t *cookie;
	size_t n;
};

/* Flow numbers in order of first appearance; -1 if new (then *fresh). */
static int flow_id(struct idmap *m, uint64_t cookie, bool *fresh)
{
	uint64_t *c;
	size_t i;

	*fresh = false;
	for (i = 0; i < m->n; i++)
		if (m->cookie[i] == cookie)
			return (int)i;
	c = realloc(m->cookie, (m->n + 1) * sizeof(*c));
	if (!c)
		die_fail("out of memory");
	m->cookie = c;
	m->cookie[m->n] = cookie;
	*fresh = true;
	return (int)m->n++;
}

static void watch_header(FILE *f)
{
	fprintf(f, "%9s %4s %-10s %7s %8s %8s %8s %8s %7s %6s %11s\n",
		"TIME", "FLOW", "PHASE", "CWND", "SRTT", "MINRTT", "BASE", "AVG",
		"BACKLOG", "GAMMA", "DELIVERY");
}

static void watch_line(FILE *f, double t, int id, const struct fc_flow *fl,
		       const struct fc_view *v)
{
	char srtt[16], minrtt[16], base[16], avg[16], bl[16], g[16], d[24];

	fc_fmt_us(v->srtt_us, fl->has_info, srtt, sizeof(srtt));
	fc_fmt_us(v->min_rtt_us, v->min_rtt_known, minrtt, sizeof(minrtt));
	fc_fmt_us(v->base_rtt_us, v->base_known, base, sizeof(base));
	fc_fmt_us(v->avg_rtt_us, v->avg_known, avg, sizeof(avg));
	if (v->backlog_known)
		snprintf(bl, sizeof(bl), "%.1f", v->backlog_pkts);
	else
		snprintf(bl, sizeof(bl), "-");
	if (v->gamma_known)
		snprintf(g, sizeof(g), "%.3f", v->gamma_q10 / (double)FA_ONE);
	else
		snprintf(g, sizeof(g), "-");
	fc_fmt_rate(v->delivery_bps, d, sizeof(d));
	fprintf(f, "%9.3f %4d %-10s %7u %8s %8s %8s %8s %7s %6s %11s\n", t, id,
		v->phase, v->cwnd, srtt, minrtt, base, avg, bl, g, d);
}

static int cmd_watch(int argc, char **argv)
{
	struct fc_opts o = { .interval_ms = 1000 };
	struct fc_flows fs = { 0 };
	struct idmap ids = { 0 };
	struct selector s;
	struct fa_params p;
	struct sigaction sa;
	FILE *csv = NULL, *term = stdout;
	bool tty = isatty(STDOUT_FILENO);
	double start, interval;
	uint64_t k = 0, lines = 0;
	int ret = FC_EXIT_OK;

	parse_opts("watch", argc, argv,
		   FC_O_ALL | FC_O_JSON | FC_O_CC | FC_O_FAM | FC_O_INTERVAL | FC_O_CSV |
		   FC_O_COUNT | FC_O_DURATION | FC_O_QUIET, &o);
	if (o.interval_ms < 10)
		die_usage("watch interval must be at least 10 ms");
	make_selector(&o, &s);
	if (o.csv) {
		if (!strcmp(o.csv, "-")) {
			if (o.json)
				die_usage("--csv - and --json both want stdout");
			csv = stdout;
			term = NULL;
		} else {
			csv = fopen(o.csv, "w");
			if (!csv)
				die_fail("%s: %s", o.csv, strerror(errno));
		}
		fc_csv_header(csv);
	}
	if (o.quiet || o.json)
		term = NULL;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	interval = o.interval_ms / 1e3;
	start = mono_now();
	while (!stop_requested) {
		size_t i;

		fc_params_live(&p);
		sample(&s, &fs);
		if (term && (lines == 0 || (tty && lines >= 40))) {
			watch_header(term);
			lines = 0;
		}
		for (i = 0; i < fs.n; i++) {
			struct fc_flow *fl = &fs.v[i];
			double t = fl->t - start;
			struct fc_view v;
			bool fresh;
			int id = flow_id(&ids, fl->cookie, &fresh);

			if (t < 0)
				t = 0;
			fc_view_make(fl, &p, &v);
			if (term && fresh) {
				char a[64], b[64];

				fprintf(term, "# flow %d: %s > %s %s\n", id,
					fc_endpoint_str(&fl->src, fl->sport, a,
							sizeof(a)),
					fc_endpoint_str(&fl->dst, fl->dport, b,
							sizeof(b)),
					fl->cc);
			}
			if (term) {
				watch_line(term, t, id, fl, &v);
				lines++;
			}
			if (csv)
				fc_csv_row(csv, t, id, fl, &v);
			if (o.json) {
				struct fc_json j;

				fc_json_init(&j, stdout, true);
				fc_json_obj_begin(&j, NULL);
				fc_json_u64(&j, "schema", FC_SCHEMA);
				fc_json_dbl(&j, "time_s", t, 3);
				fc_json_u64(&j, "flow", id);
				fc_json_flow(&j, fl, &v);
				fc_json_obj_end(&j);
			}
		}
		if (csv)
			fflush(csv);
		fflush(stdout);

		k++;
		if (o.count && k >= o.count)
			break;
		if ((o.seen & FC_O_DURATION) && k * interval >= o.duration - 1e-9)
			break;
		sleep_until(start + k * interval);
	}

	if (csv && csv != stdout && fclose(csv)) {
		fprintf(stderr, "%s: %s: %s\n", prog, o.csv, strerror(errno));
		ret = FC_EXIT_FAIL;
	}
	fc_flows_free(&fs);
	free(ids.cookie);
	free(o.pos);
	return ret;
}

/* ------------------------------------------------------------------ */
/* doctor */

struct snapmap {
	struct {
		uint64_t cookie;
		struct fc_snaps s;
	} *v;
	size_t n;
};

static struct fc_snaps *snap_find(struct snapmap *m, uint64_t cookie)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].cookie == cookie)
			return &m->v[i].s;
	return NULL;
}

/* Count one snapshot of every flow in fs. */
static void snap_count(struct snapmap *m, const struct fc_flows *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		struct fc_snaps *sn = snap_find(m, fs->v[i].cookie);

		if (!sn) {
			void *v = realloc(m->v, (m->n + 1) * sizeof(*m->v));

			if (!v)
				die_fail("out of memory");
			m->v = v;
			m->v[m->n].cookie = fs->v[i].cookie;
			sn = &m->v[m->n++].s;
			sn->n = sn->sndbuf = 0;
		}
		sn->n++;
		if (fc_snap_sndbuf_limited(&fs->v[i]))
			sn->sndbuf++;
	}
}

static void doctor_text(const struct fc_flow *fl, const struct fc_view *v,
			const struct fc_verdict *r)
{
	char a[64], b[64], srtt[16], d[24];
	int i;

	fc_endpoint_str(&fl->src, fl->sport, a, sizeof(a));
	fc_endpoint_str(&fl->dst, fl->dport, b, sizeof(b));
	fc_fmt_us(v->srtt_us, fl->has_info, srtt, sizeof(srtt));
	fc_fmt_rate(v->delivery_bps, d, sizeof(d));
	printf("%s > %s  %s  %s  cwnd %u  srtt %s  delivery %s\n", a, b,
	       fl->cc[0] ? fl->cc : "-", v->phase, v->cwnd, srtt, d);
	printf("  limit:  %s\n", fc_limit_name(r->limit));
	printf("  why:    %s\n", r->summary);
	if (r->limit <= FC_LIM_APP) {
		if (r->windowed)
			printf("  time:   cwnd %.0f%%  rwnd %.0f%%  sndbuf %.0f%%  application %.0f%%  (over %.1f s)\n",
			       100 * r->f_cwnd, 100 * r->f_rwnd,
			       100 * r->f_sndbuf, 100 * r->f_app, r->window_s);
		else
			printf("  time:   cwnd %.0f%%  rwnd %.0f%%  sndbuf %.0f%%  (of busy time since the start)\n",
			       100 * r->f_cwnd, 100 * r->f_rwnd,
			       100 * r->f_sndbuf);
	}
	for (i = 0; i < r->nnotes; i++)
		printf("  note:   %s\n", r->notes[i]);
	for (i = 0; i < r->nadvice; i++)
		printf("  advice: %s\n", r->advice[i]);
}

static void doctor_json(struct fc_json *j, const struct fc_flow *fl,
			const struct fc_view *v, const struct fc_verdict *r)
{
	int i;

	fc_json_obj_begin(j, NULL);
	fc_json_flow(j, fl, v);
	fc_json_str(j, "limit", fc_limit_name(r->limit));
	fc_json_str(j, "summary", r->summary);
	if (r->windowed)
		fc_json_dbl(j, "window_s", r->window_s, 3);
	else
		fc_json_null(j, "window_s");
	fc_json_obj_begin(j, "fractions");
	fc_json_dbl(j, "cwnd", r->f_cwnd, 3);
	fc_json_dbl(j, "rwnd", r->f_rwnd, 3);
	fc_json_dbl(j, "sndbuf", r->f_sndbuf, 3);
	fc_json_dbl(j, "application", r->f_app, 3);
	fc_json_obj_end(j);
	if (r->bdp_bytes)
		fc_json_u64(j, "bdp_bytes", r->bdp_bytes);
	else
		fc_json_null(j, "bdp_bytes");
	fc_json_dbl(j, "retrans_pct", r->loss_pct, 2);
	fc_json_arr_begin(j, "notes");
	for (i = 0; i < r->nnotes; i++)
		fc_json_str(j, NULL, r->notes[i]);
	fc_json_arr_end(j);
	fc_json_arr_begin(j, "advice");
	for (i = 0; i < r->nadvice; i++)
		fc_json_str(j, NULL, r->advice[i]);
	fc_json_arr_end(j);
	fc_json_obj_end(j);
}

static int cmd_doctor(int argc, char **argv)
{
	struct fc_opts o = { .interval_ms = 1000 };
	struct fc_flows a = { 0 }, b = { 0 };
	struct fc_doctor_opts dopt = { 0 };
	struct snapmap snaps = { 0 };
	struct selector s;
	struct fa_params p;
	struct fc_json j;
	size_t i, k;

	parse_opts("doctor", argc, argv,
		   FC_O_ALL | FC_O_JSON | FC_O_CC | FC_O_FAM | FC_O_INTERVAL | FC_O_RATE, &o);
	make_selector(&o, &s);
	dopt.rate_bps = o.rate;

	sample(&s, &a);
	if (o.interval_ms) {
		/* snapshots every ~100 ms in between, for the send buffer */
		int k, nsnap = o.interval_ms / 100 < 2 ? 2 : o.interval_ms / 100;
		double t0 = mono_now(), step = o.interval_ms / 1e3 / nsnap;
		struct fc_flows mid = { 0 };

		snap_count(&snaps, &a);
		for (k = 1; k < nsnap; k++) {
			sleep_until(t0 + k * step);
			sample(&s, &mid);
			snap_count(&snaps, &mid);
		}
		sleep_until(t0 + o.interval_ms / 1e3);
		sample(&s, &b);
		snap_count(&snaps, &b);
		fc_flows_free(&mid);
	}
	fc_params_live(&p);

	if (o.json) {
		fc_json_init(&j, stdout, false);
		fc_json_obj_begin(&j, NULL);
		fc_json_u64(&j, "schema", FC_SCHEMA);
		fc_json_u64(&j, "interval_ms", o.interval_ms);
		fc_json_arr_begin(&j, "flows");
	}
	{
		struct fc_flows *cur = o.interval_ms ? &b : &a;
		int shown = 0;

		for (i = 0; i < cur->n; i++) {
			const struct fc_flow *prev = NULL;
			struct fc_verdict r;
			struct fc_view v;

			if (o.interval_ms)
				for (k = 0; k < a.n; k++)
					if (a.v[k].cookie == cur->v[i].cookie)
						prev = &a.v[k];
			fc_doctor(prev, &cur->v[i],
				  o.interval_ms ? snap_find(&snaps, cur->v[i].cookie) : NULL,
				  &p, &dopt, &r);
			fc_view_make(&cur->v[i], &p, &v);
			if (o.json) {
				doctor_json(&j, &cur->v[i], &v, &r);
			} else {
				if (shown++)
					putchar('\n');
				doctor_text(&cur->v[i], &v, &r);
			}
		}
		if (!o.json && !cur->n)
			printf("no matching %s flows\n",
			       s.cc ? s.cc : "TCP");
	}
	if (o.json) {
		fc_json_arr_end(&j);
		fc_json_obj_end(&j);
	}
	fc_flows_free(&a);
	fc_flows_free(&b);
	free(snaps.v);
	free(o.pos);
	return fflush(stdout) ? FC_EXIT_FAIL : FC_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* params */

static int cmd_params(int argc, char **argv)
{
	struct fc_opts o = { 0 };
	uint32_t cur[FC_PARAM_MAX];
	struct fc_param_args pa;
	const bool *set = pa.set, *named = pa.named;
	const uint32_t *want = pa.want;
	int order[FC_PARAM_MAX], norder = 0, nset, nnamed, i, ret;
	char err[4096];

	parse_opts("params", argc, argv, FC_O_JSON, &o);

	/* Check every argument before touching anything. */
	if (fc_param_args_parse(o.npos, o.pos, &pa, err, sizeof(err)))
		die_usage("%s", err);
	nset = pa.nset;
	nnamed = pa.nnamed;
	if (!fc_module_present())
		die_usage("module %s is not loaded (%s missing; modprobe %s)",
			  FA_MODULE_NAME, fc_param_dir(), FA_MODULE_NAME);
	for (i = 0; i < fc_param_count; i++) {
		ret = fc_param_read(i, &cur[i]);
		if (ret)
			die_fail("cannot read %s/%s: %s", fc_param_dir(),
				 fc_param_defs[i].name, strerror(-ret));
	}

	if (nset) {
		uint32_t next[FC_PARAM_MAX];
		int hi = FA_P_GAMMA_MAX;

		memcpy(next, cur, sizeof(next));
		for (i = 0; i < fc_param_count; i++)
			if (set[i])
				next[i] = want[i];
		if (fc_param_check_set(next, err, sizeof(err)))
			die_usage("%s", err);
		/*
		 * The kernel checks gamma_min <= gamma_max on each write:
		 * raise gamma_max before gamma_min, lower gamma_min first.
		 */
		if (set[hi] && next[hi] > cur[hi])
			order[norder++] = hi;
		for (i = 0; i < fc_param_count; i++)
			if (set[i] && !(i == hi && norder && order[0] == hi))
				order[norder++] = i;
		for (i = 0; i < norder; i++) {
			int idx = order[i];

			ret = fc_param_write(idx, want[idx]);
			if (ret) {
				fprintf(stderr, "%s: %s=%u: %s%s\n", prog,
					fc_param_defs[idx].name, want[idx],
					ret == -EACCES || ret == -EPERM ?
					"cannot write (setting tunables needs root): " :
					"the kernel refused: ",
					strerror(-ret));
				return FC_EXIT_FAIL;
			}
		}
	}

	if (o.json) {
		struct fc_json j;

		fc_json_init(&j, stdout, false);
		fc_json_obj_begin(&j, NULL);
		fc_json_u64(&j, "schema", FC_SCHEMA);
		fc_json_str(&j, "module", FA_MODULE_NAME);
		fc_json_str(&j, "dir", fc_param_dir());
		fc_json_arr_begin(&j, "params");
		for (i = 0; i < fc_param_count; i++) {
			const struct fa_param_desc *d = &fc_param_defs[i];

			if (nnamed && !named[i])
				continue;
			fc_json_obj_begin(&j, NULL);
			fc_json_str(&j, "name", d->name);
			fc_json_u64(&j, "value", set[i] ? want[i] : cur[i]);
			if (set[i])
				fc_json_u64(&j, "previous", cur[i]);
			fc_json_u64(&j, "default", d->def);
			fc_json_u64(&j, "min", d->min);
			fc_json_u64(&j, "max", d->max);
			fc_json_str(&j, "description", d->help);
			fc_json_obj_end(&j);
		}
		fc_json_arr_end(&j);
		fc_json_obj_end(&j);
	} else {
		if (!nset)
			printf("%-14s %9s %9s %-12s %s\n", "NAME", "VALUE",
			       "DEFAULT", "RANGE", "DESCRIPTION");
		for (i = 0; i < fc_param_count; i++) {
			const struct fa_param_desc *d = &fc_param_defs[i];
			char range[32];

			if (nnamed && !named[i])
				continue;
			if (set[i]) {
				printf("%s = %u (was %u)\n", d->name, want[i],
				       cur[i]);
			} else if (nset) {
				printf("%s = %u\n", d->name, cur[i]);
			} else {
				snprintf(range, sizeof(range), "%u..%u", d->min,
					 d->max);
				printf("%-14s %9u %9u %-12s %s\n", d->name,
				       cur[i], d->def, range, d->help);
			}
		}
	}
	free(o.pos);
	return fflush(stdout) ? FC_EXIT_FAIL : FC_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* plot */

static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n,
			 n ? path : ".", name);
		if (access(buf, X_OK) == 0)
			return true;
		if (!end)
			break;
		path = end + 1;
	}
	return false;
}

static int cmd_plot(int argc, char **argv)
{
	struct fc_opts o = { 0 };
	char err[512], *script = NULL, *png = NULL;
	const char *gnuplot = getenv("FASTCTL_GNUPLOT");
	size_t slen = 0;
	FILE *mem, *gp;
	struct stat st;
	int n, status;

	parse_opts("plot", argc, argv, FC_O_OUTPUT | FC_O_SCRIPT, &o);
	if (o.npos != 1)
		die_usage("plot needs exactly one CSV file (fastctl plot CSV -o PNG)");
	if (o.output) {
		png = strdup(o.output);
	} else {
		const char *csv = o.pos[0];
		size_t l = strlen(csv);

		png = malloc(l + 5);
		if (png) {
			memcpy(png, csv, l + 1);
			if (l > 4 && !strcmp(png + l - 4, ".csv"))
				png[l - 4] = '\0';
			strcat(png, ".png");
		}
	}
	if (!png)
		die_fail("out of memory");

	mem = open_memstream(&script, &slen);
	if (!mem)
		die_fail("out of memory");
	n = fc_plot_script(o.pos[0], png, mem, err, sizeof(err));
	fclose(mem);
	if (n < 0)
		die_fail("%s", err);

	if (o.script) {
		FILE *f = strcmp(o.script, "-") ? fopen(o.script, "w") : stdout;

		if (!f)
			die_fail("%s: %s", o.script, strerror(errno));
		fwrite(script, 1, slen, f);
		if (f != stdout ? fclose(f) : fflush(f))
			die_fail("%s: %s", o.script, strerror(errno));
		free(script);
		free(png);
		free(o.pos);
		return FC_EXIT_OK;
	}

	if (!gnuplot || !*gnuplot)
		gnuplot = "gnuplot";
	if (!in_path(gnuplot))
		die_fail("%s not found (apt-get install gnuplot-nox, or --script FILE to write the script only)",
			 gnuplot);
	gp = popen(gnuplot, "w");
	if (!gp)
		die_fail("cannot run %s: %s", gnuplot, strerror(errno));
	fwrite(script, 1, slen, gp);
	status = pclose(gp);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		die_fail("%s failed on the script for %s (fastctl plot --script - shows it)",
			 gnuplot, o.pos[0]);
	if (stat(png, &st) || st.st_size == 0)
		die_fail("%s did not write %s", gnuplot, png);
	printf("%s: %d flow%s from %s\n", png, n, n == 1 ? "" : "s", o.pos[0]);
	free(script);
	free(png);
	free(o.pos);
	return FC_EXIT_OK;
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		die_usage("missing command (show, watch, doctor, params, plot; fastctl --help)");
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help")) {
		fputs(usage_text, stdout);
		return FC_EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("fastctl %s (JSON/CSV schema %d)\n", FC_VERSION,
		       FC_SCHEMA);
		return FC_EXIT_OK;
	}
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return FC_EXIT_OK;
		}
	if (!strcmp(cmd, "show"))
		return cmd_show(argc - 2, argv + 2);
	if (!strcmp(cmd, "watch"))
		return cmd_watch(argc - 2, argv + 2);
	if (!strcmp(cmd, "doctor"))
		return cmd_doctor(argc - 2, argv + 2);
	if (!strcmp(cmd, "params"))
		return cmd_params(argc - 2, argv + 2);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc - 2, argv + 2);
	die_usage("unknown command '%s' (show, watch, doctor, params, plot)", cmd);
	return FC_EXIT_USAGE;
}
