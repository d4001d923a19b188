// SPDX-License-Identifier: GPL-2.0
/*
 * fa_many - many TCP connections from one process, for the stress tests
 * (fa_many_flows.sh, fa_churn.sh).  Under TCG every exec costs ~0.5 s, so a
 * thousand flows are a thousand sockets of one process, not a thousand
 * fa_xfer processes.
 *
 *   fa_many recv -p PORT -k CONNS [-R READYFILE] [-l LISTFILE] [-T SECS]
 *   fa_many send -c ADDR -p PORT -k CONNS [-P PARALLEL] [-C CC] [-E CC]
 *                (-t SECS | -n BYTES) [-R READYFILE] [-w SECS] [-l LISTFILE]
 *                [-S SEED] [-T SECS]
 *
 * recv accepts CONNS connections on one epoll loop, reads each to EOF and
 * closes it; when all are done it prints
 *	many-recv port=P conns=N bytes=B digest=D errors=E
 * send has two shapes:
 *  - with -t SECS (bulk): opens all CONNS connections (at most PARALLEL
 *    handshakes at once, default 64), creates READYFILE when every one is
 *    established, waits -w SECS, then sends on all of them for SECS seconds,
 *    shuts every one down and waits until the receiver has closed it (so
 *    everything sent was acknowledged);
 *  - with -n BYTES (churn): CONNS short connections, at most PARALLEL open
 *    at once, each: connect, send BYTES, shut down, wait for the receiver's
 *    close, close; a new one starts as soon as one ends.
 * It prints
 *	many-send cc=CC conns=N ok=K failed=F bytes=B digest=D retrans=R
 *	          connect_s=C secs=S
 * -C sets TCP_CONGESTION on every socket; -E checks that every connection
 * runs that congestion control (getsockopt) and counts one that does not as
 * failed.  A failed connection (connect error, reset, wrong cc) is counted,
 * its first errors are printed on stderr, and the others go on.
 *
 * Every connection carries a pseudo-random stream (seed -S) starting at its
 * own offset; both ends checksum what went over it (FNV-1a, fa_tool.h).
 * digest is the sum over connections of a hash of (client port, bytes,
 * checksum), so the two ends' digests are equal exactly when every
 * connection delivered its bytes intact.  -l LISTFILE writes one line per
 * connection, "PORT BYTES FNV64", for a diff when they are not.
 * The file-descriptor limit is raised to what CONNS needs.  -T bounds the
 * run (default 300 s): exit 3.  Exit status 0 only when nothing failed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define FA_TOOL_NAME "fa_many"
#include "fa_tool.h"

#define CHUNK		(64 * 1024)
#define PATTERN		(1024 * 1024)
#define MAX_EVENTS	256
#define MAX_ERRS	5

enum cstate { C_IDLE, C_CONNECTING, C_READY, C_SENDING, C_DRAIN, C_DONE, C_FAILED };

struct conn {
	int fd;
	enum cstate st;
	uint16_t port;
	unsigned long long bytes;
	size_t off;
	struct sum64 sum;
};

static unsigned int nerrs;

static void conn_err(unsigned int i, const char *what, int err)
{
	if (nerrs++ < MAX_ERRS)
		fprintf(stderr, FA_TOOL_NAME ": connection %u: %s: %s\n", i, what,
			err ? strerror(err) : "failed");
}

/* Both ends hash (port, bytes, checksum) alike; the digest sums them. */
static uint64_t conn_hash(uint16_t port, unsigned long long bytes, uint64_t fnv)
{
	uint64_t x = fnv ^ ((uint64_t)port << 48) ^ (bytes * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static void raise_nofile(unsigned int conns)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)conns + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("getrlimit: %s", strerror(errno));
	if (rl.rlim_cur >= want)
		return;
	if (rl.rlim_max < want) {
		rl.rlim_max = want;	/* root may raise the hard limit */
	}
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("setrlimit(RLIMIT_NOFILE, %llu): %s", (unsigned long long)want,
		    strerror(errno));
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fclose(f))
		die("create %s: %s", path, strerror(errno));
}

