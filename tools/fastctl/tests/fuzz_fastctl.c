// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for fastctl's parsers and its sock_diag decoding, built
 * with ASan and UBSan (make -C tools/fastctl fuzz).
 *
 * The first input byte picks what is fed the rest:
 *   0  numbers: fc_parse_uint (against strtoull), fc_parse_seconds,
 *      fc_parse_rate, and the formatters of times, rates and sizes;
 *   1  addresses and filters: fc_addr_parse (round trip through
 *      fc_addr_str), fc_filter_parse and fc_filter_match;
 *   2  "fastctl params" arguments: fc_param_args_parse, fc_param_parse;
 *   3  subcommand options: fc_opts_parse;
 *   4  one SOCK_DIAG_BY_FAMILY answer: fc_diag_parse;
 *   5  one datagram of a dump (netlink messages): fc_diag_decode;
 *   6  a watch CSV: fc_csv_split and fc_plot_script.
 * Arguments are the NUL-separated strings of the input.  Every flow that
 * decodes goes through the view, the table, JSON and CSV writers and the
 * doctor, and the results are checked: JSON is valid, a CSV row has every
 * column on one line, values are in their documented ranges.  A violated
 * check abort()s, which libFuzzer reports like a crash.
 *
 * FC_FUZZ_SEEDS=DIR fuzz_fastctl writes a seed corpus (one valid input per
 * target) into DIR and exits.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/mman.h>

#include "fc.h"
#include "json_check.h"

#define MAX_ARGS	64

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz_fastctl: check failed: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fail(#cond ": " __VA_ARGS__);			\
	} while (0)

static FILE *devnull;

/* ------------------------------------------------------------------ */
/* Input helpers. */

/* A NUL-terminated copy of the input (an inner NUL ends the string). */
static char *input_str(const uint8_t *d, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, d, n);
	s[n] = '\0';
	return s;
}

/* The NUL-separated strings of the input as argv, in one allocation. */
struct args {
	char *buf;
	int argc;
	char *argv[MAX_ARGS + 1];
};

static void args_split(struct args *a, const uint8_t *d, size_t n)
{
	size_t i, start = 0;

	a->buf = input_str(d, n);
	a->argc = 0;
	if (!n)
		goto out;
	for (i = 0; i <= n && a->argc < MAX_ARGS; i++) {
		if (i == n || a->buf[i] == '\0') {
			a->argv[a->argc++] = a->buf + start;
			start = i + 1;
		}
	}
out:
	a->argv[a->argc] = NULL;
}

static uint64_t take_u64(const uint8_t **d, size_t *n, size_t bytes)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < bytes && *n; i++, (*d)++, (*n)--)
		v |= (uint64_t)(*d)[0] << (8 * i);
	return v;
}

/* What a writer printed, as a string. */
struct cap {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct cap *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f)
		abort();
	return c->f;
}

static char *cap_close(struct cap *c)
{
	if (fclose(c->f))
		abort();
	return c->buf;
}

static size_t count_char(const char *s, char c)
{
	size_t k = 0;

	for (; *s; s++)
		k += *s == c;
	return k;
}

/* ------------------------------------------------------------------ */
/* 0: numbers. */

