// SPDX-License-Identifier: GPL-2.0
/*
 * pacs - a PACS-like study server and its clients, for tools/bench and
 * tools/demo (run inside the VM's network namespaces only).
 *
 *   pacs serve -p PORT [-C CC] [-k CONNS] [-R READYFILE] [-T SECS]
 *              [-s MS -l SAMPLEPREFIX]
 *   pacs pull  -c ADDR -p PORT -d DIR [-o OUTDIR] [-T SECS]
 *   pacs ping  -c ADDR -p PORT -o LOG [-q REQ] [-n RESP] [-i MIN_MS]
 *              [-I MAX_MS] [-t SECS] [-S SEED]
 *
 * serve accepts CONNS connections (default: until -T), each in its own
 * process, with TCP_CONGESTION CC set on the listener (so on every accepted
 * socket).  It answers request lines:
 *   STUDY DIR    every regular file of DIR in name order, each as
 *                "FILE NAME SIZE\n" and SIZE bytes, then "END\n"
 *   PING N ...   N bytes (the request line may carry padding)
 * With -s/-l, a STUDY connection records TCP_INFO every MS milliseconds to
 * SAMPLEPREFIX.<client port>, in the columns of selftests/fa_tool.h (so that
 * selftests/lib/measure.sh reads them).
 *
 * pull connects, asks for the study DIR and (with -o) writes each file to
 * OUTDIR.  The clock starts before connect(), so the time to last byte
 * includes the handshake, as a user who clicks "open study" sees it:
 *   pull files=N bytes=B connect_ms=C first_byte_ms=F ttlb_s=S
 *        start_us=T0 end_us=T1
 * (times in CLOCK_MONOTONIC microseconds, the clock of fa_xfer's samples).
 *
 * ping is an interactive session: one small request, one small response,
 * then the next request 50-100 ms (-i/-I) after the previous one was sent
 * (at once if the response took longer).  One line per exchange to LOG:
 *   SEND_US LATENCY_US
 * It stops after -t SECS (default 600) or on SIGTERM/SIGINT.
 *
 *   pacs mkstudy DIR COUNT MEAN_KIB [SEED]
 * writes a synthetic study: COUNT files slice_0001.dcm ... whose sizes vary
 * uniformly within +-20 % of MEAN_KIB, filled with pseudo-random bytes
 * (incompressible, like compressed pixel data).  Prints the total bytes.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/inet_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FA_TOOL_NAME "pacs"
#include "fa_tool.h"

#define CHUNK (64 * 1024)

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* ---- TCP_INFO sampling (selftests/fa_tool.h) ---------------------------- */

static void sample(struct sampler *s)
{
	(void)fa_sample(s);	/* a socket already gone: no line */
}

static void tick(struct sampler *s)
{
	uint64_t t = now_us();

	if (s->f && t >= s->next_us) {
		sample(s);
		s->next_us += s->every_us;
		if (s->next_us <= t)
			s->next_us = t + s->every_us;
	}
}

/* Send all of buf on a non-blocking socket, sampling on time. */
static void send_all(struct sampler *s, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = send(s->fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			struct pollfd pf = { .fd = s->fd, .events = POLLOUT };
			int ms = s->f ? (int)((s->next_us > now_us() ?
					      s->next_us - now_us() : 0) / 1000 + 1) : -1;

			tick(s);
			if (poll(&pf, 1, ms) < 0 && errno != EINTR)
				die("poll: %s", strerror(errno));
			if (pf.revents & (POLLERR | POLLHUP))
				die("connection lost while sending");
			continue;
		}
		if (w < 0)
			die("send: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
		tick(s);
	}
}

/* ---- line reader on a blocking or non-blocking socket ------------------- */

struct rd {
	int fd;
	char buf[CHUNK];
	size_t len, off;
};

/* Refill; returns false on EOF. */
static bool rd_fill(struct rd *r)
{
	ssize_t n;

	if (r->off == r->len)
		r->off = r->len = 0;
	if (r->off > 0 && r->len == sizeof(r->buf)) {
		memmove(r->buf, r->buf + r->off, r->len - r->off);
		r->len -= r->off;
		r->off = 0;
	}
	for (;;) {
		n = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pf = { .fd = r->fd, .events = POLLIN };

			poll(&pf, 1, -1);
			continue;
		}
		if (n < 0)
			die("read: %s", strerror(errno));
		r->len += (size_t)n;
		return n > 0;
	}
}

