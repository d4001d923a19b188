// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of fastctl's parsing, formatting, validation, doctor logic,
 * JSON, CSV and plot script.  No kernel: sock_diag answers are built by
 * hand.  Prints one line per failed check and ends with
 * "unit: N passed, N failed"; exit status 1 on any failure.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "fc.h"
#include "json_check.h"

static int passed, failed;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			passed++;					\
		} else {						\
			failed++;					\
			printf("FAIL %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("  [%s]\n", #cond);			\
		}							\
	} while (0)

/* Capture what a writer prints into a string. */
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
	return c->f;
}

static char *cap_close(struct cap *c)
{
	fclose(c->f);
	return c->buf;
}

/* ------------------------------------------------------------------ */
/* Hand-built flows. */

static void mk_flow(struct fc_flow *fl, const char *cc, int family,
		    const char *src, uint16_t sport, const char *dst,
		    uint16_t dport)
{
	memset(fl, 0, sizeof(*fl));
	fl->src.family = fl->dst.family = family;
	inet_pton(family, src, fl->src.a);
	inet_pton(family, dst, fl->dst.a);
	fl->sport = sport;
	fl->dport = dport;
	fl->state = FC_TCP_ESTABLISHED;
	snprintf(fl->cc, sizeof(fl->cc), "%s", cc);
	fl->has_info = true;
	fl->info_len = sizeof(fl->info);
	fl->info.tcpi_snd_cwnd = 100;
	fl->info.tcpi_snd_ssthresh = 0x7fffffff;
	fl->info.tcpi_snd_mss = 1448;
	fl->info.tcpi_rtt = 55000;
	fl->info.tcpi_rttvar = 2000;
	fl->info.tcpi_min_rtt = 50000;
	fl->info.tcpi_delivery_rate = 50000000 / 8;
	fl->info.tcpi_pacing_rate = 60000000 / 8;
	fl->info.tcpi_snd_wnd = 1 << 20;
	fl->mem_n = SK_MEMINFO_VARS;
	fl->mem[SK_MEMINFO_SNDBUF] = 4 << 20;
	fl->mem[SK_MEMINFO_RCVBUF] = 1 << 20;
}

static void mk_fa(struct fc_flow *fl, unsigned int phase, unsigned int gamma,
		  uint32_t base, uint32_t avg)
{
	mk_flow(fl, "fast_adaptive", AF_INET, "10.0.1.1", 40000, "10.0.2.1",
		5201);
	fl->has_vegas = true;
	fl->vegas.tcpv_enabled = FA_INFO_ENABLED |
				 phase << FA_INFO_PHASE_SHIFT |
				 gamma << FA_INFO_GAMMA_SHIFT;
	fl->vegas.tcpv_rttcnt = 7;
	fl->vegas.tcpv_rtt = avg;
	fl->vegas.tcpv_minrtt = base;
	fl->info.tcpi_snd_ssthresh = 80;
}

/* A fast_adaptive flow in competitive mode for secs (bits 1-7) seconds. */
static void mk_compete(struct fc_flow *fl, unsigned int secs)
{
	mk_fa(fl, FA_INFO_PHASE_COMPETE, 512, 50000, 60000);
	fl->vegas.tcpv_enabled |= secs << FA_INFO_COMPETE_S_SHIFT;
}

/* ------------------------------------------------------------------ */

static void test_numbers(void)
{
	uint64_t v = 0;
	double d = 0;
	char b[32];

	CHECK(!fc_parse_uint("0", 10, &v) && v == 0, "uint 0");
	CHECK(!fc_parse_uint("65535", 65535, &v) && v == 65535, "uint max");
	CHECK(fc_parse_uint("65536", 65535, &v), "uint over max");
	CHECK(fc_parse_uint("", 10, &v), "uint empty");
	CHECK(fc_parse_uint("+1", 10, &v), "uint sign");
	CHECK(fc_parse_uint("-1", 10, &v), "uint negative");
	CHECK(fc_parse_uint(" 1", 10, &v), "uint space");
	CHECK(fc_parse_uint("1x", 10, &v), "uint trailing");
	CHECK(fc_parse_uint("99999999999999999999999", UINT64_MAX, &v),
	      "uint overflow");
	CHECK(!fc_parse_uint("18446744073709551615", UINT64_MAX, &v) &&
	      v == UINT64_MAX, "uint 2^64-1");

	CHECK(!fc_parse_seconds("2", &d) && d == 2, "sec 2");
	CHECK(!fc_parse_seconds("0.5", &d) && d == 0.5, "sec 0.5");
	CHECK(fc_parse_seconds("0", &d), "sec 0");
	CHECK(fc_parse_seconds("1e3", &d), "sec exp");
	CHECK(fc_parse_seconds("-1", &d), "sec neg");
	CHECK(fc_parse_seconds(".", &d), "sec dot");
	CHECK(fc_parse_seconds("1.2.3", &d), "sec dots");
	CHECK(fc_parse_seconds("inf", &d), "sec inf");

	CHECK(!fc_parse_rate("100mbit", &v) && v == 100000000, "rate 100mbit");
	CHECK(!fc_parse_rate("1g", &v) && v == 1000000000, "rate 1g");
	CHECK(!fc_parse_rate("2.5Gbit/s", &v) && v == 2500000000ULL,
	      "rate 2.5Gbit/s");
	CHECK(!fc_parse_rate("800000", &v) && v == 800000, "rate plain");
	CHECK(!fc_parse_rate("10kbps", &v) && v == 10000, "rate kbps");
	CHECK(fc_parse_rate("abc", &v), "rate garbage");
	CHECK(fc_parse_rate("10x", &v), "rate unit");
	CHECK(fc_parse_rate("0", &v), "rate zero");
	CHECK(fc_parse_rate("-5m", &v), "rate negative");
	CHECK(fc_parse_rate("10MB", &v), "rate bytes refused");

	CHECK(!strcmp(fc_fmt_us(31, true, b, sizeof(b)), "31us"), "us %s", b);
	CHECK(!strcmp(fc_fmt_us(1234, true, b, sizeof(b)), "1.23ms"), "ms2 %s", b);
	CHECK(!strcmp(fc_fmt_us(52100, true, b, sizeof(b)), "52.1ms"), "ms %s", b);
	CHECK(!strcmp(fc_fmt_us(1200000, true, b, sizeof(b)), "1.20s"), "s %s", b);
	CHECK(!strcmp(fc_fmt_us(5, false, b, sizeof(b)), "-"), "unknown %s", b);
	CHECK(!strcmp(fc_fmt_rate(999, b, sizeof(b)), "999bit/s"), "%s", b);
	CHECK(!strcmp(fc_fmt_rate(49800000, b, sizeof(b)), "49.8Mbit/s"), "%s", b);
	CHECK(!strcmp(fc_fmt_rate(2500000000ULL, b, sizeof(b)), "2.50Gbit/s"),
	      "%s", b);
	CHECK(!strcmp(fc_fmt_bytes(512, b, sizeof(b)), "512B"), "%s", b);
	CHECK(!strcmp(fc_fmt_bytes(1536, b, sizeof(b)), "1.5KiB"), "%s", b);
	CHECK(!strcmp(fc_fmt_bytes(4 << 20, b, sizeof(b)), "4.0MiB"), "%s", b);
}

static void test_addr_filter(void)
{
	struct fc_addr a;
	struct fc_filter f;
	struct fc_flow fl;
	char err[256], b[64];
	int plen = -1;
	char *good1[] = { "dst", "10.0.2.0/24", "dport", "5201" };
	char *good2[] = { "dport", "=", ":5201", "sport", "eq", "40000" };
	char *good3[] = { "dst", "[fd00::2]" };
	char *bad1[] = { "daddr", "1.2.3.4" };
	char *bad2[] = { "dport" };
	char *bad3[] = { "dport", "70000" };
	char *bad4[] = { "dst", "10.0.0.300" };
	char *bad5[] = { "dst", "10.0.0.0/33" };
	char *bad6[] = { "sport", "=", "x" };

	CHECK(!fc_addr_parse("10.1.2.3", &a, &plen) && a.family == AF_INET &&
	      plen == 32, "v4");
	CHECK(!fc_addr_parse("fd00::1/64", &a, &plen) && a.family == AF_INET6 &&
	      plen == 64, "v6/64");
	CHECK(!fc_addr_parse("[::1]", &a, &plen) && a.family == AF_INET6 &&
	      plen == 128, "[v6]");
	CHECK(fc_addr_parse("[::1", &a, &plen), "[v6 unclosed");
	CHECK(fc_addr_parse("host.example", &a, &plen), "name refused");
	CHECK(fc_addr_parse("1.2.3.4/", &a, &plen), "empty plen");
	CHECK(fc_addr_parse("", &a, &plen), "empty");

	CHECK(!fc_filter_parse(4, good1, &f, err, sizeof(err)) && f.n == 2,
	      "good1: %s", err);
	mk_flow(&fl, "cubic", AF_INET, "10.0.1.1", 40000, "10.0.2.1", 5201);
	CHECK(fc_filter_match(&f, &fl), "good1 matches");
	fl.dport = 5202;
	CHECK(!fc_filter_match(&f, &fl), "good1 port mismatch");
	fl.dport = 5201;
	inet_pton(AF_INET, "10.0.3.1", fl.dst.a);
	CHECK(!fc_filter_match(&f, &fl), "good1 prefix mismatch");

	CHECK(!fc_filter_parse(6, good2, &f, err, sizeof(err)) && f.n == 2 &&
	      f.c[0].port == 5201 && f.c[1].port == 40000, "good2: %s", err);
	mk_flow(&fl, "cubic", AF_INET, "10.0.1.1", 40000, "10.0.2.1", 5201);
	CHECK(fc_filter_match(&f, &fl), "good2 matches");

	CHECK(!fc_filter_parse(2, good3, &f, err, sizeof(err)), "good3: %s", err);
	mk_flow(&fl, "cubic", AF_INET6, "fd00::1", 1, "fd00::2", 2);
	CHECK(fc_filter_match(&f, &fl), "v6 matches");
	mk_flow(&fl, "cubic", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	CHECK(!fc_filter_match(&f, &fl), "v6 filter, v4 flow");

	/* IPv4-mapped IPv6 socket addresses match IPv4 filters */
	fc_filter_parse(2, (char *[]){ "dst", "127.0.0.0/8" }, &f, err,
			sizeof(err));
	mk_flow(&fl, "cubic", AF_INET6, "::ffff:127.0.0.1", 1,
		"::ffff:127.0.0.1", 2);
	CHECK(fc_filter_match(&f, &fl), "mapped matches v4 prefix");
	CHECK(!strcmp(fc_addr_str(&fl.dst, b, sizeof(b)), "127.0.0.1"),
	      "mapped shown as v4: %s", b);
	CHECK(!strcmp(fc_endpoint_str(&fl.dst, 2, b, sizeof(b)), "127.0.0.1:2"),
	      "mapped endpoint: %s", b);
	mk_flow(&fl, "cubic", AF_INET6, "fd00::1", 1, "fd00::2", 80);
	CHECK(!strcmp(fc_endpoint_str(&fl.dst, 80, b, sizeof(b)), "[fd00::2]:80"),
	      "v6 endpoint: %s", b);

	CHECK(!fc_filter_parse(0, NULL, &f, err, sizeof(err)) && f.n == 0 &&
	      fc_filter_match(&f, &fl), "empty filter matches all");

	CHECK(fc_filter_parse(2, bad1, &f, err, sizeof(err)) &&
	      strstr(err, "unknown filter 'daddr'"), "bad1: %s", err);
	CHECK(fc_filter_parse(1, bad2, &f, err, sizeof(err)) &&
	      strstr(err, "needs a value"), "bad2: %s", err);
	CHECK(fc_filter_parse(2, bad3, &f, err, sizeof(err)) &&
	      strstr(err, "bad port '70000'"), "bad3: %s", err);
	CHECK(fc_filter_parse(2, bad4, &f, err, sizeof(err)) &&
	      strstr(err, "bad address"), "bad4: %s", err);
	CHECK(fc_filter_parse(2, bad5, &f, err, sizeof(err)), "bad5");
	CHECK(fc_filter_parse(3, bad6, &f, err, sizeof(err)), "bad6");
}

static void test_opts(void)
{
	char a0[] = "-a", a1[] = "--cc", a2[] = "cubic", a3[] = "-i", a4[] = "500",
	     a5[] = "dst", a6[] = "10.0.0.1", b0[] = "--interval=250",
	     b1[] = "--", b2[] = "-a", c0[] = "--json", c1[] = "-i", c2[] = "-x",
	     c3[] = "--all=1", c4[] = "--cc=abcdefghijklmnopq", c5[] = "-c",
	     c6[] = "0";
	char *ok1[] = { a0, a1, a2, a3, a4, a5, a6 }, *ok2[] = { b0, b1, b2 };
	struct fc_opts o = { .interval_ms = 1000 };
	unsigned int all = FC_O_ALL | FC_O_CC | FC_O_INTERVAL | FC_O_COUNT;
	char err[256];
	struct {
		char *argv[2];
		int argc;
		const char *msg;
	} bad[] = {
		{ { c0 }, 1, "option '--json' does not apply to 'show'" },
		{ { c1 }, 1, "option '-i' needs a value" },
		{ { c2 }, 1, "unknown option '-x' (fastctl --help)" },
		{ { c3 }, 1, "option '--all' takes no value" },
		{ { c4 }, 1, "bad congestion control name 'abcdefghijklmnopq'" },
		{ { c5, c6 }, 2, "bad count '0' (a positive integer)" },
	};
	size_t i;

	CHECK(!fc_opts_parse("show", 7, ok1, all, &o, err, sizeof(err)) &&
	      o.all && !strcmp(o.cc, "cubic") && o.interval_ms == 500 &&
	      o.npos == 2 && o.pos[0] == a5 && o.pos[1] == a6 && !o.pos[2] &&
	      o.seen == (FC_O_ALL | FC_O_CC | FC_O_INTERVAL), "options: %s", err);
	free(o.pos);
	memset(&o, 0, sizeof(o));
	CHECK(!fc_opts_parse("watch", 3, ok2, all, &o, err, sizeof(err)) &&
	      o.interval_ms == 250 && !o.all && o.npos == 1 && o.pos[0] == b2,
	      "--interval=, -- then -a positional");
	free(o.pos);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&o, 0, sizeof(o));
		CHECK(fc_opts_parse("show", bad[i].argc, bad[i].argv,
				    all & ~FC_O_JSON, &o, err, sizeof(err)) == -1 &&
		      !strcmp(err, bad[i].msg) && !o.pos,
		      "bad option %zu: %s", i, err);
	}
}

