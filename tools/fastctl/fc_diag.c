// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl: TCP sockets through NETLINK_SOCK_DIAG.
 *
 * One SOCK_DIAG_BY_FAMILY dump per address family with an
 * inet_diag_req_v2 that asks for INET_DIAG_INFO (struct tcp_info),
 * INET_DIAG_VEGASINFO (what fast_adaptive's get_info fills, see
 * include/uapi/linux/tcp_fast_adaptive.h), INET_DIAG_CONG (the congestion
 * control's name) and INET_DIAG_SKMEMINFO (send and receive buffer sizes).
 * None of these needs privileges.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "fc.h"

void fc_flows_free(struct fc_flows *fs)
{
	free(fs->v);
	fs->v = NULL;
	fs->n = fs->cap = 0;
}

struct fc_flow *fc_flows_push(struct fc_flows *fs)
{
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct fc_flow *v = realloc(fs->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		fs->v = v;
		fs->cap = cap;
	}
	memset(&fs->v[fs->n], 0, sizeof(fs->v[0]));
	return &fs->v[fs->n++];
}

static void addr_from_id(struct fc_addr *a, int family, const __be32 *w)
{
	memset(a, 0, sizeof(*a));
	a->family = family;
	memcpy(a->a, w, family == AF_INET ? 4 : 16);
}

int fc_diag_parse(const void *msg, size_t len, struct fc_flow *fl)
{
	const struct inet_diag_msg *r = msg;
	const struct rtattr *rta;
	size_t alen;

	if (len < sizeof(*r))
		return -1;
	if (r->idiag_family != AF_INET && r->idiag_family != AF_INET6)
		return -1;

	memset(fl, 0, sizeof(*fl));
	addr_from_id(&fl->src, r->idiag_family, r->id.idiag_src);
	addr_from_id(&fl->dst, r->idiag_family, r->id.idiag_dst);
	fl->sport = ntohs(r->id.idiag_sport);
	fl->dport = ntohs(r->id.idiag_dport);
	fl->state = r->idiag_state;
	fl->uid = r->idiag_uid;
	fl->inode = r->idiag_inode;
	fl->cookie = (uint64_t)r->id.idiag_cookie[1] << 32 |
		     r->id.idiag_cookie[0];

	rta = (const struct rtattr *)((const char *)msg +
				      NLMSG_ALIGN(sizeof(*r)));
	alen = len > NLMSG_ALIGN(sizeof(*r)) ? len - NLMSG_ALIGN(sizeof(*r)) : 0;
	for (; RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen)) {
		const void *data = RTA_DATA(rta);
		size_t dlen = RTA_PAYLOAD(rta);

		switch (rta->rta_type) {
		case INET_DIAG_INFO:
			fl->has_info = true;
			fl->info_len = dlen < sizeof(fl->info) ? dlen :
								 sizeof(fl->info);
			memcpy(&fl->info, data, fl->info_len);
			break;
		case INET_DIAG_VEGASINFO:
			if (dlen >= sizeof(fl->vegas)) {
				fl->has_vegas = true;
				memcpy(&fl->vegas, data, sizeof(fl->vegas));
			}
			break;
		case INET_DIAG_CONG: {
			size_t n = strnlen(data, dlen);

			if (n > FC_CA_NAME_MAX)
				n = FC_CA_NAME_MAX;
			memcpy(fl->cc, data, n);
			fl->cc[n] = '\0';
			break;
		}
		case INET_DIAG_SKMEMINFO:
			fl->mem_n = dlen / sizeof(uint32_t);
			if (fl->mem_n > SK_MEMINFO_VARS)
				fl->mem_n = SK_MEMINFO_VARS;
			memcpy(fl->mem, data, fl->mem_n * sizeof(uint32_t));
			break;
		default:
			break;
		}
		/*
		 * Nothing after this one, or the last one lacks its padding:
		 * RTA_NEXT() would take alen below zero, and a size_t wraps.
		 */
		if (RTA_ALIGN(rta->rta_len) >= alen)
			break;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The message after h, or NULL at the end of the n bytes left: NLMSG_NEXT()
 * would step past the end when the last message lacks its padding, and
 * the length left, a size_t, would wrap.
 */
static const struct nlmsghdr *nlmsg_next(const struct nlmsghdr *h, size_t *n)
{
	size_t step = NLMSG_ALIGN(h->nlmsg_len);

	if (step >= *n)
		return NULL;
	*n -= step;
	return (const struct nlmsghdr *)((const char *)h + step);
}

int fc_diag_decode(const void *buf, size_t len, uint32_t seq, int family,
		   double t, struct fc_flows *out, char *err, size_t errlen)
{
	const struct nlmsghdr *h;
	size_t n = len;

	for (h = buf; h && NLMSG_OK(h, n); h = nlmsg_next(h, &n)) {
		struct fc_flow *fl;

		if (h->nlmsg_seq != seq)
			continue;
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);
			int code;

			/* only the error code is read; -4095..0 is valid */
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(e->error)) ||
			    e->error > 0 || e->error < -4095) {
				snprintf(err, errlen,
					 "sock_diag: malformed error message");
				return -EPROTO;
			}
			code = -e->error;
			/* A kernel without IPv6 says so; not an error. */
			if (family == AF_INET6 && (code == ENOENT ||
			    code == EAFNOSUPPORT || code == EINVAL))
				return 1;
			if (!code)	/* an acknowledgement ends the dump */
				return 1;
			snprintf(err, errlen, "sock_diag: %s", strerror(code));
			return -code;
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
			continue;
		fl = fc_flows_push(out);
		if (!fl) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if (fc_diag_parse(NLMSG_DATA(h), h->nlmsg_len - NLMSG_LENGTH(0),
				  fl)) {
			out->n--;
			continue;
		}
		fl->t = t;
	}
	return 0;
}