static int ep_add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static int ep_mod(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

static int do_recv(int argc, char **argv)
{
	const char *ready = NULL, *list = NULL;
	unsigned int port = 0, conns = 0, timeout = 300, done = 0, errors = 0, n = 0, i;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	unsigned long long total = 0;
	uint64_t digest = 0;
	static unsigned char buf[CHUNK];
	struct conn *c;
	FILE *lf = NULL;
	int opt, lfd, ep, one = 1;

	while ((opt = getopt(argc, argv, "p:k:R:l:T:")) != -1) {
		switch (opt) {
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'k': conns = (unsigned int)parse_num(optarg, "count"); break;
		case 'R': ready = optarg; break;
		case 'l': list = optarg; break;
		case 'T': timeout = (unsigned int)parse_num(optarg, "timeout"); break;
		default: die("usage: recv -p PORT -k CONNS [-R READY] [-l LIST] [-T SECS]");
		}
	}
	if (!port || !conns)
		die("recv needs -p PORT and -k CONNS >= 1");
	alarm(timeout);
	raise_nofile(conns < 4096 ? conns : 4096);
	c = calloc(conns, sizeof(*c));
	if (!c)
		die("out of memory");
	if (list && !(lf = fopen(list, "w")))
		die("create %s: %s", list, strerror(errno));

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (lfd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("bind port %u: %s", port, strerror(errno));
	if (listen(lfd, 4096) < 0)
		die("listen: %s", strerror(errno));
	ep = epoll_create1(0);
	if (ep < 0 || ep_add(ep, lfd, EPOLLIN, UINT64_MAX) < 0)
		die("epoll: %s", strerror(errno));
	if (ready)
		touch(ready);

	while (done < conns) {
		struct epoll_event evs[MAX_EVENTS];
		int k = epoll_wait(ep, evs, MAX_EVENTS, -1), e;

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("epoll_wait: %s", strerror(errno));
		for (e = 0; e < k; e++) {
			struct conn *x;

			if (evs[e].data.u64 == UINT64_MAX) {
				for (;;) {
					struct sockaddr_in peer;
					socklen_t plen = sizeof(peer);
					int fd;

					if (n >= conns)
						break;
					fd = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_NONBLOCK);
					if (fd < 0) {
						if (errno != EAGAIN && errno != EINTR &&
						    errno != ECONNABORTED)
							die("accept: %s", strerror(errno));
						break;
					}
					c[n].fd = fd;
					c[n].port = ntohs(peer.sin_port);
					c[n].st = C_SENDING;
					sum_init(&c[n].sum);
					if (ep_add(ep, fd, EPOLLIN, n) < 0)
						die("epoll_ctl: %s", strerror(errno));
					n++;
				}
				if (n >= conns)
					epoll_ctl(ep, EPOLL_CTL_DEL, lfd, NULL);
				continue;
			}
			i = (unsigned int)evs[e].data.u64;
			x = &c[i];
			for (;;) {
				ssize_t r = read(x->fd, buf, sizeof(buf));

				if (r > 0) {
					sum_add(&x->sum, buf, (size_t)r);
					x->bytes += (unsigned long long)r;
					continue;
				}
				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0 && errno == EAGAIN)
					break;
				if (r < 0) {
					conn_err(i, "read", errno);
					errors++;
					x->st = C_FAILED;
				} else {
					x->st = C_DONE;
				}
				close(x->fd);
				done++;
				total += x->bytes;
				digest += conn_hash(x->port, x->bytes, sum_final(&x->sum));
				if (lf)
					fprintf(lf, "%u %llu %016" PRIx64 "%s\n", x->port, x->bytes,
						sum_final(&x->sum), x->st == C_FAILED ? " failed" : "");
				break;
			}
		}
	}
	close(lfd);
	if (lf && fclose(lf))
		die("write %s: %s", list, strerror(errno));
	printf("many-recv port=%u conns=%u bytes=%llu digest=%016" PRIx64 " errors=%u\n",
	       port, done, total, digest, errors);
	return errors ? 1 : 0;
}

