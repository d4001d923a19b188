// SPDX-License-Identifier: GPL-2.0
/*
 * fa_xfer - bulk TCP sender/receiver for the fast_adaptive selftests.
 *
 *   fa_xfer recv -p PORT [-b ADDR] [-k CONNS] [-o FILE] [-R READYFILE] [-T SECS]
 *   fa_xfer send -c ADDR -p PORT [-C CC] (-n BYTES | -t SECS | -i FILE)
 *                [-s MS -l SAMPLEFILE] [-S SEED] [-T SECS]
 *
 * recv accepts CONNS connections (default 1), each in its own process, reads
 * each to EOF and prints, per connection:
 *	recv port=P peer=ADDR:PORT bytes=N fnv64=H
 * With -o FILE the data is written to FILE (FILE.2, FILE.3, ... for further
 * connections).  READYFILE is created once the socket listens.
 *
 * send connects (after setsockopt(TCP_CONGESTION, CC) when -C is given),
 * sends -n BYTES of a pseudo-random stream (seeded by -S), or for -t SECS,
 * or the contents of -i FILE, then shuts down its side and waits for the
 * receiver to close, so that everything sent has been acknowledged.  It prints
 *	send cc=CC sport=P bytes=N fnv64=H retrans=R secs=S
 * Every -s MS it records TCP_INFO and TCP_CC_INFO to SAMPLEFILE, one line per
 * sample (the columns are named in its first line), time in CLOCK_MONOTONIC
 * microseconds so that samples of several flows and trace records (with
 * trace_clock mono) share one clock.
 *
 * fnv64 is FNV-1a over the 64-bit words (then the last bytes) sent or
 * received, so both ends checksum what went over the connection.  -T bounds the run (default 120 s): a
 * run that does not finish in time exits 3.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
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

#define FA_TOOL_NAME "fa_xfer"
#include "fa_tool.h"

#define CHUNK		(64 * 1024)
#define PATTERN		(1024 * 1024)

static int do_recv(int argc, char **argv)
{
	const char *bind_addr = "0.0.0.0", *out = NULL, *ready = NULL;
	unsigned int port = 0, conns = 1, timeout = 120, i;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int opt, lfd, one = 1, status, rc = 0;

	while ((opt = getopt(argc, argv, "b:p:k:o:R:T:")) != -1) {
		switch (opt) {
		case 'b': bind_addr = optarg; break;
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'k': conns = (unsigned int)parse_num(optarg, "count"); break;
		case 'o': out = optarg; break;
		case 'R': ready = optarg; break;
		case 'T': timeout = (unsigned int)parse_num(optarg, "timeout"); break;
		default: die("usage: recv -p PORT [-b ADDR] [-k CONNS] [-o FILE] [-R READY] [-T SECS]");
		}
	}
	if (!port || !conns)
		die("recv needs -p PORT and CONNS >= 1");
	alarm(timeout);

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, bind_addr, &sa.sin_addr) != 1)
		die("bad address %s", bind_addr);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("bind %s:%u: %s", bind_addr, port, strerror(errno));
	if (listen(lfd, 16) < 0)
		die("listen: %s", strerror(errno));
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0)
			die("create %s: %s", ready, strerror(errno));
		close(fd);
	}

	for (i = 0; i < conns; i++) {
		struct sockaddr_in peer;
		socklen_t plen = sizeof(peer);
		int cfd = accept(lfd, (struct sockaddr *)&peer, &plen);
		pid_t pid;

		if (cfd < 0)
			die("accept: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			static unsigned char buf[CHUNK];
			unsigned long long bytes = 0;
			struct sum64 sum;
			char path[4096], ip[INET_ADDRSTRLEN];
			int ofd = -1;
			ssize_t n;

			close(lfd);
			sum_init(&sum);
			if (out) {
				if (i == 0)
					snprintf(path, sizeof(path), "%s", out);
				else
					snprintf(path, sizeof(path), "%s.%u", out, i + 1);
				ofd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
				if (ofd < 0)
					die("create %s: %s", path, strerror(errno));
			}
			for (;;) {
				n = read(cfd, buf, sizeof(buf));
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0)
					die("read: %s", strerror(errno));
				if (n == 0)
					break;
				sum_add(&sum, buf, (size_t)n);
				bytes += (unsigned long long)n;
				if (ofd >= 0 && write(ofd, buf, (size_t)n) != n)
					die("write %s: %s", path, strerror(errno));
			}
			if (ofd >= 0 && close(ofd) < 0)
				die("close %s: %s", path, strerror(errno));
			inet_ntop(AF_INET, &peer.sin_addr, ip, sizeof(ip));
			printf("recv port=%u peer=%s:%u bytes=%llu fnv64=%016" PRIx64 "\n",
			       port, ip, ntohs(peer.sin_port), bytes, sum_final(&sum));
			fflush(stdout);
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

static void sample(struct sampler *s)
{
	if (fa_sample(s) < 0)
		die("getsockopt(TCP_INFO): %s", strerror(errno));
}

/* Wait for POLLOUT (or POLLIN when want_in), taking samples on time. */
static short wait_sock(struct sampler *s, bool want_in)
{
	struct pollfd p = { .fd = s->fd, .events = want_in ? POLLIN : POLLOUT };
	int ms, r;

	for (;;) {
		uint64_t t = now_us();

		if (s->f && t >= s->next_us) {
			sample(s);
			s->next_us += s->every_us;
			if (s->next_us <= t)
				s->next_us = t + s->every_us;
		}
		ms = s->f ? (int)((s->next_us - t + 999) / 1000) : -1;
		r = poll(&p, 1, ms);
		if (r < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (r > 0)
			return p.revents;
	}
}

static int do_send(int argc, char **argv)
{
	const char *addr = NULL, *cc = NULL, *in = NULL, *samples = NULL;
	unsigned long long nbytes = 0, sent = 0;
	unsigned int port = 0, secs = 0, timeout = 120, sample_ms = 0;
	uint64_t seed = 1, t0, deadline = 0;
	struct sum64 sum;
	struct sockaddr_in sa = { .sin_family = AF_INET }, me;
	socklen_t mlen = sizeof(me), len;
	struct sampler s = { 0 };
	unsigned char *data;
	size_t dlen, off = 0;
	char got[64] = "";
	struct tcp_info ti;
	int opt, fd;

	while ((opt = getopt(argc, argv, "c:p:C:n:t:i:s:l:S:T:")) != -1) {
		switch (opt) {
		case 'c': addr = optarg; break;
		case 'p': port = (unsigned int)parse_num(optarg, "port"); break;
		case 'C': cc = optarg; break;
		case 'n': nbytes = parse_num(optarg, "byte count"); break;
		case 't': secs = (unsigned int)parse_num(optarg, "seconds"); break;
		case 'i': in = optarg; break;
		case 's': sample_ms = (unsigned int)parse_num(optarg, "sample interval"); break;
		case 'l': samples = optarg; break;
		case 'S': seed = parse_num(optarg, "seed"); break;
		case 'T': timeout = (unsigned int)parse_num(optarg, "timeout"); break;
		default:
			die("usage: send -c ADDR -p PORT [-C CC] (-n BYTES | -t SECS | -i FILE) [-s MS -l FILE] [-S SEED] [-T SECS]");
		}
	}
	if (!addr || !port || (!nbytes && !secs && !in))
		die("send needs -c ADDR -p PORT and one of -n, -t, -i");
	if ((samples != NULL) != (sample_ms != 0))
		die("-s MS and -l FILE go together");
	alarm(timeout);
	sum_init(&sum);

	if (in) {
		struct stat st;
		int ifd = open(in, O_RDONLY);

		if (ifd < 0 || fstat(ifd, &st) < 0)
			die("open %s: %s", in, strerror(errno));
		dlen = (size_t)st.st_size;
		data = malloc(dlen ? dlen : 1);
		if (!data)
			die("out of memory");
		for (size_t got_n = 0; got_n < dlen;) {
			ssize_t r = read(ifd, data + got_n, dlen - got_n);

			if (r <= 0)
				die("read %s: %s", in, r ? strerror(errno) : "short file");
			got_n += (size_t)r;
		}
		close(ifd);
		nbytes = dlen;
	} else {
		dlen = PATTERN;
		data = malloc(dlen);
		if (!data)
			die("out of memory");
		fill_pattern(data, dlen, seed);
	}

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0)
		die("setsockopt(TCP_CONGESTION, %s): %s", cc, strerror(errno));
	sa.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die("bad address %s", addr);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("connect %s:%u: %s", addr, port, strerror(errno));
	len = sizeof(got) - 1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, got, &len) < 0)
		die("getsockopt(TCP_CONGESTION): %s", strerror(errno));
	got[len] = '\0';
	if (getsockname(fd, (struct sockaddr *)&me, &mlen) < 0)
		die("getsockname: %s", strerror(errno));
	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		die("fcntl: %s", strerror(errno));

	s.fd = fd;
	if (samples) {
		s.f = fopen(samples, "w");
		if (!s.f)
			die("create %s: %s", samples, strerror(errno));
		fputs(FA_SAMPLE_HEADER, s.f);
		s.every_us = (uint64_t)sample_ms * 1000;
		s.next_us = now_us();
	}
	t0 = now_us();
	if (secs)
		deadline = t0 + (uint64_t)secs * 1000000;

	for (;;) {
		size_t want;
		ssize_t n;

		if (deadline && now_us() >= deadline)
			break;
		if (!secs && sent >= nbytes)
			break;
		want = dlen - off;
		if (want > CHUNK)
			want = CHUNK;
		if (!secs && want > nbytes - sent)
			want = (size_t)(nbytes - sent);
		n = send(fd, data + off, want, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			short ev = wait_sock(&s, false);

			if (ev & (POLLERR | POLLHUP))
				die("connection failed while sending");
			continue;
		}
		if (n < 0)
			die("send: %s", strerror(errno));
		sum_add(&sum, data + off, (size_t)n);
		sent += (unsigned long long)n;
		off += (size_t)n;
		if (off == dlen)
			off = 0;
		if (s.f && now_us() >= s.next_us)
			wait_sock(&s, false);
	}
	if (shutdown(fd, SHUT_WR) < 0)
		die("shutdown: %s", strerror(errno));
	/* The receiver closes after reading everything: then all is acked. */
	for (;;) {
		char b[256];
		ssize_t n = read(fd, b, sizeof(b));

		if (n == 0)
			break;
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			wait_sock(&s, true);
			continue;
		}
		if (n < 0)
			die("waiting for the receiver to close: %s", strerror(errno));
	}
	sample(&s);
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len);
	if (s.f && fclose(s.f))
		die("write %s: %s", samples, strerror(errno));
	printf("send cc=%s sport=%u bytes=%llu fnv64=%016" PRIx64 " retrans=%u secs=%.3f\n",
	       got, ntohs(me.sin_port), sent, sum_final(&sum), ti.tcpi_total_retrans,
	       (double)(now_us() - t0) / 1e6);
	close(fd);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		die("usage: fa_xfer recv|send ...");
	if (!strcmp(argv[1], "recv"))
		return do_recv(argc - 1, argv + 1);
	if (!strcmp(argv[1], "send"))
		return do_send(argc - 1, argv + 1);
	die("unknown mode '%s' (recv or send)", argv[1]);
	return 1;
}