static int dump_family(int fd, int family, uint32_t states,
		       struct fc_flows *out, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} q;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static char buf[65536] __attribute__((aligned(NLMSG_ALIGNTO)));
	static uint32_t seq;
	double t;

	memset(&q, 0, sizeof(q));
	q.nlh.nlmsg_len = sizeof(q);
	q.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	q.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	q.nlh.nlmsg_seq = ++seq;
	q.req.sdiag_family = family;
	q.req.sdiag_protocol = IPPROTO_TCP;
	q.req.idiag_states = states;
	q.req.idiag_ext = (1U << (INET_DIAG_INFO - 1)) |
			  (1U << (INET_DIAG_VEGASINFO - 1)) |
			  (1U << (INET_DIAG_CONG - 1)) |
			  (1U << (INET_DIAG_SKMEMINFO - 1));

	if (sendto(fd, &q, sizeof(q), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		snprintf(err, errlen, "sock_diag request: %s", strerror(errno));
		return -errno;
	}
	t = now_s();

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		int ret;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "sock_diag receive: %s",
				 strerror(errno));
			return -errno;
		}
		if (n == 0) {
			snprintf(err, errlen, "sock_diag: connection closed");
			return -EIO;
		}
		ret = fc_diag_decode(buf, (size_t)n, q.nlh.nlmsg_seq, family, t,
				     out, err, errlen);
		if (ret)
			return ret > 0 ? 0 : ret;
	}
}

int fc_diag_dump(int family, uint32_t states, struct fc_flows *out,
		 char *err, size_t errlen)
{
	int fd, ret = 0;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open NETLINK_SOCK_DIAG: %s",
			 strerror(errno));
		return -errno;
	}
	if (family == AF_UNSPEC || family == AF_INET)
		ret = dump_family(fd, AF_INET, states, out, err, errlen);
	if (!ret && (family == AF_UNSPEC || family == AF_INET6))
		ret = dump_family(fd, AF_INET6, states, out, err, errlen);
	close(fd);
	return ret;
}