/* Read one line (without '\n') into out; false on EOF before a line. */
static bool rd_line(struct rd *r, char *out, size_t outsz)
{
	for (;;) {
		char *nl = memchr(r->buf + r->off, '\n', r->len - r->off);

		if (nl) {
			size_t l = (size_t)(nl - (r->buf + r->off));

			if (l >= outsz)
				die("request line too long");
			memcpy(out, r->buf + r->off, l);
			out[l] = '\0';
			r->off += l + 1;
			return true;
		}
		if (r->len - r->off >= outsz)
			die("request line too long");
		if (!rd_fill(r))
			return false;
	}
}

/* ---- serve ------------------------------------------------------------------ */

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void serve_study(struct sampler *s, const char *dir)
{
	static char data[CHUNK];
	struct dirent **ents;
	char path[4096 + 512], hdr[512];
	int n, i;

	n = scandir(dir, &ents, NULL, name_cmp);
	if (n < 0)
		die("scandir %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		struct stat st;
		int fd;
		off_t left;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open %s: %s", path, strerror(errno));
		snprintf(hdr, sizeof(hdr), "FILE %s %lld\n", ents[i]->d_name,
			 (long long)st.st_size);
		send_all(s, hdr, strlen(hdr));
		for (left = st.st_size; left > 0;) {
			ssize_t r = read(fd, data, left > CHUNK ? CHUNK : (size_t)left);

			if (r <= 0)
				die("read %s: %s", path, r ? strerror(errno) : "short");
			send_all(s, data, (size_t)r);
			left -= r;
		}
		close(fd);
		free(ents[i]);
	}
	free(ents);
	send_all(s, "END\n", 4);
}

static void serve_conn(int cfd, unsigned int sample_ms, const char *prefix)
{
	static char resp[CHUNK];
	struct sampler s = { .fd = cfd };
	struct rd r = { .fd = cfd };
	char line[4096], path[4096 + 512];
	struct sockaddr_in me;
	socklen_t mlen = sizeof(me);
	int one = 1;

	memset(resp, 'x', sizeof(resp));
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	while (rd_line(&r, line, sizeof(line))) {
		if (!strncmp(line, "STUDY ", 6)) {
			if (prefix && !s.f) {
				getpeername(cfd, (struct sockaddr *)&me, &mlen);
				snprintf(path, sizeof(path), "%s.%u", prefix,
					 ntohs(me.sin_port));
				s.f = fopen(path, "w");
				if (!s.f)
					die("create %s: %s", path, strerror(errno));
				fputs(FA_SAMPLE_HEADER, s.f);
				s.every_us = (uint64_t)sample_ms * 1000;
				s.next_us = now_us();
				fcntl(cfd, F_SETFL, O_NONBLOCK);
			}
			serve_study(&s, line + 6);
			sample(&s);
		} else if (!strncmp(line, "PING ", 5)) {
			unsigned long long n = strtoull(line + 5, NULL, 10);

			if (n > sizeof(resp))
				n = sizeof(resp);
			send_all(&s, resp, (size_t)n);
		} else {
			die("bad request '%.40s'", line);
		}
	}
	if (s.f) {
		sample(&s);
		fclose(s.f);
	}
}

static int do_serve(int argc, char **argv)
{
	const char *cc = NULL, *ready = NULL, *prefix = NULL;
	unsigned int port = 0, conns = 0, timeout = 600, sample_ms = 0, i;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int opt, lfd, one = 1, status, rc = 0;

	while ((opt = getopt(argc, argv, "p:C:k:R:T:s:l:")) != -1) {
		switch (opt) {
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'C': cc = optarg; break;
		case 'k': conns = (unsigned int)parse_num(optarg, "count"); break;
		case 'R': ready = optarg; break;
		case 'T': timeout = (unsigned int)parse_num(optarg, "timeout"); break;
		case 's': sample_ms = (unsigned int)parse_num(optarg, "interval"); break;
		case 'l': prefix = optarg; break;
		default: die("usage: serve -p PORT [-C CC] [-k CONNS] [-R READY] [-T SECS] [-s MS -l PREFIX]");
		}
	}
	if (!port)
		die("serve needs -p PORT");
	if ((prefix != NULL) != (sample_ms != 0))
		die("-s MS and -l PREFIX go together");
	alarm(timeout);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (cc && setsockopt(lfd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0)
		die("setsockopt(TCP_CONGESTION, %s): %s", cc, strerror(errno));
	sa.sin_port = htons((uint16_t)port);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("bind port %u: %s", port, strerror(errno));
	if (listen(lfd, 16) < 0)
		die("listen: %s", strerror(errno));
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0)
			die("create %s: %s", ready, strerror(errno));
		close(fd);
	}
	for (i = 0; !conns || i < conns; i++) {
		int cfd = accept(lfd, NULL, NULL);
		pid_t pid;

		if (cfd < 0)
			die("accept: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			close(lfd);
			serve_conn(cfd, sample_ms, prefix);
			close(cfd);
			_exit(0);
		}
		close(cfd);
	}
	close(lfd);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	return rc;
}

