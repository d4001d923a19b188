// SPDX-License-Identifier: GPL-2.0
/*
 * fa_diag - list TCP sockets of the current network namespace through
 * NETLINK_SOCK_DIAG, with the congestion control's name (INET_DIAG_CONG)
 * and its INET_DIAG_VEGASINFO answer, as ss would fetch them.
 *
 *   fa_diag [-d DPORT] [-s SPORT]
 *
 * One line per socket:
 *   sport=P dport=P state=S cong=NAME cwnd=W vegas=1 enabled=E rttcnt=N rtt_us=R minrtt_us=M
 * (vegas=0 and no further fields when the socket sent no VEGASINFO).
 * Exit status 0, or 1 when the dump failed.
 */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg;
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	static char buf[65536];
	int fd, opt, dport = -1, sport = -1;

	while ((opt = getopt(argc, argv, "d:s:")) != -1) {
		switch (opt) {
		case 'd': dport = atoi(optarg); break;
		case 's': sport = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: fa_diag [-d DPORT] [-s SPORT]\n");
			return 2;
		}
	}

	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		perror("fa_diag: socket(NETLINK_SOCK_DIAG)");
		return 1;
	}
	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.req.sdiag_family = AF_INET;
	msg.req.sdiag_protocol = IPPROTO_TCP;
	msg.req.idiag_states = ~0U;
	msg.req.idiag_ext = (1 << (INET_DIAG_INFO - 1)) |
			    (1 << (INET_DIAG_VEGASINFO - 1)) |
			    (1 << (INET_DIAG_CONG - 1));
	if (sendto(fd, &msg, sizeof(msg), 0, (struct sockaddr *)&nl, sizeof(nl)) < 0) {
		perror("fa_diag: sendto");
		return 1;
	}

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0) {
			perror("fa_diag: recv");
			return 1;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			struct inet_diag_msg *m = NLMSG_DATA(h);
			struct rtattr *a;
			int alen;
			const char *cong = "-";
			const struct tcpvegas_info *v = NULL;
			const struct tcp_info *ti = NULL;

			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				fprintf(stderr, "fa_diag: netlink error %d (%s)\n",
					e->error, strerror(-e->error));
				return 1;
			}
			if (dport >= 0 && ntohs(m->id.idiag_dport) != dport)
				continue;
			if (sport >= 0 && ntohs(m->id.idiag_sport) != sport)
				continue;
			alen = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
			for (a = (struct rtattr *)(m + 1); RTA_OK(a, alen);
			     a = RTA_NEXT(a, alen)) {
				if (a->rta_type == INET_DIAG_CONG)
					cong = RTA_DATA(a);
				else if (a->rta_type == INET_DIAG_VEGASINFO &&
					 RTA_PAYLOAD(a) >= (int)sizeof(*v))
					v = RTA_DATA(a);
				else if (a->rta_type == INET_DIAG_INFO &&
					 RTA_PAYLOAD(a) >= (int)offsetof(struct tcp_info, tcpi_rcv_rtt))
					ti = RTA_DATA(a);
			}
			printf("sport=%u dport=%u state=%u cong=%s cwnd=%u",
			       ntohs(m->id.idiag_sport), ntohs(m->id.idiag_dport),
			       m->idiag_state, cong, ti ? ti->tcpi_snd_cwnd : 0);
			if (v)
				printf(" vegas=1 enabled=%u rttcnt=%u rtt_us=%u minrtt_us=%u\n",
				       v->tcpv_enabled, v->tcpv_rttcnt, v->tcpv_rtt,
				       v->tcpv_minrtt);
			else
				printf(" vegas=0\n");
		}
	}
out:
	close(fd);
	return 0;
}
