// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl: the derived view of a flow, and its table, JSON and CSV forms.
 *
 * Field names of the JSON and CSV output are part of fastctl's interface
 * (see fastctl.8, "JSON FIELDS"); rename nothing without bumping FC_SCHEMA.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fc.h"

/* ------------------------------------------------------------------ */
/* Numbers. */

int fc_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		uint64_t d = (uint64_t)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

int fc_parse_seconds(const char *s, double *out)
{
	const char *p;
	char *end;
	int dots = 0;
	double v;

	if (!s || !*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p == '.')
			dots++;
		else if (*p < '0' || *p > '9')
			return -1;
	}
	if (dots > 1 || !strcmp(s, "."))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0) || v > 1e6)
		return -1;
	*out = v;
	return 0;
}

int fc_parse_rate(const char *s, uint64_t *bps)
{
	static const struct {
		char c;
		double mul;
	} units[] = {
		{ 'k', 1e3 }, { 'm', 1e6 }, { 'g', 1e9 }, { 't', 1e12 },
	};
	char num[64], *end;
	const char *p = s;
	double v, mul = 1;
	size_t n = 0;
	unsigned int i;

	if (!s)
		return -1;
	while ((isdigit((unsigned char)*p) || *p == '.') && n < sizeof(num) - 1)
		num[n++] = *p++;
	num[n] = '\0';
	if (!n || !strcmp(num, "."))
		return -1;
	errno = 0;
	v = strtod(num, &end);
	if (errno || *end)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (tolower((unsigned char)*p) == units[i].c) {
			mul = units[i].mul;
			p++;
			break;
		}
	}
	if (*p && strcasecmp(p, "bit") && strcasecmp(p, "bit/s") &&
	    strcasecmp(p, "bps") && strcmp(p, "b"))
		return -1;
	v *= mul;
	if (!(v >= 1) || v > 1e15)
		return -1;
	*bps = (uint64_t)(v + 0.5);
	return 0;
}

const char *fc_fmt_us(uint32_t us, bool known, char *buf, size_t len)
{
	if (!known)
		snprintf(buf, len, "-");
	else if (us < 1000)
		snprintf(buf, len, "%uus", us);
	else if (us < 10000)
		snprintf(buf, len, "%.2fms", us / 1e3);
	else if (us < 1000000)
		snprintf(buf, len, "%.1fms", us / 1e3);
	else
		snprintf(buf, len, "%.2fs", us / 1e6);
	return buf;
}

const char *fc_fmt_rate(uint64_t bps, char *buf, size_t len)
{
	if (bps < 1000)
		snprintf(buf, len, "%llubit/s", (unsigned long long)bps);
	else if (bps < 1000000)
		snprintf(buf, len, "%.1fkbit/s", bps / 1e3);
	else if (bps < 1000000000)
		snprintf(buf, len, "%.1fMbit/s", bps / 1e6);
	else
		snprintf(buf, len, "%.2fGbit/s", bps / 1e9);
	return buf;
}

const char *fc_fmt_bytes(uint64_t b, char *buf, size_t len)
{
	if (b < 1024)
		snprintf(buf, len, "%lluB", (unsigned long long)b);
	else if (b < 1024 * 1024)
		snprintf(buf, len, "%.1fKiB", b / 1024.0);
	else if (b < 1024ULL * 1024 * 1024)
		snprintf(buf, len, "%.1fMiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.2fGiB", b / (1024.0 * 1024 * 1024));
	return buf;
}

/* ------------------------------------------------------------------ */
/* The derived view. */

const char *fc_state_name(uint8_t state)
{
	static const char *const names[] = {
		[FC_TCP_ESTABLISHED] = "ESTAB",	[FC_TCP_SYN_SENT] = "SYN-SENT",
		[FC_TCP_SYN_RECV] = "SYN-RECV",	[FC_TCP_FIN_WAIT1] = "FIN-WAIT-1",
		[FC_TCP_FIN_WAIT2] = "FIN-WAIT-2",	[FC_TCP_TIME_WAIT] = "TIME-WAIT",
		[FC_TCP_CLOSE] = "UNCONN",		[FC_TCP_CLOSE_WAIT] = "CLOSE-WAIT",
		[FC_TCP_LAST_ACK] = "LAST-ACK",	[FC_TCP_LISTEN] = "LISTEN",
		[FC_TCP_CLOSING] = "CLOSING",
	};

	if (state < sizeof(names) / sizeof(names[0]) && names[state])
		return names[state];
	return "UNKNOWN";
}