/* ---- clients ---------------------------------------------------------------- */

static int connect_to(const char *addr, unsigned int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	sa.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die("bad address %s", addr);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("connect %s:%u: %s", addr, port, strerror(errno));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static int do_pull(int argc, char **argv)
{
	const char *addr = NULL, *dir = NULL, *out = NULL;
	unsigned int port = 0, timeout = 300, files = 0;
	unsigned long long bytes = 0;
	uint64_t t0, tc, tf = 0, t1;
	static struct rd r;
	char line[4096], path[4096 + 512];
	int opt, fd;

	while ((opt = getopt(argc, argv, "c:p:d:o:T:")) != -1) {
		switch (opt) {
		case 'c': addr = optarg; break;
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'd': dir = optarg; break;
		case 'o': out = optarg; break;
		case 'T': timeout = (unsigned int)parse_num(optarg, "timeout"); break;
		default: die("usage: pull -c ADDR -p PORT -d DIR [-o OUTDIR] [-T SECS]");
		}
	}
	if (!addr || !port || !dir)
		die("pull needs -c ADDR -p PORT -d DIR");
	alarm(timeout);
	t0 = now_us();
	fd = connect_to(addr, port);
	tc = now_us();
	snprintf(line, sizeof(line), "STUDY %s\n", dir);
	if (write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		die("send request: %s", strerror(errno));
	r.fd = fd;
	for (;;) {
		char name[256];
		long long size;
		int ofd = -1;

		if (!rd_line(&r, line, sizeof(line)))
			die("connection closed before END (%u files)", files);
		if (!tf)
			tf = now_us();
		if (!strcmp(line, "END"))
			break;
		if (sscanf(line, "FILE %255s %lld", name, &size) != 2 || size < 0 ||
		    strchr(name, '/'))
			die("bad header '%.60s'", line);
		if (out) {
			snprintf(path, sizeof(path), "%s/%s", out, name);
			ofd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (ofd < 0)
				die("create %s: %s", path, strerror(errno));
		}
		while (size > 0) {
			size_t avail = r.len - r.off, take;

			if (!avail) {
				if (!rd_fill(&r))
					die("connection closed inside %s", name);
				continue;
			}
			take = avail < (size_t)size ? avail : (size_t)size;
			if (ofd >= 0 && write(ofd, r.buf + r.off, take) != (ssize_t)take)
				die("write %s: %s", path, strerror(errno));
			r.off += take;
			size -= (long long)take;
			bytes += take;
		}
		if (ofd >= 0 && close(ofd) < 0)
			die("close %s: %s", path, strerror(errno));
		files++;
	}
	t1 = now_us();
	close(fd);
	printf("pull files=%u bytes=%llu connect_ms=%.1f first_byte_ms=%.1f ttlb_s=%.3f start_us=%" PRIu64 " end_us=%" PRIu64 "\n",
	       files, bytes, (double)(tc - t0) / 1e3, (double)(tf - t0) / 1e3,
	       (double)(t1 - t0) / 1e6, t0, t1);
	return 0;
}

static int do_ping(int argc, char **argv)
{
	const char *addr = NULL, *log = NULL;
	unsigned int port = 0, req = 100, resp = 1024, imin = 50, imax = 100, secs = 600;
	uint64_t seed = 1, t_end, next;
	char line[4096], buf[CHUNK];
	FILE *lf;
	int opt, fd;

	while ((opt = getopt(argc, argv, "c:p:o:q:n:i:I:t:S:")) != -1) {
		switch (opt) {
		case 'c': addr = optarg; break;
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'o': log = optarg; break;
		case 'q': req = (unsigned int)parse_num(optarg, "request size"); break;
		case 'n': resp = (unsigned int)parse_num(optarg, "response size"); break;
		case 'i': imin = (unsigned int)parse_num(optarg, "interval"); break;
		case 'I': imax = (unsigned int)parse_num(optarg, "interval"); break;
		case 't': secs = (unsigned int)parse_num(optarg, "seconds"); break;
		case 'S': seed = parse_num(optarg, "seed"); break;
		default: die("usage: ping -c ADDR -p PORT -o LOG [-q REQ] [-n RESP] [-i MIN_MS] [-I MAX_MS] [-t SECS] [-S SEED]");
		}
	}
	if (!addr || !port || !log || req < 16 || req >= sizeof(line) ||
	    resp > sizeof(buf) || imax < imin)
		die("ping needs -c ADDR -p PORT -o LOG, 16 <= REQ < 4096, RESP <= 64 KiB");
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	lf = fopen(log, "w");
	if (!lf)
		die("create %s: %s", log, strerror(errno));
	setvbuf(lf, NULL, _IOLBF, 0);
	fd = connect_to(addr, port);
	t_end = now_us() + (uint64_t)secs * 1000000;
	srand((unsigned int)seed);
	/* "PING RESP " then padding up to REQ bytes, ending in '\n' */
	snprintf(line, sizeof(line), "PING %u ", resp);
	memset(line + strlen(line), '.', req - strlen(line) - 1);
	line[req - 1] = '\n';
	next = now_us();
	while (!stop && now_us() < t_end) {
		uint64_t ts, now = now_us();
		size_t got = 0;

		if (now < next) {
			struct timespec d = { .tv_sec = 0,
					      .tv_nsec = (long)(next - now) * 1000 };

			nanosleep(&d, NULL);
			continue;
		}
		ts = now_us();
		if (write(fd, line, req) != (ssize_t)req) {
			if (stop)
				break;
			die("send: %s", strerror(errno));
		}
		while (got < resp) {
			ssize_t n = read(fd, buf, resp - got);

			if (n < 0 && errno == EINTR) {
				if (stop)
					break;
				continue;
			}
			if (n <= 0)
				die("read: %s", n ? strerror(errno) : "closed");
			got += (size_t)n;
		}
		if (got < resp)
			break;
		fprintf(lf, "%" PRIu64 " %" PRIu64 "\n", ts, now_us() - ts);
		next = ts + 1000ULL * (imin + (unsigned int)rand() % (imax - imin + 1));
	}
	fclose(lf);
	close(fd);
	return 0;
}

static int do_mkstudy(int argc, char **argv)
{
	static unsigned char buf[CHUNK];
	unsigned long long total = 0, mean;
	unsigned int count, i;
	uint64_t x;

	if (argc < 4)
		die("usage: mkstudy DIR COUNT MEAN_KIB [SEED]");
	count = (unsigned int)parse_num(argv[2], "count");
	mean = parse_num(argv[3], "size") * 1024;
	x = argc > 4 ? parse_num(argv[4], "seed") : 42;
	x = x ? x : 42;
	if (mkdir(argv[1], 0755) < 0 && errno != EEXIST)
		die("mkdir %s: %s", argv[1], strerror(errno));
	for (i = 1; i <= count; i++) {
		char path[4096 + 64];
		unsigned long long size, left;
		size_t j;
		int fd;

		x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
		size = mean * 8 / 10 + (x * 0x2545f4914f6cdd1dULL >> 11) % (mean * 4 / 10 + 1);
		snprintf(path, sizeof(path), "%s/slice_%04u.dcm", argv[1], i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("create %s: %s", path, strerror(errno));
		for (left = size; left > 0;) {
			size_t n = left > CHUNK ? CHUNK : (size_t)left;

			for (j = 0; j < n; j++) {
				x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
				buf[j] = (unsigned char)((x * 0x2545f4914f6cdd1dULL) >> 56);
			}
			if (write(fd, buf, n) != (ssize_t)n)
				die("write %s: %s", path, strerror(errno));
			left -= n;
		}
		if (close(fd) < 0)
			die("close %s: %s", path, strerror(errno));
		total += size;
	}
	printf("%llu\n", total);
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		die("usage: pacs serve|pull|ping|mkstudy ...");
	if (!strcmp(argv[1], "serve"))
		return do_serve(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pull"))
		return do_pull(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ping"))
		return do_ping(argc - 1, argv + 1);
	if (!strcmp(argv[1], "mkstudy"))
		return do_mkstudy(argc - 1, argv + 1);
	die("unknown mode '%s' (serve, pull, ping or mkstudy)", argv[1]);
	return 1;
}