static void test_param_args(void)
{
	char p0[] = "alpha_pkts=40", p1[] = "gamma_min", p2[] = "alpha_pkts",
	     p3[] = "nope=1", p4[] = "gamma_min=900", p5[] = "gamma_max=800",
	     p6[] = "alpha_pkts=0",
	     p7[] = "a_name_longer_than_any_buffer_fastctl_keeps_for_one_name_of_a_tunable=1";
	char *ok[] = { p0, p1 }, *twice[] = { p2, p2 }, *unknown[] = { p3 },
	     *cross[] = { p4, p5 }, *range[] = { p6 }, *longname[] = { p7 };
	struct fc_param_args pa;
	char err[256];

	CHECK(!fc_param_args_parse(2, ok, &pa, err, sizeof(err)) &&
	      pa.nnamed == 2 && pa.nset == 1 && pa.set[FA_P_ALPHA_PKTS] &&
	      pa.want[FA_P_ALPHA_PKTS] == 40 && pa.named[FA_P_GAMMA_MIN] &&
	      !pa.set[FA_P_GAMMA_MIN], "params args: %s", err);
	CHECK(fc_param_args_parse(2, twice, &pa, err, sizeof(err)) == -1 &&
	      !strcmp(err, "parameter 'alpha_pkts' given twice"), "twice: %s", err);
	CHECK(fc_param_args_parse(1, unknown, &pa, err, sizeof(err)) == -1 &&
	      !strcmp(err, "unknown parameter 'nope' (fastctl params lists them)"),
	      "unknown: %s", err);
	CHECK(fc_param_args_parse(2, cross, &pa, err, sizeof(err)) == -1 &&
	      !strcmp(err, "gamma_min (900) must not exceed gamma_max (800)"),
	      "cross: %s", err);
	CHECK(fc_param_args_parse(1, range, &pa, err, sizeof(err)) == -1 &&
	      !strcmp(err, "alpha_pkts: 0 is out of range 1..65536"), "range: %s",
	      err);
	CHECK(fc_param_args_parse(1, longname, &pa, err, sizeof(err)) == -1 &&
	      strstr(err, "unknown parameter 'a_name_longer"), "long: %s", err);
}