static void fuzz_numbers(const uint8_t *d, size_t n)
{
	uint64_t max = take_u64(&d, &n, 8), v = 0, bps = 0;
	char *s = input_str(d, n), buf[40];
	size_t len = strlen(s), k;
	bool digits = len > 0;
	double sec = 0;
	int ok;

	for (k = 0; k < len; k++)
		if (s[k] < '0' || s[k] > '9')
			digits = false;

	ok = !fc_parse_uint(s, max, &v);
	if (digits) {
		unsigned long long ref;

		errno = 0;
		ref = strtoull(s, NULL, 10);
		if (errno == ERANGE || ref > max)
			CHECK(!ok, "'%s' max %llu accepted", s,
			      (unsigned long long)max);
		else
			CHECK(ok && v == ref, "'%s' max %llu: ok %d v %llu", s,
			      (unsigned long long)max, ok,
			      (unsigned long long)v);
	} else {
		CHECK(!ok, "non-digits '%s' accepted as %llu", s,
		      (unsigned long long)v);
	}

	if (!fc_parse_seconds(s, &sec))
		CHECK(isfinite(sec) && sec > 0 && sec <= 1e6, "'%s' -> %g s",
		      s, sec);
	if (!fc_parse_rate(s, &bps))
		CHECK(bps >= 1 && bps <= 1000000000000000ULL,
		      "'%s' -> %llu bit/s", s, (unsigned long long)bps);

	/* the formatters, on whatever numbers the input holds */
	k = 1 + max % sizeof(buf);
	fc_fmt_us((uint32_t)max, max & 1, buf, k);
	CHECK(strlen(buf) < k, "fc_fmt_us");
	fc_fmt_rate(max, buf, k);
	CHECK(strlen(buf) < k, "fc_fmt_rate");
	fc_fmt_bytes(max, buf, k);
	CHECK(strlen(buf) < k, "fc_fmt_bytes");
	fc_fmt_rate(bps, buf, sizeof(buf));
	fc_fmt_bytes(v, buf, sizeof(buf));
	free(s);
}

/* ------------------------------------------------------------------ */
/* 1: addresses and filters. */

static void fuzz_filter(const uint8_t *d, size_t n)
{
	struct fc_filter f;
	struct fc_flow fl;
	struct args a;
	char err[256];
	int i;

	args_split(&a, d, n);
	for (i = 0; i < a.argc; i++) {
		struct fc_addr x, y;
		char s1[INET6_ADDRSTRLEN], s2[INET6_ADDRSTRLEN];
		int plen = -1, plen2;

		if (fc_addr_parse(a.argv[i], &x, &plen))
			continue;
		CHECK((x.family == AF_INET && plen >= 0 && plen <= 32) ||
		      (x.family == AF_INET6 && plen >= 0 && plen <= 128),
		      "'%s': family %d plen %d", a.argv[i], x.family, plen);
		fc_addr_str(&x, s1, sizeof(s1));
		CHECK(!fc_addr_parse(s1, &y, &plen2),
		      "'%s' printed as '%s', which does not parse", a.argv[i],
		      s1);
		fc_addr_str(&y, s2, sizeof(s2));
		CHECK(!strcmp(s1, s2), "'%s' -> '%s' -> '%s'", a.argv[i], s1,
		      s2);
	}

	memset(&fl, 0, sizeof(fl));
	if (!fc_filter_parse(a.argc, a.argv, &f, err, sizeof(err))) {
		CHECK(f.n >= 0 && f.n <= FC_MAX_CONDS, "%d conditions", f.n);
		for (i = 0; i < f.n; i++)
			CHECK(f.c[i].plen >= 0 && f.c[i].plen <= 128,
			      "plen %d", f.c[i].plen);
		/* one condition: the flow made to meet it must match */
		if (f.n == 1) {
			const struct fc_cond *c = &f.c[0];

			fl.src.family = fl.dst.family = c->addr.family;
			if (c->kind == FC_F_DST)
				fl.dst = c->addr;
			else if (c->kind == FC_F_SRC)
				fl.src = c->addr;
			else if (c->kind == FC_F_DPORT)
				fl.dport = c->port;
			else
				fl.sport = c->port;
			CHECK(fc_filter_match(&f, &fl),
			      "a flow meeting the only condition does not match");
		}
		fc_filter_match(&f, &fl);
	} else {
		CHECK(err[0], "refused without a reason");
	}
	free(a.buf);
}

/* ------------------------------------------------------------------ */
/* 2: "fastctl params NAME[=VALUE]..." */

