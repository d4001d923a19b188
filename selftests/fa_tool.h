/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the userspace tools that run in the VM share: selftests/fa_xfer.c,
 * selftests/fa_many.c and tools/bench/pacs.c.  Header-only, static functions: each tool is one
 * translation unit and defines FA_TOOL_NAME (its name in messages) before
 * including this file.
 *
 * The sampler writes one line per TCP_INFO/TCP_CC_INFO poll, with the
 * columns of FA_SAMPLE_HEADER; selftests/lib/measure.sh and
 * tools/bench/metrics.awk read them.
 */
#ifndef FA_TOOL_H
#define FA_TOOL_H

#include <errno.h>
#include <inttypes.h>
#include <linux/inet_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef FA_TOOL_NAME
#error "define FA_TOOL_NAME before including fa_tool.h"
#endif

#define FA_SAMPLE_HEADER \
	"# t_us cwnd rtt_us rttvar_us min_rtt_us bytes_acked total_retrans lost ca_state " \
	"mss delivery_rate ssthresh vegas_enabled vegas_rttcnt vegas_rtt_us vegas_minrtt_us\n"

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, FA_TOOL_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* SIGALRM: the tool's overall time limit; exit status 3. */
static void on_alarm(int sig)
{
	static const char msg[] = FA_TOOL_NAME ": timeout\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* A whole unsigned number (decimal, 0x hex or 0 octal), or die naming it. */
static unsigned long long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("bad %s '%s'", what, s);
	return v;
}

struct sampler {
	FILE *f;		/* NULL: sampling off */
	int fd;
	uint64_t every_us, next_us;
};

/*
 * One sample line of s->fd; 0, or -1 when TCP_INFO cannot be read.  A
 * congestion control without TCP_CC_INFO leaves the vegas columns 0.
 */
static inline int fa_sample(struct sampler *s)
{
	struct tcp_info ti;
	union tcp_cc_info cc;
	socklen_t len = sizeof(ti), clen = sizeof(cc);

	if (!s->f)
		return 0;
	memset(&ti, 0, sizeof(ti));
	memset(&cc, 0, sizeof(cc));
	if (getsockopt(s->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return -1;
	if (getsockopt(s->fd, IPPROTO_TCP, TCP_CC_INFO, &cc, &clen) < 0)
		clen = 0;
	if (clen < sizeof(cc.vegas))
		memset(&cc, 0, sizeof(cc));
	fprintf(s->f, "%" PRIu64 " %u %u %u %u %llu %u %u %u %u %llu %u %u %u %u %u\n",
		now_us(), ti.tcpi_snd_cwnd, ti.tcpi_rtt, ti.tcpi_rttvar,
		ti.tcpi_min_rtt, (unsigned long long)ti.tcpi_bytes_acked,
		ti.tcpi_total_retrans, ti.tcpi_lost, ti.tcpi_ca_state,
		ti.tcpi_snd_mss, (unsigned long long)ti.tcpi_delivery_rate,
		ti.tcpi_snd_ssthresh, cc.vegas.tcpv_enabled,
		cc.vegas.tcpv_rttcnt, cc.vegas.tcpv_rtt, cc.vegas.tcpv_minrtt);
	return 0;
}

/*
 * The stream checksum of fa_xfer and fa_many (both ends compute it over
 * what went over a connection) and their pseudo-random payload.
 */
#define FNV_OFFSET	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

/*
 * The checksum: FNV-1a over 64-bit little-endian words of the stream, so
 * that it costs little guest CPU under TCG; a final partial word is folded
 * in byte by byte.  The state carries a partial word across calls, so any
 * split of the stream into reads gives the same sum.
 */
struct sum64 {
	uint64_t h;
	unsigned char part[8];
	size_t npart;
};

static inline void sum_init(struct sum64 *s)
{
	s->h = FNV_OFFSET;
	s->npart = 0;
}

static inline void sum_add(struct sum64 *s, const unsigned char *p, size_t n)
{
	uint64_t w;

	while (n && s->npart) {
		s->part[s->npart++] = *p++;
		n--;
		if (s->npart == 8) {
			memcpy(&w, s->part, 8);
			s->h = (s->h ^ w) * FNV_PRIME;
			s->npart = 0;
		}
	}
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		s->h = (s->h ^ w) * FNV_PRIME;
	}
	while (n--)
		s->part[s->npart++] = *p++;
}

static inline uint64_t sum_final(const struct sum64 *s)
{
	uint64_t h = s->h;
	size_t i;

	for (i = 0; i < s->npart; i++)
		h = (h ^ s->part[i]) * FNV_PRIME;
	return h;
}

static inline void fill_pattern(unsigned char *buf, size_t n, uint64_t seed)
{
	uint64_t x = seed ? seed : 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		buf[i] = (unsigned char)((x * 0x2545f4914f6cdd1dULL) >> 56);
	}
}

#endif /* FA_TOOL_H */
