// SPDX-License-Identifier: GPL-2.0
/*
 * fa_flow: bounded bulk TCP traffic for fastctl's tests.
 *
 *	fa_flow server -p PORT [-b ADDR] [-R RCVBUF] [-t SECONDS] [-n CONNS]
 *	fa_flow client -c ADDR -p PORT [-C CC] [-S SNDBUF] [-R RCVBUF]
 *		       [-t SECONDS] [-w BYTES_PER_S] [-n FLOWS] [-B ADDR]
 *
 * The server accepts connections and discards what they send; it exits
 * after SECONDS (default 30) or once CONNS connections have closed.  The
 * client opens FLOWS connections (default 1), each in its own process,
 * using congestion control CC (TCP_CONGESTION, before connect), SO_SNDBUF
 * and SO_RCVBUF when given, and writes as fast as it may (or BYTES_PER_S)
 * for SECONDS (default 10).  Nothing here runs unbounded.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fa_flow server -p PORT [-b ADDR] [-R RCVBUF] [-t S] [-n CONNS]\n"
		"       fa_flow client -c ADDR -p PORT [-C CC] [-S SNDBUF] [-R RCVBUF] [-t S] [-w BPS] [-n FLOWS] [-B ADDR]\n");
	exit(2);
}

static int resolve(const char *host, const char *port, int passive,
		   struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { 0 }, *ai;
	int e;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV |
			 (passive ? AI_PASSIVE : 0);
	e = getaddrinfo(host, port, &hints, &ai);
	if (e) {
		fprintf(stderr, "fa_flow: %s port %s: %s\n", host ? host : "*",
			port, gai_strerror(e));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static int set_int(int fd, int level, int opt, int v, const char *what)
{
	if (setsockopt(fd, level, opt, &v, sizeof(v))) {
		fprintf(stderr, "fa_flow: %s %d: %s\n", what, v, strerror(errno));
		return -1;
	}
	return 0;
}

#define MAXC 256

static int server(const char *bind_addr, const char *port, int rcvbuf,
		  double secs, int conns)
{
	struct sockaddr_storage ss;
	struct pollfd pfd[MAXC + 1];
	static char buf[1 << 18];
	double end = now() + secs;
	int n = 1, closed = 0, one = 1, lfd;
	socklen_t len;

	if (resolve(bind_addr ? bind_addr : "::", port, 1, &ss, &len))
		return 1;
	lfd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (lfd < 0) {
		perror("fa_flow: socket");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (rcvbuf && set_int(lfd, SOL_SOCKET, SO_RCVBUF, rcvbuf, "SO_RCVBUF"))
		return 1;
	if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, 64)) {
		fprintf(stderr, "fa_flow: bind/listen port %s: %s\n", port,
			strerror(errno));
		return 1;
	}
	pfd[0].fd = lfd;
	pfd[0].events = POLLIN;
	while (now() < end && (!conns || closed < conns)) {
		int i, r = poll(pfd, n, 100);

		if (r < 0 && errno != EINTR) {
			perror("fa_flow: poll");
			return 1;
		}
		if (r <= 0)
			continue;
		if (pfd[0].revents & POLLIN) {
			int c = accept(lfd, NULL, NULL);

			if (c >= 0 && n <= MAXC) {
				pfd[n].fd = c;
				pfd[n].events = POLLIN;
				pfd[n].revents = 0;
				n++;
			} else if (c >= 0) {
				close(c);
			}
		}
		for (i = 1; i < n; i++) {
			ssize_t got;

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(pfd[i].fd, buf, sizeof(buf));
			if (got > 0 || (got < 0 && errno == EINTR))
				continue;
			close(pfd[i].fd);
			pfd[i] = pfd[--n];
			closed++;
			i--;
		}
	}
	return 0;
}

static int one_client(const char *addr, const char *port, const char *bind_addr,
		      const char *cc, int sndbuf, int rcvbuf, double secs,
		      double rate)
{
	struct sockaddr_storage ss, bs;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };
	static char buf[1 << 16];
	double start, end;
	unsigned long long sent = 0;
	socklen_t len, blen;
	int fd;

	if (resolve(addr, port, 0, &ss, &len))
		return 1;
	fd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (fd < 0) {
		perror("fa_flow: socket");
		return 1;
	}
	if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc))) {
		fprintf(stderr, "fa_flow: TCP_CONGESTION %s: %s\n", cc,
			strerror(errno));
		return 1;
	}
	if (sndbuf && set_int(fd, SOL_SOCKET, SO_SNDBUF, sndbuf, "SO_SNDBUF"))
		return 1;
	if (rcvbuf && set_int(fd, SOL_SOCKET, SO_RCVBUF, rcvbuf, "SO_RCVBUF"))
		return 1;
	if (bind_addr) {
		if (resolve(bind_addr, "0", 1, &bs, &blen) ||
		    bind(fd, (struct sockaddr *)&bs, blen)) {
			fprintf(stderr, "fa_flow: bind %s: %s\n", bind_addr,
				strerror(errno));
			return 1;
		}
	}
	if (connect(fd, (struct sockaddr *)&ss, len)) {
		fprintf(stderr, "fa_flow: connect %s port %s: %s\n", addr, port,
			strerror(errno));
		return 1;
	}
	/* after connect: a slow handshake must not time out */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	memset(buf, 'x', sizeof(buf));
	start = now();
	end = start + secs;
	while (now() < end) {
		size_t chunk = sizeof(buf);
		ssize_t w;

		if (rate > 0) {
			double due = (now() - start) * rate - (double)sent;

			if (due < 1) {
				usleep(1000);
				continue;
			}
			if (due < (double)chunk)
				chunk = (size_t)due;
		}
		w = write(fd, buf, chunk);
		if (w > 0)
			sent += (unsigned long long)w;
		else if (w < 0 && errno != EAGAIN && errno != EINTR) {
			fprintf(stderr, "fa_flow: write: %s\n", strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL, *cc = NULL, *bind_addr = NULL;
	int sndbuf = 0, rcvbuf = 0, nflows = 0, opt, i, fails = 0;
	double secs = 0, rate = 0;
	int is_server;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "server"))
		is_server = 1;
	else if (!strcmp(argv[1], "client"))
		is_server = 0;
	else
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "p:b:c:C:S:R:t:w:n:B:")) != -1) {
		switch (opt) {
		case 'p':
			port = optarg;
			break;
		case 'b':
			bind_addr = optarg;
			break;
		case 'B':
			bind_addr = optarg;
			break;
		case 'c':
			addr = optarg;
			break;
		case 'C':
			cc = optarg;
			break;
		case 'S':
			sndbuf = atoi(optarg);
			break;
		case 'R':
			rcvbuf = atoi(optarg);
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'w':
			rate = atof(optarg);
			break;
		case 'n':
			nflows = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (!port || (!is_server && !addr) || secs < 0 || secs > 3600 ||
	    nflows < 0 || nflows > MAXC)
		usage();
	signal(SIGPIPE, SIG_IGN);
	if (is_server)
		return server(bind_addr, port, rcvbuf, secs ? secs : 30, nflows);

	if (!nflows)
		nflows = 1;
	for (i = 0; i < nflows; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fa_flow: fork");
			return 1;
		}
		if (pid == 0) {
			/* a killed client takes its flows with it */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() == 1)
				_exit(1);
			_exit(one_client(addr, port, bind_addr, cc, sndbuf,
					 rcvbuf, secs ? secs : 10, rate));
		}
	}
	for (i = 0; i < nflows; i++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			fails++;
	}
	return fails ? 1 : 0;
}