static void fuzz_params(const uint8_t *d, size_t n)
{
	struct fc_param_args pa;
	char err[4096];
	struct args a;
	int i;

	args_split(&a, d, n);
	if (!fc_param_args_parse(a.argc, a.argv, &pa, err, sizeof(err))) {
		CHECK(pa.nnamed == a.argc && pa.nset <= pa.nnamed,
		      "%d args, %d named, %d set", a.argc, pa.nnamed, pa.nset);
		for (i = 0; i < fc_param_count; i++) {
			const struct fa_param_desc *pd = &fc_param_defs[i];

			CHECK(!pa.set[i] || pa.named[i], "%s set, not named",
			      pd->name);
			if (pa.set[i])
				CHECK(pa.want[i] >= pd->min &&
				      pa.want[i] <= pd->max,
				      "%s=%u outside %u..%u", pd->name,
				      pa.want[i], pd->min, pd->max);
		}
		if (pa.set[FA_P_GAMMA_MIN] && pa.set[FA_P_GAMMA_MAX])
			CHECK(pa.want[FA_P_GAMMA_MIN] <=
			      pa.want[FA_P_GAMMA_MAX], "gamma_min > gamma_max");
	} else {
		CHECK(err[0], "refused without a reason");
	}
	for (i = 0; i < a.argc; i++) {
		char *eq = strchr(a.argv[i], '=');
		uint32_t v;
		int idx;

		if (!eq)
			continue;
		*eq = '\0';
		idx = fc_param_index(a.argv[i]);
		if (idx >= 0 && !fc_param_parse(idx, eq + 1, &v, err,
						sizeof(err)))
			CHECK(v >= fc_param_defs[idx].min &&
			      v <= fc_param_defs[idx].max, "%s=%u",
			      a.argv[i], v);
	}
	free(a.buf);
}

/* ------------------------------------------------------------------ */
/* 3: subcommand options. */

static void fuzz_opts(const uint8_t *d, size_t n)
{
	unsigned int allowed = (unsigned int)take_u64(&d, &n, 2) & 0xfff;
	struct fc_opts o = { .interval_ms = 1000 };
	char err[4096];
	struct args a;
	int i, k;

	args_split(&a, d, n);
	if (!fc_opts_parse("fuzz", a.argc, a.argv, allowed, &o, err,
			   sizeof(err))) {
		CHECK(!(o.seen & ~allowed), "seen %#x allowed %#x", o.seen,
		      allowed);
		CHECK(o.npos >= 0 && o.npos <= a.argc && !o.pos[o.npos],
		      "%d positional of %d", o.npos, a.argc);
		for (i = 0; i < o.npos; i++) {
			for (k = 0; k < a.argc; k++)
				if (o.pos[i] == a.argv[k])
					break;
			CHECK(k < a.argc, "positional %d is not an argument", i);
		}
		if (o.cc)
			CHECK(strlen(o.cc) >= 1 && strlen(o.cc) <= FC_CA_NAME_MAX,
			      "cc '%s'", o.cc);
		CHECK(o.interval_ms <= 3600000, "interval %llu",
		      (unsigned long long)o.interval_ms);
		if (o.seen & FC_O_COUNT)
			CHECK(o.count >= 1 && o.count <= 100000000, "count");
		if (o.seen & FC_O_DURATION)
			CHECK(o.duration > 0 && o.duration <= 1e6, "duration");
		if (o.seen & FC_O_RATE)
			CHECK(o.rate >= 1, "rate");
		CHECK(!o.csv || *o.csv, "empty --csv");
		free(o.pos);
	} else {
		CHECK(!o.pos && err[0], "error without reason, or pos kept");
	}
	free(a.buf);
}

/* ------------------------------------------------------------------ */
/* Every decoded flow: view, writers, doctor. */