static const char *ca_state_name(uint8_t s)
{
	static const char *const names[] = {
		"open", "disorder", "cwr", "recovery", "loss",
	};

	return s < 5 ? names[s] : "unknown";
}

/*
 * The phase as the module reports it: FA_INFO_PHASE_*, the values of the
 * law's enum fa_phase (tests/test_fastctl.c checks that they agree).
 */
static const char *fa_phase_name(unsigned int phase)
{
	switch (phase) {
	case FA_INFO_PHASE_SS:
		return "slow_start";
	case FA_INFO_PHASE_LAW:
		return "law";
	case FA_INFO_PHASE_PROBE:
		return "probe";
	case FA_INFO_PHASE_RAMP:
		return "ramp";
	case FA_INFO_PHASE_COMPETE:
		return "compete";
	default:
		return "unknown";
	}
}

/* 0 and ~0 both mean "not measured yet" in tcpvegas_info. */
static bool rtt_known(uint32_t v)
{
	return v != 0 && v != 0xffffffffU;
}

void fc_view_make(const struct fc_flow *fl, const struct fa_params *p,
		  struct fc_view *v)
{
	const struct tcp_info *ti = &fl->info;

	memset(v, 0, sizeof(*v));
	v->is_fa = !strcmp(fl->cc, FA_CC_NAME);
	v->state = fc_state_name(fl->state);
	v->phase = "-";
	v->ca_state = "-";

	if (fl->mem_n > SK_MEMINFO_SNDBUF) {
		v->sndbuf_known = true;
		v->sndbuf = fl->mem[SK_MEMINFO_SNDBUF];
	}
	if (fl->mem_n > SK_MEMINFO_RCVBUF) {
		v->rcvbuf_known = true;
		v->rcvbuf = fl->mem[SK_MEMINFO_RCVBUF];
	}
	if (fl->mem_n > SK_MEMINFO_WMEM_QUEUED) {
		v->wmem_known = true;
		v->wmem_queued = fl->mem[SK_MEMINFO_WMEM_QUEUED];
	}

	if (fl->has_vegas) {
		v->base_known = rtt_known(fl->vegas.tcpv_minrtt);
		v->base_rtt_us = v->base_known ? fl->vegas.tcpv_minrtt : 0;
		v->avg_known = rtt_known(fl->vegas.tcpv_rtt);
		v->avg_rtt_us = v->avg_known ? fl->vegas.tcpv_rtt : 0;
		if (v->is_fa && (fl->vegas.tcpv_enabled & FA_INFO_ENABLED)) {
			v->gamma_known = true;
			v->gamma_q10 = FA_INFO_GAMMA(fl->vegas.tcpv_enabled);
			v->competing = FA_INFO_PHASE(fl->vegas.tcpv_enabled) ==
				       FA_INFO_PHASE_COMPETE;
			if (v->competing)
				v->compete_s =
					FA_INFO_COMPETE_S(fl->vegas.tcpv_enabled);
		}
	}

	if (!fl->has_info)
		return;

	v->ca_state = ca_state_name(ti->tcpi_ca_state);
	v->cwnd = ti->tcpi_snd_cwnd;
	v->mss = ti->tcpi_snd_mss;
	v->ssthresh_set = ti->tcpi_snd_ssthresh < 0x7fffffffU;
	v->ssthresh = v->ssthresh_set ? ti->tcpi_snd_ssthresh : 0;
	v->srtt_us = ti->tcpi_rtt;
	v->rttvar_us = ti->tcpi_rttvar;
	v->retrans = ti->tcpi_retrans;
	v->total_retrans = ti->tcpi_total_retrans;
	v->lost = ti->tcpi_lost;
	v->unacked = ti->tcpi_unacked;
	v->app_limited = ti->tcpi_delivery_rate_app_limited;