static void test_params(void)
{
	uint32_t vals[FC_PARAM_MAX], v = 0;
	char err[256], dir[] = "/tmp/fastctl-test.XXXXXX", path[512];
	struct fa_params p;
	int i, a, gmin, gmax;
	FILE *f;

	a = fc_param_index("alpha_pkts");
	gmin = fc_param_index("gamma_min");
	gmax = fc_param_index("gamma_max");
	CHECK(a == FA_P_ALPHA_PKTS && gmin == FA_P_GAMMA_MIN &&
	      gmax == FA_P_GAMMA_MAX, "indices");
	CHECK(fc_param_index("nope") == -1, "unknown name");
	CHECK(fc_param_count == FA_P_COUNT, "%d tunables, got %d", FA_P_COUNT,
	      fc_param_count);

	CHECK(!fc_param_parse(a, "1", &v, err, sizeof(err)) && v == 1, "alpha min");
	CHECK(!fc_param_parse(a, "65536", &v, err, sizeof(err)) && v == 65536,
	      "alpha max");
	CHECK(fc_param_parse(a, "0", &v, err, sizeof(err)) &&
	      strstr(err, "out of range 1..65536"), "alpha 0: %s", err);
	CHECK(fc_param_parse(a, "65537", &v, err, sizeof(err)), "alpha over");
	CHECK(fc_param_parse(a, "ten", &v, err, sizeof(err)) &&
	      strstr(err, "not a non-negative decimal integer"), "alpha text: %s",
	      err);
	CHECK(fc_param_parse(a, "", &v, err, sizeof(err)), "empty value");
	CHECK(fc_param_parse(a, "0x10", &v, err, sizeof(err)), "hex refused");
	CHECK(fc_param_parse(a, "-3", &v, err, sizeof(err)), "negative");
	CHECK(fc_param_parse(a, "4294967296", &v, err, sizeof(err)), "u32 overflow");
	CHECK(!fc_param_parse(fc_param_index("ss_exit_pkts"), "0", &v, err,
			      sizeof(err)) && v == 0, "ss_exit 0 allowed");
	CHECK(fc_param_parse(fc_param_index("adaptive_gain"), "2", &v, err,
			     sizeof(err)), "bool 2");
	/* every row: both ends pass, one past each end fails */
	for (i = 0; i < fc_param_count; i++) {
		const struct fa_param_desc *d = &fc_param_defs[i];
		char s[32];

		snprintf(s, sizeof(s), "%u", d->min);
		CHECK(!fc_param_parse(i, s, &v, err, sizeof(err)), "%s min", d->name);
		snprintf(s, sizeof(s), "%u", d->max);
		CHECK(!fc_param_parse(i, s, &v, err, sizeof(err)), "%s max", d->name);
		snprintf(s, sizeof(s), "%llu", d->max + 1ULL);
		CHECK(fc_param_parse(i, s, &v, err, sizeof(err)), "%s max+1", d->name);
		if (d->min) {
			snprintf(s, sizeof(s), "%u", d->min - 1);
			CHECK(fc_param_parse(i, s, &v, err, sizeof(err)),
			      "%s min-1", d->name);
		}
		CHECK(d->def >= d->min && d->def <= d->max, "%s default", d->name);
		vals[i] = d->def;
	}
	CHECK(!fc_param_check_set(vals, err, sizeof(err)), "defaults consistent");
	vals[gmin] = 900;
	vals[gmax] = 800;
	CHECK(fc_param_check_set(vals, err, sizeof(err)) &&
	      strstr(err, "gamma_min (900) must not exceed gamma_max (800)"),
	      "cross: %s", err);
	vals[gmax] = 900;
	CHECK(!fc_param_check_set(vals, err, sizeof(err)), "equal gammas ok");

	/* sysfs round trip in a scratch directory */
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	setenv("FASTCTL_PARAM_DIR", dir, 1);
	CHECK(!strcmp(fc_param_dir(), dir), "param dir override");
	CHECK(fc_module_present(), "present with a dir");
	for (i = 0; i < fc_param_count; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, fc_param_defs[i].name);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "%u\n", fc_param_defs[i].def);
			fclose(f);
		}
	}
	CHECK(!fc_param_read(a, &v) && v == 20, "read alpha %u", v);
	CHECK(!fc_param_write(a, 33) && !fc_param_read(a, &v) && v == 33,
	      "write alpha %u", v);
	fc_params_live(&p);
	CHECK(p.alpha_pkts == 33 && p.gamma_min == 256 && p.ss_exit_pkts == 0 &&
	      fa_ss_exit_pkts(&p, 0) == 16 && fa_ss_exit_pkts(&p, 1000) == 99,
	      "live params alpha %u ss_exit %u", p.alpha_pkts, p.ss_exit_pkts);
	snprintf(path, sizeof(path), "%s/%s", dir, "gain_k");
	unlink(path);
	CHECK(fc_param_read(fc_param_index("gain_k"), &v) == -ENOENT,
	      "missing file -ENOENT");
	for (i = 0; i < fc_param_count; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, fc_param_defs[i].name);
		unlink(path);
	}
	rmdir(dir);
	CHECK(!fc_module_present(), "absent when the dir is gone");
	unsetenv("FASTCTL_PARAM_DIR");
}

/* len bytes of src copied to end where an inaccessible page begins. */
struct guarded {
	char *map;
	long pg;
};

static void *guarded_copy(struct guarded *g, const void *src, size_t len)
{
	g->pg = sysconf(_SC_PAGESIZE);
	g->map = mmap(NULL, 2 * g->pg, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED || mprotect(g->map + g->pg, g->pg, PROT_NONE))
		abort();
	return memcpy(g->map + g->pg - len, src, len);
}

static void guarded_free(struct guarded *g)
{
	munmap(g->map, 2 * g->pg);
}

/* Build a SOCK_DIAG_BY_FAMILY answer by hand. */
static size_t put_attr(char *buf, size_t off, int type, const void *data,
		       size_t len)
{
	struct rtattr *rta = (struct rtattr *)(buf + off);

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	return off + RTA_SPACE(len);
}