static void check_flow(const struct fc_flow *fl)
{
	struct fc_doctor_opts dopt = { .rate_bps = 100000000 };
	struct fc_snaps snaps = { .n = 3, .sndbuf = 1 };
	struct fc_verdict r;
	struct fa_params p;
	struct fc_json j;
	struct fc_view v;
	struct cap c;
	char *s;
	int i;

	CHECK(fl->src.family == AF_INET || fl->src.family == AF_INET6,
	      "family %d", fl->src.family);
	CHECK(!fl->has_info || fl->info_len <= sizeof(fl->info),
	      "info_len %zu", fl->info_len);
	CHECK(strnlen(fl->cc, sizeof(fl->cc)) <= FC_CA_NAME_MAX,
	      "cc not terminated");
	CHECK(fl->mem_n >= 0 && fl->mem_n <= SK_MEMINFO_VARS, "mem_n %d",
	      fl->mem_n);

	fa_params_default(&p);
	fc_view_make(fl, &p, &v);
	CHECK(v.phase && v.state && v.ca_state, "view strings");
	CHECK(!v.competing || (v.is_fa && v.compete_s <= FA_INFO_COMPETE_S_MAX),
	      "competing %d, fa %d, %u s", v.competing, v.is_fa, v.compete_s);
	CHECK(v.competing || !v.compete_s, "compete_s %u while not competing",
	      v.compete_s);

	fc_json_init(&j, cap_open(&c), false);
	fc_json_obj_begin(&j, NULL);
	fc_json_flow(&j, fl, &v);
	fc_json_obj_end(&j);
	s = cap_close(&c);
	CHECK(json_valid(s), "invalid JSON:\n%s", s);
	free(s);

	fc_csv_row(cap_open(&c), 1.5, 7, fl, &v);
	s = cap_close(&c);
	CHECK(count_char(s, '\n') == 1 && s[strlen(s) - 1] == '\n',
	      "CSV row is not one line: %s", s);
	CHECK(count_char(s, ',') + 1 == (size_t)fc_csv_ncolumns,
	      "CSV row has %zu columns, header %d: %s",
	      count_char(s, ',') + 1, fc_csv_ncolumns, s);
	free(s);

	fc_table_row(cap_open(&c), fl, &v);
	s = cap_close(&c);
	CHECK(count_char(s, '\n') == 1, "table row is not one line: %s", s);
	free(s);

	fc_doctor(NULL, fl, NULL, &p, &dopt, &r);
	fc_doctor(fl, fl, &snaps, &p, &dopt, &r);
	CHECK(r.nnotes <= FC_ADVICE_MAX && r.nadvice <= FC_ADVICE_MAX,
	      "notes %d advice %d", r.nnotes, r.nadvice);
	CHECK(strnlen(r.summary, FC_LINE) < FC_LINE, "summary");
	for (i = 0; i < r.nnotes; i++)
		fputs(r.notes[i], devnull);
	for (i = 0; i < r.nadvice; i++)
		fputs(r.advice[i], devnull);
	fc_snap_sndbuf_limited(fl);
}

/* ------------------------------------------------------------------ */
/* 4, 5: sock_diag. */

/* An exact-size heap copy, so that ASan sees every byte read past it. */
static void *heap_copy(const uint8_t *d, size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	memcpy(p, d, n);
	return p;
}

static void fuzz_diag_msg(const uint8_t *d, size_t n)
{
	void *msg = heap_copy(d, n);
	struct fc_flow fl;

	if (!fc_diag_parse(msg, n, &fl)) {
		CHECK(n >= sizeof(struct inet_diag_msg), "short message");
		check_flow(&fl);
	}
	free(msg);
}