	if (FC_HAS(fl, tcpi_min_rtt) && ti->tcpi_min_rtt != 0xffffffffU) {
		v->min_rtt_known = true;
		v->min_rtt_us = ti->tcpi_min_rtt;
	}
	if (FC_HAS(fl, tcpi_pacing_rate) && ti->tcpi_pacing_rate != ~0ULL &&
	    ti->tcpi_pacing_rate < UINT64_MAX / 8)
		v->pacing_bps = ti->tcpi_pacing_rate * 8;
	if (FC_HAS(fl, tcpi_bytes_acked))
		v->bytes_acked = ti->tcpi_bytes_acked;
	if (FC_HAS(fl, tcpi_bytes_received))
		v->bytes_received = ti->tcpi_bytes_received;
	if (FC_HAS(fl, tcpi_delivery_rate) &&
	    ti->tcpi_delivery_rate < UINT64_MAX / 8)
		v->delivery_bps = ti->tcpi_delivery_rate * 8;
	if (FC_HAS(fl, tcpi_sndbuf_limited)) {
		v->busy_us = ti->tcpi_busy_time;
		v->rwnd_limited_us = ti->tcpi_rwnd_limited;
		v->sndbuf_limited_us = ti->tcpi_sndbuf_limited;
	}
	if (FC_HAS(fl, tcpi_notsent_bytes)) {
		v->notsent_known = true;
		v->notsent_bytes = ti->tcpi_notsent_bytes;
	}
	if (FC_HAS(fl, tcpi_snd_wnd)) {
		v->snd_wnd_known = true;
		v->snd_wnd = ti->tcpi_snd_wnd;
	}

	/* The backlog and what the law would do now, from the law itself. */
	if (v->base_known && v->avg_known && v->cwnd) {
		struct fa_update u;

		fa_law(p, v->cwnd, v->base_rtt_us, v->avg_rtt_us, true, &u);
		v->backlog_known = true;
		v->backlog_pkts = u.backlog_q10 / (double)FA_ONE;
		v->dist = u.dist_q10 / (double)FA_ONE;
		v->gamma_next = u.gamma / (double)FA_ONE;
		v->target_cwnd = u.target;
	}

	if (ti->tcpi_ca_state == 3)		/* TCP_CA_Recovery */
		v->phase = "recovery";
	else if (ti->tcpi_ca_state == 4)	/* TCP_CA_Loss */
		v->phase = "loss";
	else if (v->is_fa && v->gamma_known)
		v->phase = fa_phase_name(FA_INFO_PHASE(fl->vegas.tcpv_enabled));
	else if (fl->state != FC_TCP_ESTABLISHED &&
		 fl->state != FC_TCP_CLOSE_WAIT)
		v->phase = "-";
	else if (!v->ssthresh_set || v->cwnd < v->ssthresh)
		v->phase = "slow_start";
	else
		v->phase = "cong_avoid";
}

/* ------------------------------------------------------------------ */
/* JSON. */

void fc_json_init(struct fc_json *j, FILE *f, bool compact)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->compact = compact;
	j->first[0] = true;
}

/* Length of the valid UTF-8 sequence at s (RFC 3629), 0 if invalid. */
static int utf8_seq_len(const unsigned char *s)
{
	unsigned int cp, min;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * JSON text is UTF-8 (RFC 8259 section 8.1): valid sequences are copied,
 * any other byte (a congestion control name is whatever bytes the kernel
 * has) becomes U+FFFD, the replacement character.
 */
void fc_json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			int n = utf8_seq_len((const unsigned char *)s);

			if (n) {
				fwrite(s, 1, n, f);
				s += n - 1;
			} else {
				fputs("\\ufffd", f);
			}
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

static void json_sep(struct fc_json *j, const char *key)
{
	int i;

	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth > 0 && !j->compact) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		fc_json_escape(j->f, key);
		fputs(j->compact ? ":" : ": ", j->f);
	}
}