static void test_diag_parse(void)
{
	char buf[2048] __attribute__((aligned(8)));
	struct inet_diag_msg *r = (struct inet_diag_msg *)buf;
	struct tcpvegas_info vi = { 0 };
	struct tcp_info ti;
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	struct fc_flow fl;
	size_t off;
	char b[64];

	memset(buf, 0, sizeof(buf));
	memset(&ti, 0, sizeof(ti));
	r->idiag_family = AF_INET;
	r->idiag_state = FC_TCP_ESTABLISHED;
	r->id.idiag_sport = htons(40000);
	r->id.idiag_dport = htons(5201);
	inet_pton(AF_INET, "10.0.1.1", r->id.idiag_src);
	inet_pton(AF_INET, "10.0.2.1", r->id.idiag_dst);
	r->id.idiag_cookie[0] = 0x11223344;
	r->id.idiag_cookie[1] = 0x55667788;
	r->idiag_uid = 1000;
	r->idiag_inode = 4242;
	off = NLMSG_ALIGN(sizeof(*r));
	ti.tcpi_snd_cwnd = 77;
	ti.tcpi_min_rtt = 50000;
	ti.tcpi_busy_time = 123;
	off = put_attr(buf, off, INET_DIAG_INFO, &ti, sizeof(ti));
	vi.tcpv_enabled = FA_INFO_ENABLED | FA_PHASE_LAW << FA_INFO_PHASE_SHIFT |
			  300U << FA_INFO_GAMMA_SHIFT;
	vi.tcpv_rtt = 52000;
	vi.tcpv_minrtt = 50000;
	off = put_attr(buf, off, INET_DIAG_VEGASINFO, &vi, sizeof(vi));
	off = put_attr(buf, off, INET_DIAG_CONG, "fast_adaptive", 14);
	mem[SK_MEMINFO_SNDBUF] = 87040;
	mem[SK_MEMINFO_RCVBUF] = 131072;
	off = put_attr(buf, off, INET_DIAG_SKMEMINFO, mem, sizeof(mem));

	CHECK(!fc_diag_parse(buf, off, &fl), "parse v4");
	CHECK(fl.sport == 40000 && fl.dport == 5201, "ports");
	CHECK(!strcmp(fc_addr_str(&fl.src, b, sizeof(b)), "10.0.1.1"), "src %s", b);
	CHECK(!strcmp(fc_addr_str(&fl.dst, b, sizeof(b)), "10.0.2.1"), "dst %s", b);
	CHECK(fl.cookie == 0x5566778811223344ULL, "cookie %llx",
	      (unsigned long long)fl.cookie);
	CHECK(fl.uid == 1000 && fl.inode == 4242, "uid inode");
	CHECK(!strcmp(fl.cc, "fast_adaptive"), "cc %s", fl.cc);
	CHECK(fl.has_info && fl.info.tcpi_snd_cwnd == 77 &&
	      fl.info_len == sizeof(ti), "info");
	CHECK(FC_HAS(&fl, tcpi_busy_time) && fl.info.tcpi_busy_time == 123,
	      "busy present");
	CHECK(fl.has_vegas && fl.vegas.tcpv_rtt == 52000 &&
	      FA_INFO_GAMMA(fl.vegas.tcpv_enabled) == 300, "vegas");
	CHECK(fl.mem_n == SK_MEMINFO_VARS && fl.mem[SK_MEMINFO_SNDBUF] == 87040,
	      "meminfo");

	/* Competitive mode for 12 s: phase 4, bits 1-7 = 12. */
	{
		size_t coff = NLMSG_ALIGN(sizeof(*r));
		struct fa_params p;
		struct fc_view v;

		vi.tcpv_enabled = FA_INFO_ENABLED |
				  FA_INFO_PHASE_COMPETE << FA_INFO_PHASE_SHIFT |
				  12U << FA_INFO_COMPETE_S_SHIFT |
				  300U << FA_INFO_GAMMA_SHIFT;
		coff = put_attr(buf, coff, INET_DIAG_INFO, &ti, sizeof(ti));
		coff = put_attr(buf, coff, INET_DIAG_VEGASINFO, &vi, sizeof(vi));
		coff = put_attr(buf, coff, INET_DIAG_CONG, "fast_adaptive", 14);
		fa_params_default(&p);
		CHECK(!fc_diag_parse(buf, coff, &fl), "parse compete");
		fc_view_make(&fl, &p, &v);
		CHECK(FA_INFO_PHASE(fl.vegas.tcpv_enabled) == 4 &&
		      FA_INFO_COMPETE_S(fl.vegas.tcpv_enabled) == 12 &&
		      FA_INFO_GAMMA(fl.vegas.tcpv_enabled) == 300 &&
		      (fl.vegas.tcpv_enabled & FA_INFO_ENABLED),
		      "compete bits %#x", fl.vegas.tcpv_enabled);
		CHECK(!strcmp(v.phase, "compete") && v.competing &&
		      v.compete_s == 12 && v.gamma_q10 == 300,
		      "compete from diag: %s %u", v.phase, v.compete_s);
	}

	/* An older kernel's shorter tcp_info: later fields are absent. */
	off = NLMSG_ALIGN(sizeof(*r));
	off = put_attr(buf, off, INET_DIAG_INFO, &ti,
		       offsetof(struct tcp_info, tcpi_min_rtt));
	CHECK(!fc_diag_parse(buf, off, &fl), "parse short info");
	CHECK(fl.has_info && !FC_HAS(&fl, tcpi_min_rtt) &&
	      !FC_HAS(&fl, tcpi_busy_time) && FC_HAS(&fl, tcpi_snd_cwnd),
	      "short info fields");
	CHECK(fl.cc[0] == '\0' && !fl.has_vegas && fl.mem_n == 0, "no attrs");

	/* A name without NUL and longer than the kernel allows is cut. */
	off = NLMSG_ALIGN(sizeof(*r));
	off = put_attr(buf, off, INET_DIAG_CONG, "abcdefghijklmnopqrstuvwxyz", 26);
	CHECK(!fc_diag_parse(buf, off, &fl) &&
	      strlen(fl.cc) == FC_CA_NAME_MAX, "long cc cut: %s", fl.cc);

	/* A short VEGASINFO is ignored. */
	off = NLMSG_ALIGN(sizeof(*r));
	off = put_attr(buf, off, INET_DIAG_VEGASINFO, &vi, 8);
	CHECK(!fc_diag_parse(buf, off, &fl) && !fl.has_vegas, "short vegas");

	/* IPv6 */
	r->idiag_family = AF_INET6;
	inet_pton(AF_INET6, "fd00::1", r->id.idiag_src);
	inet_pton(AF_INET6, "fd00::2", r->id.idiag_dst);
	CHECK(!fc_diag_parse(buf, NLMSG_ALIGN(sizeof(*r)), &fl) &&
	      fl.src.family == AF_INET6, "parse v6");
	CHECK(!strcmp(fc_addr_str(&fl.dst, b, sizeof(b)), "fd00::2"), "v6 dst %s", b);

	CHECK(fc_diag_parse(buf, sizeof(*r) - 1, &fl) == -1, "too short");
	r->idiag_family = AF_UNIX;
	CHECK(fc_diag_parse(buf, sizeof(*r), &fl) == -1, "bad family");

	/*
	 * Found by fuzz_fastctl: a last attribute without its padding (here
	 * the name, rta_len 9, the message ending right after it) made
	 * RTA_NEXT() wrap the remaining length and read past the message.
	 * The message ends where an inaccessible page begins, so such a read
	 * faults.
	 */
	{
		struct guarded g;
		void *p;
		size_t n;

		r->idiag_family = AF_INET;
		off = NLMSG_ALIGN(sizeof(*r));
		off = put_attr(buf, off, INET_DIAG_CONG, "cubic", 5);
		n = off - (RTA_SPACE(5) - RTA_LENGTH(5));	/* no padding */
		p = guarded_copy(&g, buf, n);
		CHECK(!fc_diag_parse(p, n, &fl) && !strcmp(fl.cc, "cubic"),
		      "unpadded last attribute: %s", fl.cc);
		guarded_free(&g);
	}
}

/* Append one netlink message to a datagram; returns the new length. */
static size_t put_msg(char *dg, size_t off, uint16_t type, uint32_t seq,
		      const void *data, size_t len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(dg + off);

	h->nlmsg_len = NLMSG_LENGTH(len);
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_MULTI;
	h->nlmsg_seq = seq;
	h->nlmsg_pid = 0;
	memcpy(NLMSG_DATA(h), data, len);
	return off + NLMSG_ALIGN(h->nlmsg_len);
}

static void test_diag_decode(void)
{
	char msg[256] __attribute__((aligned(8)));
	char dg[2048] __attribute__((aligned(8)));
	struct inet_diag_msg *r = (struct inet_diag_msg *)msg;
	struct fc_flows out = { 0 };
	struct nlmsgerr ne;
	struct guarded g;
	size_t mlen, off;
	char err[128];
	int ret, done = 0;
	void *p;

	memset(msg, 0, sizeof(msg));
	memset(&ne, 0, sizeof(ne));
	r->idiag_family = AF_INET;
	r->idiag_state = FC_TCP_ESTABLISHED;
	r->id.idiag_sport = htons(40000);
	mlen = put_attr(msg, NLMSG_ALIGN(sizeof(*r)), INET_DIAG_CONG,
			"cubic", 6);

	/* two answers, one of another dump, one malformed, then DONE */
	off = put_msg(dg, 0, SOCK_DIAG_BY_FAMILY, 7, msg, mlen);
	off = put_msg(dg, off, SOCK_DIAG_BY_FAMILY, 8, msg, mlen);
	off = put_msg(dg, off, SOCK_DIAG_BY_FAMILY, 7, msg, 10);
	r->id.idiag_sport = htons(40001);
	off = put_msg(dg, off, SOCK_DIAG_BY_FAMILY, 7, msg, mlen);
	ret = fc_diag_decode(dg, off, 7, AF_INET, 3.5, &out, err, sizeof(err));
	CHECK(ret == 0 && out.n == 2 && out.v[0].sport == 40000 &&
	      out.v[1].sport == 40001 && out.v[1].t == 3.5 &&
	      !strcmp(out.v[1].cc, "cubic"), "decode: ret %d n %zu", ret, out.n);
	off = put_msg(dg, off, NLMSG_DONE, 7, &done, sizeof(done));
	out.n = 0;
	ret = fc_diag_decode(dg, off, 7, AF_INET, 3.5, &out, err, sizeof(err));
	CHECK(ret == 1 && out.n == 2, "decode to DONE: ret %d n %zu", ret, out.n);

	/* errors */
	ne.error = -EPERM;
	off = put_msg(dg, 0, NLMSG_ERROR, 7, &ne, sizeof(ne));
	ret = fc_diag_decode(dg, off, 7, AF_INET, 0, &out, err, sizeof(err));
	CHECK(ret == -EPERM && !strcmp(err, "sock_diag: Operation not permitted"),
	      "EPERM: %d %s", ret, err);
	ne.error = -ENOENT;
	off = put_msg(dg, 0, NLMSG_ERROR, 7, &ne, sizeof(ne));
	CHECK(fc_diag_decode(dg, off, 7, AF_INET6, 0, &out, err,
			     sizeof(err)) == 1, "no IPv6: an empty dump");
	CHECK(fc_diag_decode(dg, off, 7, AF_INET, 0, &out, err,
			     sizeof(err)) == -ENOENT, "ENOENT for IPv4");
	ne.error = 0;
	off = put_msg(dg, 0, NLMSG_ERROR, 7, &ne, sizeof(ne));
	CHECK(fc_diag_decode(dg, off, 7, AF_INET, 0, &out, err,
			     sizeof(err)) == 1, "an ack ends the dump");

	/*
	 * Found by fuzz_fastctl: an error code out of range (-INT_MIN is
	 * undefined) and an error message too short for its code (read past
	 * the datagram) are malformed.
	 */
	ne.error = INT_MIN;
	off = put_msg(dg, 0, NLMSG_ERROR, 7, &ne, sizeof(ne));
	ret = fc_diag_decode(dg, off, 7, AF_INET, 0, &out, err, sizeof(err));
	CHECK(ret == -EPROTO && strstr(err, "malformed"), "INT_MIN: %d %s", ret,
	      err);
	ne.error = 5;
	off = put_msg(dg, 0, NLMSG_ERROR, 7, &ne, sizeof(ne));
	ret = fc_diag_decode(dg, off, 7, AF_INET, 0, &out, err, sizeof(err));
	CHECK(ret == -EPROTO, "positive error code: %d", ret);
	off = put_msg(dg, 0, NLMSG_ERROR, 7, &ne, 0);
	p = guarded_copy(&g, dg, off);
	ret = fc_diag_decode(p, off, 7, AF_INET, 0, &out, err, sizeof(err));
	CHECK(ret == -EPROTO, "error message without a code: %d", ret);
	guarded_free(&g);

	/*
	 * Found by fuzz_fastctl: a datagram whose last message lacks its
	 * padding made NLMSG_NEXT() step past its end (the length left went
	 * negative and, cast to size_t, looked huge).
	 */
	off = put_msg(dg, 0, SOCK_DIAG_BY_FAMILY, 7, msg, mlen);
	off = put_msg(dg, off, SOCK_DIAG_BY_FAMILY, 7, msg, mlen - 1);
	off -= NLMSG_ALIGN(NLMSG_LENGTH(mlen - 1)) - NLMSG_LENGTH(mlen - 1);
	out.n = 0;
	p = guarded_copy(&g, dg, off);
	ret = fc_diag_decode(p, off, 7, AF_INET, 0, &out, err, sizeof(err));
	CHECK(ret == 0 && out.n == 2, "unpadded last message: %d %zu", ret,
	      out.n);
	guarded_free(&g);
	fc_flows_free(&out);
}