static void fuzz_diag_dump(const uint8_t *d, size_t n)
{
	uint32_t seq = (uint32_t)take_u64(&d, &n, 1);
	int family = seq & 0x80 ? AF_INET6 : AF_INET;
	struct fc_flows out = { 0 };
	void *buf;
	char err[256];
	size_t i;
	int ret;

	seq &= 0x7f;
	buf = heap_copy(d, n);
	err[0] = '\0';
	ret = fc_diag_decode(buf, n, seq, family, 2.5, &out, err, sizeof(err));
	CHECK(ret <= 1, "returned %d", ret);
	if (ret < 0)
		CHECK(err[0], "error %d without a reason", ret);
	CHECK(out.n <= n / NLMSG_LENGTH(sizeof(struct inet_diag_msg)),
	      "%zu flows from %zu bytes", out.n, n);
	for (i = 0; i < out.n; i++) {
		CHECK(out.v[i].t == 2.5, "sample time");
		check_flow(&out.v[i]);
	}
	fc_flows_free(&out);
	free(buf);
}

/* ------------------------------------------------------------------ */
/* 6: watch CSV. */

static void fuzz_csv(const uint8_t *d, size_t n)
{
	char *line = input_str(d, n), *fields[32], path[64], err[512];
	int k, i, fd;
	struct cap c;

	k = fc_csv_split(line, fields, 32);
	CHECK(k >= 1 && k <= 32, "%d fields", k);
	for (i = 0; i < k; i++)
		CHECK(fields[i] >= line && fields[i] <= line + n,
		      "field %d outside the line", i);
	free(line);

	fd = memfd_create("fuzz.csv", 0);
	if (fd < 0)
		abort();
	if (n && write(fd, d, n) != (ssize_t)n)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err[0] = '\0';
	k = fc_plot_script(path, "out'.png", cap_open(&c), err, sizeof(err));
	free(cap_close(&c));
	CHECK(k == -1 ? err[0] != '\0' : k >= 1 && k <= 64,
	      "plot returned %d (%s)", k, err);
	close(fd);
}

/* ------------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 7) {
	case 0:
		fuzz_numbers(data + 1, size - 1);
		break;
	case 1:
		fuzz_filter(data + 1, size - 1);
		break;
	case 2:
		fuzz_params(data + 1, size - 1);
		break;
	case 3:
		fuzz_opts(data + 1, size - 1);
		break;
	case 4:
		fuzz_diag_msg(data + 1, size - 1);
		break;
	case 5:
		fuzz_diag_dump(data + 1, size - 1);
		break;
	case 6:
		fuzz_csv(data + 1, size - 1);
		break;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Seeds: one well-formed input per target. */

static void seed(const char *dir, const char *name, uint8_t target,
		 const void *d, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fputc(target, f) == EOF || fwrite(d, 1, n, f) != n ||
	    fclose(f)) {
		perror(path);
		exit(1);
	}
}

static size_t put_attr(uint8_t *buf, size_t off, int type, const void *data,
		       size_t len)
{
	struct rtattr *rta = (struct rtattr *)(buf + off);

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	return off + RTA_SPACE(len);
}

/*
 * A fast_adaptive flow as the kernel reports it, in the law or (compete)
 * 12 s into competitive mode; returns its length.
 */