struct sender {
	struct conn *c;
	unsigned int conns, parallel, started, open, pending, finished, ok, failed;
	const char *cc, *expect;
	unsigned long long nbytes;	/* churn: bytes per connection; 0: bulk */
	unsigned long long total;
	unsigned long long retrans;
	uint64_t digest;
	struct sockaddr_in sa;
	unsigned char *data;
	int ep;
	bool sending;			/* bulk: the sending phase has begun */
	FILE *lf;
};

static void conn_close(struct sender *s, unsigned int i, bool ok)
{
	struct conn *x = &s->c[i];
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(x->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0)
		s->retrans += ti.tcpi_total_retrans;
	close(x->fd);
	x->fd = -1;
	if (x->st == C_CONNECTING)
		s->pending--;
	s->open--;
	s->finished++;
	if (ok) {
		x->st = C_DONE;
		s->ok++;
		s->total += x->bytes;
		s->digest += conn_hash(x->port, x->bytes, sum_final(&x->sum));
	} else {
		x->st = C_FAILED;
		s->failed++;
	}
	if (s->lf)
		fprintf(s->lf, "%u %llu %016" PRIx64 "%s\n", x->port, x->bytes,
			sum_final(&x->sum), ok ? "" : " failed");
}

static void conn_start(struct sender *s)
{
	unsigned int i = s->started++;
	struct conn *x = &s->c[i];
	int fd;

	x->fd = -1;
	x->off = ((size_t)i * 4099 * 8) % PATTERN;
	sum_init(&x->sum);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		die("socket (connection %u): %s", i, strerror(errno));
	x->fd = fd;
	x->st = C_CONNECTING;
	s->open++;
	s->pending++;
	if (s->cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, s->cc,
				(socklen_t)strlen(s->cc)) < 0)
		die("setsockopt(TCP_CONGESTION, %s): %s", s->cc, strerror(errno));
	if (connect(fd, (struct sockaddr *)&s->sa, sizeof(s->sa)) < 0 &&
	    errno != EINPROGRESS) {
		conn_err(i, "connect", errno);
		conn_close(s, i, false);
		return;
	}
	if (ep_add(s->ep, fd, EPOLLOUT, i) < 0)
		die("epoll_ctl: %s", strerror(errno));
}