static void test_view(void)
{
	struct fa_params p;
	struct fc_flow fl;
	struct fc_view v;

	fa_params_default(&p);

	/* b = 100 (60000 - 50000) / 60000 = 16.67; target = 83 + 20 */
	mk_fa(&fl, FA_PHASE_LAW, 512, 50000, 60000);
	fc_view_make(&fl, &p, &v);
	CHECK(v.is_fa && !strcmp(v.phase, "law"), "law phase %s", v.phase);
	CHECK(v.base_known && v.base_rtt_us == 50000 && v.avg_rtt_us == 60000,
	      "rtts");
	CHECK(v.backlog_known && fabs(v.backlog_pkts - 16.6667) < 0.01,
	      "backlog %f", v.backlog_pkts);
	CHECK(v.target_cwnd == 103, "target %u", v.target_cwnd);
	CHECK(fabs(v.dist - (20 - 16.6667) / 20) < 0.01, "dist %f", v.dist);
	CHECK(v.gamma_next >= p.gamma_min / 1024.0 &&
	      v.gamma_next <= p.gamma_max / 1024.0, "gamma_next %f", v.gamma_next);
	CHECK(v.gamma_known && v.gamma_q10 == 512, "gamma");
	CHECK(v.ssthresh_set && v.ssthresh == 80, "ssthresh");
	CHECK(v.delivery_bps == 50000000 && v.pacing_bps == 60000000, "rates");
	CHECK(v.sndbuf_known && v.sndbuf == 4 << 20, "sndbuf");

	mk_fa(&fl, FA_PHASE_SS, 0, 50000, 50000);
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "slow_start") && v.backlog_pkts == 0,
	      "ss phase %s", v.phase);
	mk_fa(&fl, FA_PHASE_PROBE, 0, 50000, 50000);
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "probe"), "probe phase %s", v.phase);

	/* competitive mode: phase 4, whole seconds in bits 1-7 */
	CHECK(FA_INFO_PHASE_COMPETE == 4 && FA_INFO_COMPETE_S_SHIFT == 1 &&
	      FA_INFO_COMPETE_S_MASK == 0x7f && FA_INFO_COMPETE_S_MAX == 127,
	      "compete constants");
	/*
	 * fastctl names FA_INFO_PHASE_*, the module reports enum fa_phase:
	 * each of the law's phases gets its name.
	 */
	{
		static const struct {
			unsigned int phase;
			const char *name;
		} names[] = {
			{ FA_PHASE_SS, "slow_start" }, { FA_PHASE_LAW, "law" },
			{ FA_PHASE_PROBE, "probe" }, { FA_PHASE_RAMP, "ramp" },
		};
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			mk_fa(&fl, names[i].phase, 512, 50000, 60000);
			fc_view_make(&fl, &p, &v);
			CHECK(!strcmp(v.phase, names[i].name) && !v.competing,
			      "enum fa_phase %u: %s", names[i].phase, v.phase);
		}
	}
	mk_compete(&fl, 0);
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "compete") && v.competing && v.compete_s == 0,
	      "compete < 1 s: %s %u", v.phase, v.compete_s);
	CHECK(v.gamma_known && v.gamma_q10 == 512 && v.backlog_known,
	      "compete keeps gamma and backlog");
	mk_compete(&fl, 12);
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "compete") && v.competing && v.compete_s == 12,
	      "compete 12 s: %s %u", v.phase, v.compete_s);
	mk_compete(&fl, 127);
	fc_view_make(&fl, &p, &v);
	CHECK(v.competing && v.compete_s == 127, "compete saturated: %u",
	      v.compete_s);
	CHECK(FA_INFO_COMPETE_S(0xffffffffU) == 127 &&
	      FA_INFO_COMPETE_S(FA_INFO_ENABLED | 12U << 1 | 0xffff0400U) == 12,
	      "FA_INFO_COMPETE_S takes bits 1-7 only");
	/* the kernel's loss recovery shows as phase; the mode stays known */
	mk_compete(&fl, 12);
	fl.info.tcpi_ca_state = 3;
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "recovery") && v.competing && v.compete_s == 12,
	      "compete in recovery: %s %u", v.phase, v.compete_s);
	/* seconds bits in another phase mean nothing */
	mk_fa(&fl, FA_PHASE_LAW, 512, 50000, 60000);
	fl.vegas.tcpv_enabled |= 12U << FA_INFO_COMPETE_S_SHIFT;
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "law") && !v.competing && v.compete_s == 0,
	      "law with stray seconds bits: %s %u", v.phase, v.compete_s);
	mk_fa(&fl, 5, 512, 50000, 60000);
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "unknown") && !v.competing,
	      "unknown phase %s", v.phase);

	mk_fa(&fl, FA_PHASE_LAW, 512, 50000, 60000);
	fl.info.tcpi_ca_state = 3;
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "recovery") && !strcmp(v.ca_state, "recovery"),
	      "recovery %s", v.phase);
	fl.info.tcpi_ca_state = 4;
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "loss"), "loss %s", v.phase);

	/* before any sample the module reports 0: unknown, no backlog */
	mk_fa(&fl, FA_PHASE_SS, 0, 0, 0);
	fc_view_make(&fl, &p, &v);
	CHECK(!v.base_known && !v.avg_known && !v.backlog_known, "unknown rtts");

	mk_flow(&fl, "cubic", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	fc_view_make(&fl, &p, &v);
	CHECK(!v.is_fa && !strcmp(v.phase, "slow_start") && !v.ssthresh_set &&
	      !v.gamma_known && !v.base_known, "cubic initial %s", v.phase);
	fl.info.tcpi_snd_ssthresh = 50;
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "cong_avoid"), "cubic ca %s", v.phase);
	fl.info.tcpi_min_rtt = 0xffffffff;
	fc_view_make(&fl, &p, &v);
	CHECK(!v.min_rtt_known, "min rtt unknown");

	/* vegas answers VEGASINFO too: RTTs and backlog, no gamma */
	mk_flow(&fl, "vegas", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	fl.has_vegas = true;
	fl.vegas.tcpv_enabled = 1;
	fl.vegas.tcpv_rtt = 60000;
	fl.vegas.tcpv_minrtt = 50000;
	fc_view_make(&fl, &p, &v);
	CHECK(v.backlog_known && !v.gamma_known, "vegas view");
	/* another module's tcpv_enabled is not fast_adaptive's phase */
	fl.vegas.tcpv_enabled = FA_INFO_ENABLED |
				FA_INFO_PHASE_COMPETE << FA_INFO_PHASE_SHIFT |
				12U << FA_INFO_COMPETE_S_SHIFT;
	fc_view_make(&fl, &p, &v);
	CHECK(!v.competing && strcmp(v.phase, "compete"),
	      "vegas never competes: %s", v.phase);

	fl.has_info = false;
	fc_view_make(&fl, &p, &v);
	CHECK(!strcmp(v.phase, "-"), "no info phase");
	CHECK(!strcmp(fc_state_name(FC_TCP_ESTABLISHED), "ESTAB") &&
	      !strcmp(fc_state_name(FC_TCP_CLOSE_WAIT), "CLOSE-WAIT") &&
	      !strcmp(fc_state_name(200), "UNKNOWN"), "state names");
}

