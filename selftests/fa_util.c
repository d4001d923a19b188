// SPDX-License-Identifier: GPL-2.0
/*
 * fa_util - small syscalls the fast_adaptive selftests need answered with
 * an exact errno, which shell redirections and kmod's tools do not give.
 *
 *   fa_util cc [NAME]          new TCP socket; setsockopt(TCP_CONGESTION, NAME)
 *                              when NAME is given; print "cc=<what getsockopt
 *                              says> uid=<uid>"
 *   fa_util write FILE VALUE   one write(2) of VALUE to FILE ("\n" escapes are
 *                              expanded); print "ok" or the errno name
 *   fa_util delmod NAME        delete_module(NAME, O_NONBLOCK); print "ok" or
 *                              the errno name
 *   fa_util cycle KO MOD CC N  N times: finit_module(KO); CC must then be in
 *                              tcp_available_congestion_control;
 *                              delete_module(MOD); CC must be gone.  Prints
 *                              "cycles=N" or where the first one failed.
 *                              (In C because every exec costs ~0.1 s in the
 *                              TCG guest.)
 *
 * Exit status: 0 on success, 1 when the call failed (its errno name is
 * printed on stdout, e.g. "EINVAL"), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int report(int rc)
{
	if (rc == 0) {
		printf("ok\n");
		return 0;
	}
	printf("%s\n", strerrorname_np(errno) ? strerrorname_np(errno) : "E?");
	return 1;
}

static int cmd_cc(int argc, char **argv)
{
	char name[64] = "";
	socklen_t len = sizeof(name) - 1;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0) {
		perror("socket");
		return 2;
	}
	if (argc > 2 && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, argv[2],
				   (socklen_t)strlen(argv[2])) < 0) {
		printf("setsockopt(TCP_CONGESTION, %s): %s uid=%u\n", argv[2],
		       strerrorname_np(errno), getuid());
		return 1;
	}
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) < 0) {
		printf("getsockopt(TCP_CONGESTION): %s\n", strerrorname_np(errno));
		return 1;
	}
	name[len] = '\0';
	printf("cc=%s uid=%u\n", name, getuid());
	close(fd);
	return 0;
}

static int cmd_write(const char *file, const char *val)
{
	char buf[4096];
	size_t n = 0;
	ssize_t w;
	int fd;

	for (const char *p = val; *p && n < sizeof(buf) - 1; p++) {
		if (p[0] == '\\' && p[1] == 'n') {
			buf[n++] = '\n';
			p++;
		} else {
			buf[n++] = *p;
		}
	}
	fd = open(file, O_WRONLY);
	if (fd < 0)
		return report(-1);
	w = write(fd, buf, n);
	if (w >= 0 && (size_t)w != n) {
		printf("short write %zd of %zu\n", w, n);
		close(fd);
		return 1;
	}
	if (w < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return report(-1);
	}
	return report(close(fd));
}

/* Is cc listed in tcp_available_congestion_control? -1 when unreadable. */
static int cc_listed(const char *cc)
{
	char buf[4096], *tok, *save = NULL;
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control", "r");
	int found = 0;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, cc))
			found = 1;
	return found;
}

static int cmd_cycle(const char *ko, const char *mod, const char *cc, const char *count)
{
	long n = strtol(count, NULL, 10), i;
	int fd = open(ko, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("open %s: %s\n", ko, strerrorname_np(errno));
		return 1;
	}
	for (i = 1; i <= n; i++) {
		if (syscall(SYS_finit_module, fd, "", 0) < 0) {
			printf("cycle %ld: finit_module: %s\n", i, strerrorname_np(errno));
			return 1;
		}
		if (cc_listed(cc) != 1) {
			printf("cycle %ld: %s not available after loading\n", i, cc);
			return 1;
		}
		if (syscall(SYS_delete_module, mod, O_NONBLOCK) < 0) {
			printf("cycle %ld: delete_module: %s\n", i, strerrorname_np(errno));
			return 1;
		}
		if (cc_listed(cc) != 0) {
			printf("cycle %ld: %s still available after unloading\n", i, cc);
			return 1;
		}
	}
	close(fd);
	printf("cycles=%ld\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "cc") && argc <= 3)
		return cmd_cc(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "delmod"))
		return report((int)syscall(SYS_delete_module, argv[2], O_NONBLOCK));
	if (argc == 6 && !strcmp(argv[1], "cycle"))
		return cmd_cycle(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: fa_util cc [NAME] | write FILE VALUE | delmod NAME | cycle KO MOD CC N\n");
	return 2;
}