/* A connection's handshake finished (EPOLLOUT while connecting). */
static void conn_established(struct sender *s, unsigned int i)
{
	struct conn *x = &s->c[i];
	struct sockaddr_in me;
	socklen_t len = sizeof(int), mlen = sizeof(me);
	char got[32] = "";
	int err = 0;

	if (getsockopt(x->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
		conn_err(i, "connect", err);
		conn_close(s, i, false);
		return;
	}
	if (getsockname(x->fd, (struct sockaddr *)&me, &mlen) == 0)
		x->port = ntohs(me.sin_port);
	if (s->expect) {
		len = sizeof(got) - 1;
		if (getsockopt(x->fd, IPPROTO_TCP, TCP_CONGESTION, got, &len) < 0)
			len = 0;
		got[len] = '\0';
		if (strcmp(got, s->expect)) {
			if (nerrs++ < MAX_ERRS)
				fprintf(stderr, FA_TOOL_NAME ": connection %u runs '%s', not %s\n",
					i, got, s->expect);
			conn_close(s, i, false);
			return;
		}
	}
	s->pending--;
	if (s->nbytes || s->sending) {
		x->st = C_SENDING;
	} else {
		x->st = C_READY;	/* bulk: wait for the others */
		ep_mod(s->ep, x->fd, 0, i);
	}
}

static void conn_shut(struct sender *s, unsigned int i)
{
	struct conn *x = &s->c[i];

	if (shutdown(x->fd, SHUT_WR) < 0) {
		conn_err(i, "shutdown", errno);
		conn_close(s, i, false);
		return;
	}
	x->st = C_DRAIN;
	if (ep_mod(s->ep, x->fd, EPOLLIN, i) < 0)
		die("epoll_ctl: %s", strerror(errno));
}

static void conn_write(struct sender *s, unsigned int i)
{
	struct conn *x = &s->c[i];

	for (;;) {
		size_t want = PATTERN - x->off;
		ssize_t n;

		if (want > CHUNK)
			want = CHUNK;
		if (s->nbytes) {
			if (x->bytes >= s->nbytes) {
				conn_shut(s, i);
				return;
			}
			if (want > s->nbytes - x->bytes)
				want = (size_t)(s->nbytes - x->bytes);
		}
		n = send(x->fd, s->data + x->off, want, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0) {
			conn_err(i, "send", errno);
			conn_close(s, i, false);
			return;
		}
		sum_add(&x->sum, s->data + x->off, (size_t)n);
		x->bytes += (unsigned long long)n;
		x->off += (size_t)n;
		if (x->off == PATTERN)
			x->off = 0;
		if (!s->nbytes)
			return;		/* bulk: one chunk per turn, fair to all */
	}
}

static void conn_drain(struct sender *s, unsigned int i)
{
	struct conn *x = &s->c[i];
	char b[256];

	for (;;) {
		ssize_t n = read(x->fd, b, sizeof(b));

		if (n == 0) {
			conn_close(s, i, true);
			return;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0) {
			conn_err(i, "waiting for the receiver to close", errno);
			conn_close(s, i, false);
			return;
		}
	}
}

static void dispatch(struct sender *s, struct epoll_event *ev)
{
	unsigned int i = (unsigned int)ev->data.u64;
	struct conn *x = &s->c[i];

	switch (x->st) {
	case C_CONNECTING:
		if (ev->events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
			conn_established(s, i);
		if (x->st == C_SENDING)
			conn_write(s, i);
		break;
	case C_SENDING:
		if (ev->events & (EPOLLERR | EPOLLHUP)) {
			int err = 0;
			socklen_t len = sizeof(err);

			getsockopt(x->fd, SOL_SOCKET, SO_ERROR, &err, &len);
			conn_err(i, "connection failed while sending", err);
			conn_close(s, i, false);
		} else {
			conn_write(s, i);
		}
		break;
	case C_DRAIN:
		conn_drain(s, i);
		break;
	case C_READY:
		/* bulk, waiting for the others: only an error is reported */
		if (ev->events & (EPOLLERR | EPOLLHUP)) {
			conn_err(i, "connection failed while idle", 0);
			conn_close(s, i, false);
		}
		break;
	default:
		break;
	}
}

static void poll_once(struct sender *s, int ms)
{
	struct epoll_event evs[MAX_EVENTS];
	int k = epoll_wait(s->ep, evs, MAX_EVENTS, ms), e;

	if (k < 0 && errno != EINTR)
		die("epoll_wait: %s", strerror(errno));
	for (e = 0; e < k; e++)
		dispatch(s, &evs[e]);
}

static int do_send(int argc, char **argv)
{
	const char *addr = NULL, *ready = NULL, *list = NULL;
	unsigned int port = 0, secs = 0, timeout = 300, wait_s = 0, i;
	uint64_t seed = 1, t0, t_conn = 0, deadline;
	struct sender s = { .parallel = 64 };
	char got[32] = "?";
	int opt;

	while ((opt = getopt(argc, argv, "c:p:k:P:C:E:t:n:R:w:l:S:T:")) != -1) {
		switch (opt) {
		case 'c': addr = optarg; break;
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'k': s.conns = (unsigned int)parse_num(optarg, "count"); break;
		case 'P': s.parallel = (unsigned int)parse_num(optarg, "parallel"); break;
		case 'C': s.cc = optarg; break;
		case 'E': s.expect = optarg; break;
		case 't': secs = (unsigned int)parse_num(optarg, "seconds"); break;
		case 'n': s.nbytes = parse_num(optarg, "byte count"); break;
		case 'R': ready = optarg; break;
		case 'w': wait_s = (unsigned int)parse_num(optarg, "wait"); break;
		case 'l': list = optarg; break;
		case 'S': seed = parse_num(optarg, "seed"); break;
		case 'T': timeout = (unsigned int)parse_num(optarg, "timeout"); break;
		default:
			die("usage: send -c ADDR -p PORT -k CONNS [-P PAR] [-C CC] [-E CC] (-t SECS | -n BYTES) [-R READY] [-w SECS] [-l LIST] [-S SEED] [-T SECS]");
		}
	}
	if (!addr || !port || !s.conns || !s.parallel || (!secs == !s.nbytes))
		die("send needs -c ADDR -p PORT -k CONNS and one of -t SECS, -n BYTES");
	alarm(timeout);
	raise_nofile(s.nbytes ? s.parallel : s.conns);
	s.c = calloc(s.conns, sizeof(*s.c));
	s.data = malloc(PATTERN);
	if (!s.c || !s.data)
		die("out of memory");
	fill_pattern(s.data, PATTERN, seed);
	if (list && !(s.lf = fopen(list, "w")))
		die("create %s: %s", list, strerror(errno));
	s.sa.sin_family = AF_INET;
	s.sa.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &s.sa.sin_addr) != 1)
		die("bad address %s", addr);
	s.ep = epoll_create1(0);
	if (s.ep < 0)
		die("epoll_create1: %s", strerror(errno));
	t0 = now_us();

	if (s.nbytes) {
		/* churn: keep PARALLEL connections going until CONNS are done */
		while (s.finished < s.conns) {
			while (s.started < s.conns && s.open < s.parallel)
				conn_start(&s);
			poll_once(&s, 1000);
		}
		t_conn = now_us();
	} else {
		/* bulk: every connection established first, PARALLEL handshakes at once */
		while (s.started < s.conns || s.pending) {
			while (s.started < s.conns && s.pending < s.parallel)
				conn_start(&s);
			poll_once(&s, 1000);
		}
		t_conn = now_us();
		fprintf(stderr, FA_TOOL_NAME ": %u of %u connections established in %.3f s\n",
			s.open, s.conns, (double)(t_conn - t0) / 1e6);
		if (ready)
			touch(ready);
		if (wait_s)
			sleep(wait_s);
		s.sending = true;
		for (i = 0; i < s.conns; i++)
			if (s.c[i].st == C_READY) {
				s.c[i].st = C_SENDING;
				if (ep_mod(s.ep, s.c[i].fd, EPOLLOUT, i) < 0)
					die("epoll_ctl: %s", strerror(errno));
			}
		deadline = now_us() + (uint64_t)secs * 1000000;
		while (now_us() < deadline && s.open) {
			uint64_t left = deadline - now_us();

			poll_once(&s, (int)(left / 1000) + 1);
		}
		for (i = 0; i < s.conns; i++)
			if (s.c[i].st == C_SENDING)
				conn_shut(&s, i);
		while (s.open)
			poll_once(&s, 1000);
	}
	if (s.cc || s.expect)
		snprintf(got, sizeof(got), "%s", s.expect ? s.expect : s.cc);
	if (s.lf && fclose(s.lf))
		die("write %s: %s", list, strerror(errno));
	printf("many-send cc=%s conns=%u ok=%u failed=%u bytes=%llu digest=%016" PRIx64
	       " retrans=%llu connect_s=%.3f secs=%.3f\n",
	       got, s.conns, s.ok, s.failed, s.total, s.digest, s.retrans,
	       (double)(t_conn - t0) / 1e6, (double)(now_us() - t0) / 1e6);
	return s.failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		die("usage: fa_many recv|send ...");
	if (!strcmp(argv[1], "recv"))
		return do_recv(argc - 1, argv + 1);
	if (!strcmp(argv[1], "send"))
		return do_send(argc - 1, argv + 1);
	die("unknown mode '%s' (recv or send)", argv[1]);
	return 1;
}