static void test_json(void)
{
	struct fa_params p;
	struct fc_flow fl;
	struct fc_view v;
	struct fc_json j;
	struct cap c;
	char *s;

	fa_params_default(&p);

	cap_open(&c);
	fc_json_escape(c.f, "a\"b\\c\n\t\x01z");
	s = cap_close(&c);
	CHECK(!strcmp(s, "\"a\\\"b\\\\c\\n\\t\\u0001z\""), "escape %s", s);
	CHECK(json_valid(s), "escape valid");
	free(s);

	/*
	 * Found by fuzz_fastctl: a congestion control name that is not UTF-8
	 * made invalid JSON.  Valid sequences pass, other bytes are U+FFFD.
	 */
	cap_open(&c);
	fc_json_escape(c.f, "\x9a\x9e\x8c" "aptive \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"
		       " \xc0\xaf \xed\xa0\x80 \xe2\x82");
	s = cap_close(&c);
	CHECK(!strcmp(s, "\"\\ufffd\\ufffd\\ufffdaptive \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"
		  " \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\""),
	      "non-UTF-8 escape %s", s);
	CHECK(json_valid(s), "non-UTF-8 escape valid: %s", s);
	free(s);

	mk_fa(&fl, FA_PHASE_LAW, 512, 50000, 60000);
	fc_view_make(&fl, &p, &v);
	cap_open(&c);
	fc_json_init(&j, c.f, false);
	fc_json_obj_begin(&j, NULL);
	fc_json_u64(&j, "schema", FC_SCHEMA);
	fc_json_arr_begin(&j, "flows");
	fc_json_obj_begin(&j, NULL);
	fc_json_flow(&j, &fl, &v);
	fc_json_obj_end(&j);
	mk_flow(&fl, "cubic", AF_INET6, "fd00::1", 1, "fd00::2", 2);
	fc_view_make(&fl, &p, &v);
	fc_json_obj_begin(&j, NULL);
	fc_json_flow(&j, &fl, &v);
	fc_json_obj_end(&j);
	fc_json_arr_end(&j);
	fc_json_obj_end(&j);
	s = cap_close(&c);
	CHECK(json_valid(s), "show json valid:\n%s", s);
	CHECK(strstr(s, "\"base_rtt_us\": 50000"), "base field");
	CHECK(strstr(s, "\"avg_rtt_us\": 60000"), "avg field");
	CHECK(strstr(s, "\"backlog_pkts\": 16.67"), "backlog field");
	CHECK(strstr(s, "\"phase\": \"law\""), "phase field");
	CHECK(strstr(s, "\"gamma\": 0.5000"), "gamma field");
	CHECK(strstr(s, "\"gamma_q10\": 512"), "gamma_q10 field");
	CHECK(strstr(s, "\"target_cwnd\": 103"), "target field");
	CHECK(strstr(s, "\"family\": \"ipv6\""), "family v6");
	CHECK(strstr(s, "\"base_rtt_us\": null"), "null base for cubic");
	CHECK(strstr(s, "\"ssthresh\": null"), "null infinite ssthresh");
	CHECK(strstr(s, "\"delivery_rate_bps\": 50000000"), "delivery bps");
	CHECK(strstr(s, "\"phase\": \"law\",\n      \"compete_s\": null,"),
	      "compete_s null when not competing");
	free(s);

	/* competitive mode: phase "compete" and its seconds */
	mk_compete(&fl, 12);
	fc_view_make(&fl, &p, &v);
	cap_open(&c);
	fc_json_init(&j, c.f, true);
	fc_json_obj_begin(&j, NULL);
	fc_json_flow(&j, &fl, &v);
	fc_json_obj_end(&j);
	s = cap_close(&c);
	CHECK(json_valid(s), "compete json valid: %s", s);
	CHECK(strstr(s, "\"phase\":\"compete\",\"compete_s\":12,"),
	      "compete json: %s", s);
	free(s);
	mk_compete(&fl, 127);
	fc_view_make(&fl, &p, &v);
	cap_open(&c);
	fc_json_init(&j, c.f, true);
	fc_json_obj_begin(&j, NULL);
	fc_json_flow(&j, &fl, &v);
	fc_json_obj_end(&j);
	s = cap_close(&c);
	CHECK(strstr(s, "\"compete_s\":127,"), "compete json 127: %s", s);
	free(s);
	mk_compete(&fl, 0);
	fl.info.tcpi_ca_state = 4;
	fc_view_make(&fl, &p, &v);
	cap_open(&c);
	fc_json_init(&j, c.f, true);
	fc_json_obj_begin(&j, NULL);
	fc_json_flow(&j, &fl, &v);
	fc_json_obj_end(&j);
	s = cap_close(&c);
	CHECK(strstr(s, "\"phase\":\"loss\",\"compete_s\":0,"),
	      "compete json in loss, < 1 s: %s", s);
	free(s);

	/* compact, and the empty containers */
	cap_open(&c);
	fc_json_init(&j, c.f, true);
	fc_json_obj_begin(&j, NULL);
	fc_json_arr_begin(&j, "flows");
	fc_json_arr_end(&j);
	fc_json_obj_begin(&j, "o");
	fc_json_obj_end(&j);
	fc_json_dbl(&j, "nan", NAN, 2);
	fc_json_bool(&j, "t", true);
	fc_json_s64(&j, "neg", -5);
	fc_json_obj_end(&j);
	s = cap_close(&c);
	CHECK(!strcmp(s, "{\"flows\":[],\"o\":{},\"nan\":null,\"t\":true,\"neg\":-5}\n"),
	      "compact %s", s);
	CHECK(json_valid(s), "compact valid");
	free(s);

	CHECK(!json_valid("{\"a\":}"), "checker rejects bad json");
	CHECK(!json_valid("{\"a\":1,}"), "checker rejects trailing comma");
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int count_fields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

static void test_csv(void)
{
	struct fa_params p;
	struct fc_flow fl;
	struct fc_view v;
	struct cap c;
	char *s, *row, *fields[64];
	char line[] = "1.000,0,,x\r\n";
	int n;

	fa_params_default(&p);
	cap_open(&c);
	fc_csv_header(c.f);
	mk_fa(&fl, FA_PHASE_LAW, 512, 50000, 60000);
	fc_view_make(&fl, &p, &v);
	fc_csv_row(c.f, 1.5, 0, &fl, &v);
	mk_flow(&fl, "cubic", AF_INET6, "fd00::1", 1, "fd00::2", 2);
	fc_view_make(&fl, &p, &v);
	fc_csv_row(c.f, 2.25, 1, &fl, &v);
	mk_compete(&fl, 12);
	fc_view_make(&fl, &p, &v);
	fc_csv_row(c.f, 3, 2, &fl, &v);
	s = cap_close(&c);

	CHECK(!strncmp(s, "time_s,flow,src,sport,dst,dport,cc,phase,cwnd,", 46),
	      "header %.60s", s);
	CHECK(count_fields(s) == fc_csv_ncolumns, "header fields");
	row = strchr(s, '\n') + 1;
	CHECK(count_fields(row) == fc_csv_ncolumns, "row fields %d",
	      count_fields(row));
	CHECK(starts(row, "1.500,0,10.0.1.1,40000,10.0.2.1,5201,fast_adaptive,law,100,80,55000,50000,50000,60000,16.67,0.5000,103,60000000,50000000,"),
	      "fa row %.130s", row);
	row = strchr(row, '\n') + 1;
	CHECK(count_fields(row) == fc_csv_ncolumns, "row2 fields");
	CHECK(starts(row, "2.250,1,fd00::1,1,fd00::2,2,cubic,slow_start,100,,55000,50000,,,,,,60000000,"),
	      "cubic row %.80s", row);
	CHECK(strstr(s, ",sndbuf_limited_us,compete_s\n"), "compete_s column last");
	CHECK(strstr(s, ",0,0,0,\n3.000,2,"), "compete_s empty when not competing");
	row = strchr(row, '\n') + 1;
	CHECK(count_fields(row) == fc_csv_ncolumns &&
	      starts(row, "3.000,2,10.0.1.1,40000,10.0.2.1,5201,fast_adaptive,compete,100,") &&
	      !strcmp(strrchr(row, ','), ",12\n"), "compete row %s", row);
	free(s);

	n = fc_csv_split(line, fields, 64);
	CHECK(n == 4 && !strcmp(fields[0], "1.000") && !*fields[2] &&
	      !strcmp(fields[3], "x"), "split");

	/*
	 * Found by fuzz_fastctl: a congestion control name with a newline or
	 * a comma broke the CSV row (and a newline the table row).
	 */
	mk_flow(&fl, "a,b\nc\x1b", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	fc_view_make(&fl, &p, &v);
	cap_open(&c);
	fc_csv_row(c.f, 1, 0, &fl, &v);
	s = cap_close(&c);
	CHECK(count_fields(s) == fc_csv_ncolumns && strchr(s, '\n') &&
	      !strchr(s, '\n')[1] && strstr(s, ",a?b?c?,"), "odd cc csv: %s", s);
	free(s);
	cap_open(&c);
	fc_table_row(c.f, &fl, &v);
	s = cap_close(&c);
	CHECK(strstr(s, " a,b?c? ") && !strchr(s, '\n')[1] && !strchr(s, 0x1b),
	      "odd cc table: %s", s);
	free(s);
}

static void set_chrono(struct fc_flow *fl, double t, uint64_t busy,
		       uint64_t rwnd, uint64_t sndbuf, uint64_t acked,
		       uint64_t recv)
{
	fl->t = t;
	fl->info.tcpi_busy_time = busy;
	fl->info.tcpi_rwnd_limited = rwnd;
	fl->info.tcpi_sndbuf_limited = sndbuf;
	fl->info.tcpi_bytes_acked = acked;
	fl->info.tcpi_bytes_received = recv;
}

static bool any_has(const char (*lines)[FC_LINE], int n, const char *needle)
{
	int i;

	for (i = 0; i < n; i++)
		if (strstr(lines[i], needle))
			return true;
	return false;
}

static void test_doctor(void)
{
	struct fc_doctor_opts o = { 0 };
	struct fc_flow a, b;
	struct fc_verdict r;
	struct fa_params p;

	fa_params_default(&p);

	/* receive-window-limited: 80 % of a 1 s window */
	mk_flow(&a, "cubic", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	set_chrono(&a, 10.0, 5000000, 1000000, 0, 1000000, 0);
	b = a;
	set_chrono(&b, 11.0, 6000000, 1800000, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_RWND, "rwnd: %s", fc_limit_name(r.limit));
	CHECK(r.windowed && fabs(r.f_rwnd - 0.8) < 1e-6 &&
	      fabs(r.f_cwnd - 0.2) < 1e-6 && r.f_app < 1e-6, "rwnd fractions");
	CHECK(any_has(r.advice, r.nadvice, "tcp_rmem"), "rwnd advice");
	CHECK(any_has(r.notes, r.nnotes, "carries at most"), "rwnd note");
	/* BDP = 50 Mbit/s x 50 ms = 312500 bytes */
	CHECK(r.bdp_bytes == 312500, "bdp %llu", (unsigned long long)r.bdp_bytes);

	/*
	 * Found by fuzz_fastctl: a delivery rate and min RTT whose product is
	 * beyond 2^64 bytes overflowed the double-to-integer cast (UB); the
	 * BDP saturates instead.
	 */
	{
		struct fc_flow h = b;
		struct fc_verdict rh;

		h.info.tcpi_delivery_rate = UINT64_MAX / 16;
		h.info.tcpi_min_rtt = 4000000000U;
		fc_doctor(NULL, &h, NULL, &p, &o, &rh);
		CHECK(rh.bdp_bytes == UINT64_MAX, "huge bdp %llu",
		      (unsigned long long)rh.bdp_bytes);
		h.info.tcpi_delivery_rate = 0;
		fc_doctor(NULL, &h, NULL, &p, &o, &rh);
		CHECK(rh.bdp_bytes == 0, "no delivery rate: bdp %llu",
		      (unsigned long long)rh.bdp_bytes);
	}

	/* the window already holds 2 x BDP at 1 Gbit/s x 50 ms? no: 1 MiB */
	CHECK(any_has(r.advice, r.nadvice, "for 1 Gbit/s (--rate RATE"),
	      "example links: %s", r.advice[0]);
	/* with --rate: the 1 MiB window already holds 100 Mbit/s x 50 ms */
	o.rate_bps = 100000000;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.advice, r.nadvice, "peer's window (1.0MiB) already holds"),
	      "window big enough: %s", r.advice[0]);
	/* a 32 KiB window: exact sysctl, 2 x 100 Mbit/s x 50 ms = 1250000 */
	b.info.tcpi_snd_wnd = 32768;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.advice, r.nadvice,
		      "sysctl -w net.ipv4.tcp_rmem='4096 131072 1250000'"),
	      "rate advice: %s", r.advice[0]);
	o.rate_bps = 0;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.notes, r.nnotes, "usually means the application set SO_RCVBUF"),
	      "small window hint");
	/* loopback: 2 us RTT, any window holds 1 Gbit/s: the reader is slow */
	b.info.tcpi_min_rtt = 2;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.advice, r.nadvice, "reads too slowly"), "slow reader: %s",
	      r.advice[0]);
	b.info.tcpi_min_rtt = 50000;

	/* send-buffer-limited */
	set_chrono(&a, 10.0, 5000000, 0, 1000000, 1000000, 0);
	set_chrono(&b, 11.0, 6000000, 0, 1700000, 3000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_SNDBUF, "sndbuf: %s", fc_limit_name(r.limit));
	CHECK(any_has(r.advice, r.nadvice, "tcp_wmem") &&
	      any_has(r.advice, r.nadvice, "SO_SNDBUF"), "sndbuf advice");
	CHECK(strstr(r.summary, "4.0MiB") != NULL, "sndbuf size: %s", r.summary);

	/* the kernel's sndbuf stopwatch says nothing; the snapshots do */
	{
		struct fc_snaps sn = { .n = 10, .sndbuf = 8 };
		struct fc_flow x;

		mk_flow(&x, "fast_adaptive", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
		x.info.tcpi_snd_cwnd = 100;
		x.info.tcpi_unacked = 40;
		x.info.tcpi_notsent_bytes = 0;
		x.mem[SK_MEMINFO_SNDBUF] = 32768;
		x.mem[SK_MEMINFO_WMEM_QUEUED] = 30000;
		CHECK(fc_snap_sndbuf_limited(&x), "snapshot: sndbuf-limited");
		x.info.tcpi_unacked = 99;
		CHECK(!fc_snap_sndbuf_limited(&x), "snapshot: cwnd full");
		x.info.tcpi_unacked = 40;
		x.info.tcpi_notsent_bytes = 20000;
		CHECK(!fc_snap_sndbuf_limited(&x), "snapshot: data waiting (rwnd/cwnd)");
		x.info.tcpi_notsent_bytes = 0;
		x.mem[SK_MEMINFO_WMEM_QUEUED] = 4000;
		CHECK(!fc_snap_sndbuf_limited(&x), "snapshot: buffer nearly empty");
		x.mem_n = SK_MEMINFO_WMEM_QUEUED;
		CHECK(!fc_snap_sndbuf_limited(&x), "snapshot: no meminfo");

		set_chrono(&a, 10.0, 5000000, 0, 0, 1000000, 0);
		set_chrono(&b, 11.0, 6000000, 0, 0, 3000000, 0);
		fc_doctor(&a, &b, &sn, &p, &o, &r);
		CHECK(r.limit == FC_LIM_SNDBUF && fabs(r.f_sndbuf - 0.8) < 1e-6 &&
		      fabs(r.f_cwnd - 0.2) < 1e-6 && r.f_sndbuf_kernel == 0,
		      "snap sndbuf: %s %f", fc_limit_name(r.limit), r.f_sndbuf);
		CHECK(any_has(r.notes, r.nnotes, "of the snapshots"), "snap note");
		sn.sndbuf = 0;
		fc_doctor(&a, &b, &sn, &p, &o, &r);
		CHECK(r.limit == FC_LIM_CWND && r.f_sndbuf_snap == 0,
		      "snap says no: %s", fc_limit_name(r.limit));
	}

	/* application-limited: busy 20 % of the time */
	set_chrono(&a, 10.0, 5000000, 0, 0, 1000000, 0);
	set_chrono(&b, 12.0, 5400000, 0, 0, 1100000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_APP && fabs(r.f_app - 0.8) < 1e-6,
	      "app: %s %f", fc_limit_name(r.limit), r.f_app);

	/* cwnd-limited cubic with a standing queue */
	b.info.tcpi_rtt = 90000;
	set_chrono(&b, 11.0, 6000000, 0, 0, 9000000, 0);
	set_chrono(&a, 10.0, 5000000, 0, 0, 1000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_CWND, "cwnd: %s", fc_limit_name(r.limit));
	CHECK(any_has(r.advice, r.nadvice, "fills the bottleneck queue"),
	      "cubic queue advice: %s", r.advice[0]);

	/* cwnd-limited fast_adaptive: the law explains itself */
	mk_fa(&a, FA_PHASE_LAW, 512, 50000, 60000);
	set_chrono(&a, 10.0, 5000000, 0, 0, 1000000, 0);
	mk_fa(&b, FA_PHASE_LAW, 512, 50000, 60000);
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_CWND, "fa cwnd: %s", fc_limit_name(r.limit));
	CHECK(any_has(r.notes, r.nnotes, "16.7 packets, alpha = 20"),
	      "law note: %s", r.notes[0]);
	CHECK(any_has(r.advice, r.nadvice, "bottleneck is full"), "fa advice");
	mk_fa(&b, FA_PHASE_SS, 0, 50000, 52000);
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	/* auto exit backlog at cwnd 100: 100 / 4 within [alpha/2, 3 alpha] */
	CHECK(any_has(r.notes, r.nnotes,
		      "reaches 25 packets, ss_exit_pkts = 0: cwnd/4 within [10, 60]"),
	      "ss note: %s", r.notes[0]);
	p.ss_exit_pkts = 12;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.notes, r.nnotes, "reaches 12 packets, ss_exit_pkts = 12"),
	      "ss note explicit: %s", r.notes[0]);
	p.ss_exit_pkts = 0;
	CHECK(!any_has(r.notes, r.nnotes, "competing"), "no compete note in ss");

	/* competitive mode: the doctor names it, with its duration */
	mk_compete(&a, 11);
	set_chrono(&a, 10.0, 5000000, 0, 0, 1000000, 0);
	mk_compete(&b, 12);
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_CWND && strstr(r.summary, "(compete)"),
	      "compete summary: %s", r.summary);
	CHECK(r.nnotes > 0 &&
	      !strcmp(r.notes[0], "competing with loss-based traffic since 12 s: the bottleneck queue never drained to this flow's own backlog; the flow runs Reno-like AIMD until it does"),
	      "compete note: %s", r.notes[0]);
	CHECK(any_has(r.notes, r.nnotes, "law: backlog"), "compete keeps law note");
	CHECK(any_has(r.advice, r.nadvice, "held by loss-based flows") &&
	      !any_has(r.advice, r.nadvice, "bottleneck is full"),
	      "compete advice: %s", r.advice[0]);
	mk_compete(&b, 127);
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.notes, r.nnotes,
		      "competing with loss-based traffic since over 2 min: "),
	      "compete 127: %s", r.notes[0]);
	mk_compete(&b, 0);
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(any_has(r.notes, r.nnotes,
		      "competing with loss-based traffic since under 1 s: "),
	      "compete 0: %s", r.notes[0]);
	/* in the kernel's recovery the mode is still named */
	mk_compete(&b, 40);
	b.info.tcpi_ca_state = 3;
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(strstr(r.summary, "(recovery)") &&
	      any_has(r.notes, r.nnotes, "since 40 s: ") &&
	      any_has(r.notes, r.nnotes, "loss recovery:"),
	      "compete in recovery: %s / %s", r.summary, r.notes[0]);
	/* not competing: no such line */
	mk_fa(&b, FA_PHASE_LAW, 512, 50000, 60000);
	set_chrono(&b, 11.0, 6000000, 0, 0, 7000000, 0);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(!any_has(r.notes, r.nnotes, "competing") &&
	      !any_has(r.advice, r.nadvice, "loss-based flows"),
	      "law: no compete line");

	/* receiver side */
	mk_flow(&a, "cubic", AF_INET, "10.0.2.1", 5201, "10.0.1.1", 40000);
	set_chrono(&a, 10.0, 0, 0, 0, 0, 1000000);
	b = a;
	set_chrono(&b, 11.0, 0, 0, 0, 0, 6000000);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_RECEIVER, "receiver: %s", fc_limit_name(r.limit));

	/* idle */
	set_chrono(&b, 11.0, 0, 0, 0, 0, 1000000);
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_IDLE, "idle: %s", fc_limit_name(r.limit));

	/* cumulative (no earlier sample): fractions of busy time */
	mk_flow(&b, "cubic", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	set_chrono(&b, 11.0, 1000000, 600000, 100000, 5000000, 0);
	fc_doctor(NULL, &b, NULL, &p, &o, &r);
	CHECK(!r.windowed && r.limit == FC_LIM_RWND &&
	      fabs(r.f_rwnd - 0.6) < 1e-6 && fabs(r.f_cwnd - 0.3) < 1e-6,
	      "cumulative: %s", fc_limit_name(r.limit));
	b.info.tcpi_rwnd_limited = 0;
	b.info.tcpi_sndbuf_limited = 0;
	b.info.tcpi_delivery_rate_app_limited = 1;
	fc_doctor(NULL, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_APP, "cumulative app: %s", fc_limit_name(r.limit));

	/* loss */
	mk_flow(&a, "cubic", AF_INET, "10.0.1.1", 1, "10.0.2.1", 2);
	set_chrono(&a, 10.0, 5000000, 0, 0, 1000000, 0);
	a.info.tcpi_segs_out = 1000;
	b = a;
	set_chrono(&b, 11.0, 6000000, 0, 0, 2000000, 0);
	b.info.tcpi_segs_out = 2000;
	b.info.tcpi_total_retrans = 50;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(fabs(r.loss_pct - 5.0) < 1e-6 &&
	      any_has(r.advice, r.nadvice, "retransmitted"), "loss %f",
	      r.loss_pct);

	b.has_info = false;
	fc_doctor(&a, &b, NULL, &p, &o, &r);
	CHECK(r.limit == FC_LIM_IDLE && strstr(r.summary, "no tcp_info"),
	      "no info");

	CHECK(!strcmp(fc_limit_name(FC_LIM_SNDBUF), "sndbuf") &&
	      !strcmp(fc_limit_name(FC_LIM_APP), "application"), "limit names");
}