static size_t diag_answer(uint8_t *buf, bool compete)
{
	struct inet_diag_msg *r = (struct inet_diag_msg *)buf;
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	struct tcpvegas_info vi = { 0 };
	struct tcp_info ti = { 0 };
	size_t off;

	r->idiag_family = AF_INET;
	r->idiag_state = FC_TCP_ESTABLISHED;
	r->id.idiag_sport = htons(40000);
	r->id.idiag_dport = htons(5201);
	inet_pton(AF_INET, "10.0.1.1", r->id.idiag_src);
	inet_pton(AF_INET, "10.0.2.1", r->id.idiag_dst);
	off = NLMSG_ALIGN(sizeof(*r));
	ti.tcpi_snd_cwnd = 80;
	ti.tcpi_snd_ssthresh = 80;
	ti.tcpi_rtt = 55000;
	ti.tcpi_min_rtt = 50000;
	ti.tcpi_delivery_rate = 6000000;
	ti.tcpi_busy_time = 1000000;
	off = put_attr(buf, off, INET_DIAG_INFO, &ti, sizeof(ti));
	vi.tcpv_enabled = FA_INFO_ENABLED | FA_PHASE_LAW << FA_INFO_PHASE_SHIFT |
			  300U << FA_INFO_GAMMA_SHIFT;
	if (compete)
		vi.tcpv_enabled = FA_INFO_ENABLED |
				  FA_INFO_PHASE_COMPETE << FA_INFO_PHASE_SHIFT |
				  12U << FA_INFO_COMPETE_S_SHIFT |
				  300U << FA_INFO_GAMMA_SHIFT;
	vi.tcpv_rtt = 52000;
	vi.tcpv_minrtt = 50000;
	off = put_attr(buf, off, INET_DIAG_VEGASINFO, &vi, sizeof(vi));
	off = put_attr(buf, off, INET_DIAG_CONG, "fast_adaptive", 14);
	mem[SK_MEMINFO_SNDBUF] = 87040;
	off = put_attr(buf, off, INET_DIAG_SKMEMINFO, mem, sizeof(mem));
	return off;
}

static void write_seeds(const char *dir)
{
	static const char numbers[] = "\xff\xff\xff\xff\x00\x00\x00\x00" "100mbit";
	static const char filter[] = "dst\0" "10.0.0.0/8\0" "sport\0" "eq\0"
				     ":5201\0" "src\0" "[fd00::1]/64";
	static const char params[] = "alpha_pkts=40\0gamma_min\0gamma_max=900";
	static const char opts[] = "\xff\x0f" "-a\0--cc=cubic\0-i\0" "100\0"
				   "--rate\0" "1.5gbit\0-d\0" "0.5\0dst\0::1";
	static const char csv[] =
		"time_s,flow,src,sport,dst,dport,cc,cwnd,srtt_us,base_rtt_us,backlog_pkts\n"
		"0.000,0,10.0.1.1,40000,10.0.2.1,5201,fast_adaptive,100,55000,50000,9.1\n"
		"0.100,1,10.0.1.1,40002,10.0.2.1,5201,cubic,120,60000,,\n";
	uint8_t buf[2048] __attribute__((aligned(8))) = { 0 };
	uint8_t dg[4096] __attribute__((aligned(8))) = { 0 };
	uint8_t dump[4097];
	struct nlmsghdr *h = (struct nlmsghdr *)dg;
	size_t len, off;

	seed(dir, "numbers", 0, numbers, sizeof(numbers) - 1);
	seed(dir, "filter", 1, filter, sizeof(filter) - 1);
	seed(dir, "params", 2, params, sizeof(params) - 1);
	seed(dir, "opts", 3, opts, sizeof(opts) - 1);
	len = diag_answer(buf, true);
	seed(dir, "diag_msg_compete", 4, buf, len);
	memset(buf, 0, sizeof(buf));
	len = diag_answer(buf, false);
	seed(dir, "diag_msg", 4, buf, len);

	/* a dump datagram: sequence byte, one answer, NLMSG_DONE */
	h->nlmsg_len = NLMSG_LENGTH(len);
	h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h->nlmsg_seq = 1;
	memcpy(NLMSG_DATA(h), buf, len);
	off = NLMSG_ALIGN(h->nlmsg_len);
	h = (struct nlmsghdr *)(dg + off);
	h->nlmsg_len = NLMSG_LENGTH(sizeof(int));
	h->nlmsg_type = NLMSG_DONE;
	h->nlmsg_seq = 1;
	off += NLMSG_ALIGN(h->nlmsg_len);
	dump[0] = 1;
	memcpy(dump + 1, dg, off);
	seed(dir, "diag_dump", 5, dump, off + 1);

	seed(dir, "csv", 6, csv, sizeof(csv) - 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FC_FUZZ_SEEDS");

	(void)argc;
	(void)argv;
	if (dir && *dir) {
		write_seeds(dir);
		exit(0);
	}
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}