static void json_open(struct fc_json *j, const char *key, char c)
{
	json_sep(j, key);
	fputc(c, j->f);
	if (j->depth < (int)(sizeof(j->first) / sizeof(j->first[0])) - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct fc_json *j, char c)
{
	bool empty = j->first[j->depth];
	int i;

	if (j->depth > 0)
		j->depth--;
	if (!empty && !j->compact) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void fc_json_obj_begin(struct fc_json *j, const char *key)
{
	json_open(j, key, '{');
}

void fc_json_obj_end(struct fc_json *j)
{
	json_close(j, '}');
}

void fc_json_arr_begin(struct fc_json *j, const char *key)
{
	json_open(j, key, '[');
}

void fc_json_arr_end(struct fc_json *j)
{
	json_close(j, ']');
}

void fc_json_str(struct fc_json *j, const char *key, const char *val)
{
	json_sep(j, key);
	fc_json_escape(j->f, val);
}

void fc_json_u64(struct fc_json *j, const char *key, uint64_t val)
{
	json_sep(j, key);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void fc_json_s64(struct fc_json *j, const char *key, int64_t val)
{
	json_sep(j, key);
	fprintf(j->f, "%lld", (long long)val);
}

void fc_json_dbl(struct fc_json *j, const char *key, double val, int prec)
{
	json_sep(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.*f", prec, val);
	else
		fputs("null", j->f);
}

void fc_json_bool(struct fc_json *j, const char *key, bool val)
{
	json_sep(j, key);
	fputs(val ? "true" : "false", j->f);
}

void fc_json_null(struct fc_json *j, const char *key)
{
	json_sep(j, key);
	fputs("null", j->f);
}

static void json_opt_u64(struct fc_json *j, const char *key, bool known,
			 uint64_t val)
{
	if (known)
		fc_json_u64(j, key, val);
	else
		fc_json_null(j, key);
}

static void json_opt_dbl(struct fc_json *j, const char *key, bool known,
			 double val, int prec)
{
	if (known)
		fc_json_dbl(j, key, val, prec);
	else
		fc_json_null(j, key);
}

void fc_json_flow(struct fc_json *j, const struct fc_flow *fl,
		  const struct fc_view *v)
{
	char buf[INET6_ADDRSTRLEN];
	bool ti = fl->has_info;
	bool fa_law_known = v->is_fa && v->backlog_known;

	fc_json_str(j, "family", fl->src.family == AF_INET6 ? "ipv6" : "ipv4");
	fc_json_str(j, "src", fc_addr_str(&fl->src, buf, sizeof(buf)));
	fc_json_u64(j, "sport", fl->sport);
	fc_json_str(j, "dst", fc_addr_str(&fl->dst, buf, sizeof(buf)));
	fc_json_u64(j, "dport", fl->dport);
	fc_json_str(j, "state", v->state);
	fc_json_str(j, "cc", fl->cc);
	fc_json_u64(j, "uid", fl->uid);
	fc_json_u64(j, "inode", fl->inode);
	fc_json_str(j, "phase", v->phase);
	json_opt_u64(j, "compete_s", v->competing, v->compete_s);
	fc_json_str(j, "ca_state", v->ca_state);
	json_opt_u64(j, "cwnd", ti, v->cwnd);
	json_opt_u64(j, "ssthresh", ti && v->ssthresh_set, v->ssthresh);
	json_opt_u64(j, "mss", ti, v->mss);
	json_opt_u64(j, "srtt_us", ti, v->srtt_us);
	json_opt_u64(j, "rttvar_us", ti, v->rttvar_us);
	json_opt_u64(j, "min_rtt_us", v->min_rtt_known, v->min_rtt_us);
	json_opt_u64(j, "base_rtt_us", v->base_known, v->base_rtt_us);
	json_opt_u64(j, "avg_rtt_us", v->avg_known, v->avg_rtt_us);
	json_opt_dbl(j, "backlog_pkts", v->backlog_known, v->backlog_pkts, 2);
	json_opt_dbl(j, "gamma", v->gamma_known, v->gamma_q10 / (double)FA_ONE,
		     4);
	json_opt_u64(j, "gamma_q10", v->gamma_known, v->gamma_q10);
	json_opt_dbl(j, "alpha_distance", fa_law_known, v->dist, 3);
	json_opt_dbl(j, "gamma_next", fa_law_known, v->gamma_next, 4);
	json_opt_u64(j, "target_cwnd", fa_law_known, v->target_cwnd);
	json_opt_u64(j, "pacing_rate_bps", ti && v->pacing_bps, v->pacing_bps);
	json_opt_u64(j, "delivery_rate_bps", ti, v->delivery_bps);
	if (ti)
		fc_json_bool(j, "app_limited", v->app_limited);
	else
		fc_json_null(j, "app_limited");
	json_opt_u64(j, "retrans", ti, v->retrans);
	json_opt_u64(j, "total_retrans", ti, v->total_retrans);
	json_opt_u64(j, "lost", ti, v->lost);
	json_opt_u64(j, "unacked", ti, v->unacked);
	json_opt_u64(j, "bytes_acked", ti, v->bytes_acked);
	json_opt_u64(j, "bytes_received", ti, v->bytes_received);
	json_opt_u64(j, "busy_us", FC_HAS(fl, tcpi_busy_time), v->busy_us);
	json_opt_u64(j, "rwnd_limited_us", FC_HAS(fl, tcpi_rwnd_limited),
		     v->rwnd_limited_us);
	json_opt_u64(j, "sndbuf_limited_us", FC_HAS(fl, tcpi_sndbuf_limited),
		     v->sndbuf_limited_us);
	json_opt_u64(j, "snd_wnd", v->snd_wnd_known, v->snd_wnd);
	json_opt_u64(j, "sndbuf", v->sndbuf_known, v->sndbuf);
	json_opt_u64(j, "rcvbuf", v->rcvbuf_known, v->rcvbuf);
	json_opt_u64(j, "wmem_queued", v->wmem_known, v->wmem_queued);
	json_opt_u64(j, "notsent_bytes", v->notsent_known, v->notsent_bytes);
}

/*
 * A congestion control name for the table and CSV, which have no quoting:
 * control characters (and, for CSV, commas) become '?'.  The kernel's own
 * names have none, but a name is whatever bytes a module registered.
 */
static const char *clean_name(const char *s, bool csv, char *buf,
			      size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = c < 0x20 || c == 0x7f || (csv && c == ',') ? '?' : s[i];
	}
	buf[i] = '\0';
	return buf;
}

/* ------------------------------------------------------------------ */
/* Table. */

#define FC_ROW_FMT "%-23s %-23s %-13s %-10s %6s %6s %8s %8s %8s %8s %7s %6s %11s %11s %s\n"

void fc_table_header(FILE *f)
{
	fprintf(f, FC_ROW_FMT, "SRC", "DST", "CC", "PHASE", "CWND", "SSTHR",
		"SRTT", "MINRTT", "BASE", "AVG", "BACKLOG", "GAMMA", "PACING",
		"DELIVERY", "RETR");
}

void fc_table_row(FILE *f, const struct fc_flow *fl, const struct fc_view *v)
{
	char src[64], dst[64], cwnd[16], ssth[16], srtt[16], minrtt[16];
	char base[16], avg[16], bl[16], gamma[16], pace[24], dlv[24], retr[32];
	char cc[FC_CA_NAME_MAX + 1];
	bool ti = fl->has_info;

	fc_endpoint_str(&fl->src, fl->sport, src, sizeof(src));
	fc_endpoint_str(&fl->dst, fl->dport, dst, sizeof(dst));
	if (ti)
		snprintf(cwnd, sizeof(cwnd), "%u", v->cwnd);
	else
		snprintf(cwnd, sizeof(cwnd), "-");
	if (ti && v->ssthresh_set)
		snprintf(ssth, sizeof(ssth), "%u", v->ssthresh);
	else
		snprintf(ssth, sizeof(ssth), "-");
	fc_fmt_us(v->srtt_us, ti, srtt, sizeof(srtt));
	fc_fmt_us(v->min_rtt_us, v->min_rtt_known, minrtt, sizeof(minrtt));
	fc_fmt_us(v->base_rtt_us, v->base_known, base, sizeof(base));
	fc_fmt_us(v->avg_rtt_us, v->avg_known, avg, sizeof(avg));
	if (v->backlog_known)
		snprintf(bl, sizeof(bl), "%.1f", v->backlog_pkts);
	else
		snprintf(bl, sizeof(bl), "-");
	if (v->gamma_known)
		snprintf(gamma, sizeof(gamma), "%.3f",
			 v->gamma_q10 / (double)FA_ONE);
	else
		snprintf(gamma, sizeof(gamma), "-");
	if (ti && v->pacing_bps)
		fc_fmt_rate(v->pacing_bps, pace, sizeof(pace));
	else
		snprintf(pace, sizeof(pace), "-");
	if (ti)
		fc_fmt_rate(v->delivery_bps, dlv, sizeof(dlv));
	else
		snprintf(dlv, sizeof(dlv), "-");
	if (ti)
		snprintf(retr, sizeof(retr), "%u/%u", v->retrans,
			 v->total_retrans);
	else
		snprintf(retr, sizeof(retr), "-");

	fprintf(f, FC_ROW_FMT, src, dst,
		fl->cc[0] ? clean_name(fl->cc, false, cc, sizeof(cc)) : "-",
		v->phase,
		cwnd, ssth, srtt, minrtt, base, avg, bl, gamma, pace, dlv,
		retr);
}

/* ------------------------------------------------------------------ */
/* CSV. */

const char *const fc_csv_columns[] = {
	"time_s", "flow", "src", "sport", "dst", "dport", "cc", "phase",
	"cwnd", "ssthresh", "srtt_us", "min_rtt_us", "base_rtt_us",
	"avg_rtt_us", "backlog_pkts", "gamma", "target_cwnd",
	"pacing_rate_bps", "delivery_rate_bps", "bytes_acked",
	"total_retrans", "lost", "unacked", "busy_us", "rwnd_limited_us",
	"sndbuf_limited_us", "compete_s",
};

const int fc_csv_ncolumns = sizeof(fc_csv_columns) / sizeof(fc_csv_columns[0]);

void fc_csv_header(FILE *f)
{
	int i;

	for (i = 0; i < fc_csv_ncolumns; i++)
		fprintf(f, "%s%s", i ? "," : "", fc_csv_columns[i]);
	fputc('\n', f);
}

static void csv_u64(FILE *f, bool known, uint64_t v)
{
	if (known)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

void fc_csv_row(FILE *f, double t, int flow_id, const struct fc_flow *fl,
		const struct fc_view *v)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	char cc[FC_CA_NAME_MAX + 1];
	bool ti = fl->has_info;
	bool fa_law_known = v->is_fa && v->backlog_known;

	fc_addr_str(&fl->src, src, sizeof(src));
	fc_addr_str(&fl->dst, dst, sizeof(dst));
	fprintf(f, "%.3f,%d,%s,%u,%s,%u,%s,%s", t, flow_id, src, fl->sport,
		dst, fl->dport, clean_name(fl->cc, true, cc, sizeof(cc)),
		v->phase);
	csv_u64(f, ti, v->cwnd);
	csv_u64(f, ti && v->ssthresh_set, v->ssthresh);
	csv_u64(f, ti, v->srtt_us);
	csv_u64(f, v->min_rtt_known, v->min_rtt_us);
	csv_u64(f, v->base_known, v->base_rtt_us);
	csv_u64(f, v->avg_known, v->avg_rtt_us);
	if (v->backlog_known)
		fprintf(f, ",%.2f", v->backlog_pkts);
	else
		fputc(',', f);
	if (v->gamma_known)
		fprintf(f, ",%.4f", v->gamma_q10 / (double)FA_ONE);
	else
		fputc(',', f);
	csv_u64(f, fa_law_known, v->target_cwnd);
	csv_u64(f, ti && v->pacing_bps, v->pacing_bps);
	csv_u64(f, ti, v->delivery_bps);
	csv_u64(f, ti, v->bytes_acked);
	csv_u64(f, ti, v->total_retrans);
	csv_u64(f, ti, v->lost);
	csv_u64(f, ti, v->unacked);
	csv_u64(f, FC_HAS(fl, tcpi_busy_time), v->busy_us);
	csv_u64(f, FC_HAS(fl, tcpi_rwnd_limited), v->rwnd_limited_us);
	csv_u64(f, FC_HAS(fl, tcpi_sndbuf_limited), v->sndbuf_limited_us);
	csv_u64(f, v->competing, v->compete_s);
	fputc('\n', f);
}

int fc_csv_split(char *line, char **fields, int max)
{
	size_t n = strlen(line);
	int k = 0;
	char *p = line;

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	if (max <= 0)
		return 0;
	fields[k++] = p;
	for (; *p; p++) {
		if (*p == ',') {
			*p = '\0';
			if (k < max)
				fields[k++] = p + 1;
			else
				break;
		}
	}
	return k;
}