static char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/fastctl-test-%d.csv", (int)getpid());
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void test_plot(void)
{
	struct fa_params p;
	struct fc_flow fl;
	struct fc_view v;
	struct cap c, out;
	char err[512], *csv, *s, *path;
	int n, i;

	fa_params_default(&p);
	cap_open(&c);
	fc_csv_header(c.f);
	for (i = 0; i < 5; i++) {
		mk_fa(&fl, FA_PHASE_LAW, 512, 50000, 60000 + i * 100);
		fc_view_make(&fl, &p, &v);
		fc_csv_row(c.f, i * 0.1, 0, &fl, &v);
		mk_flow(&fl, "cubic", AF_INET, "10.0.1.2", 1, "10.0.2.1", 2);
		fc_view_make(&fl, &p, &v);
		fc_csv_row(c.f, i * 0.1, 1, &fl, &v);
	}
	csv = cap_close(&c);
	path = write_tmp(csv);
	free(csv);

	cap_open(&out);
	n = fc_plot_script(path, "/tmp/x'y.png", out.f, err, sizeof(err));
	s = cap_close(&out);
	CHECK(n == 2, "two flows, got %d: %s", n, err);
	CHECK(strstr(s, "$f0 << EOD\n0.000 100 55 50 60 50 16.67\n"),
	      "datablock f0:\n%.300s", s);
	CHECK(strstr(s, "$f1 << EOD\n0.000 100 55 NaN NaN 50 NaN\n"),
	      "datablock f1");
	CHECK(strstr(s, "set output '/tmp/x''y.png'"), "quoted output");
	CHECK(strstr(s, "set multiplot layout 3,1"), "three panels");
	CHECK(strstr(s, "$f0 using 1:7"), "backlog plotted for fa");
	CHECK(!strstr(s, "$f1 using 1:7"), "no backlog for cubic");
	CHECK(strstr(s, "$f1 using 1:6"), "min rtt for cubic");
	CHECK(!strstr(s, "$f0 using 1:6"), "base, not min, for fa");
	free(s);

	/*
	 * Found by fuzz_fastctl: a flow number beyond the range of long was
	 * converted to it (undefined); a flow that is no integer is refused.
	 */
	write_tmp("time_s,flow,cwnd\n1.0,6e77,10\n");
	cap_open(&out);
	n = fc_plot_script(path, "o.png", out.f, err, sizeof(err));
	free(cap_close(&out));
	CHECK(n < 0 && strstr(err, ":2: flow '6e77' is not a flow number"),
	      "huge flow: %s", err);
	write_tmp("time_s,flow,cwnd\n1.0,0,10\n1.1,1.5,10\n");
	cap_open(&out);
	n = fc_plot_script(path, "o.png", out.f, err, sizeof(err));
	free(cap_close(&out));
	CHECK(n < 0 && strstr(err, ":3: flow '1.5' is not"), "fractional flow: %s",
	      err);

	/* backwards time */
	write_tmp("time_s,flow,cwnd\n1.0,0,10\n0.5,0,12\n");
	cap_open(&out);
	n = fc_plot_script(path, "o.png", out.f, err, sizeof(err));
	free(cap_close(&out));
	CHECK(n < 0 && strstr(err, "backwards"), "backwards: %s", err);

	/* only cubic flows: a "no backlog" panel instead of a gnuplot error */
	write_tmp("time_s,flow,cwnd,srtt_us\n0.0,0,10,100\n0.1,0,12,110\n");
	cap_open(&out);
	n = fc_plot_script(path, "o.png", out.f, err, sizeof(err));
	s = cap_close(&out);
	CHECK(n == 1 && strstr(s, "no backlog"), "no-backlog panel");
	free(s);

	write_tmp("a,b,c\n1,2,3\n");
	cap_open(&out);
	n = fc_plot_script(path, "o.png", out.f, err, sizeof(err));
	free(cap_close(&out));
	CHECK(n < 0 && strstr(err, "not a fastctl watch CSV"), "wrong csv: %s", err);

	write_tmp("time_s,flow,cwnd\n");
	cap_open(&out);
	n = fc_plot_script(path, "o.png", out.f, err, sizeof(err));
	free(cap_close(&out));
	CHECK(n < 0 && strstr(err, "no samples"), "empty csv: %s", err);
	unlink(path);

	cap_open(&out);
	n = fc_plot_script("/nonexistent/x.csv", "o.png", out.f, err, sizeof(err));
	free(cap_close(&out));
	CHECK(n < 0 && strstr(err, "No such file"), "missing csv: %s", err);
}

int main(void)
{
	test_numbers();
	test_addr_filter();
	test_params();
	test_opts();
	test_param_args();
	test_diag_parse();
	test_diag_decode();
	test_view();
	test_json();
	test_csv();
	test_doctor();
	test_plot();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
