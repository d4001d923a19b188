/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels fast_adaptive is built for,
 * kept in one place.  Supported: 6.1 (Debian 12) and 6.12.
 *
 * - tcp_snd_cwnd()/tcp_snd_cwnd_set() appeared in 5.19; older kernels write
 *   tp->snd_cwnd directly.
 * - tcp_congestion_ops.cong_control() gained (ack, flag) arguments in 6.10.
 *   fast_adaptive deliberately uses cong_avoid(), whose signature is the
 *   same in both, so that the kernel keeps its PRR and undo machinery in
 *   charge during recovery; nothing to shim.
 * - sysfs_emit() exists in both (5.10+).
 */
#ifndef _FA_COMPAT_H
#define _FA_COMPAT_H

#include <linux/version.h>
#include <net/tcp.h>

#if KERNEL_VERSION(5, 19, 0) > LINUX_VERSION_CODE
static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

static inline void tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val)
{
	tp->snd_cwnd = val;
}
#endif

#endif /* _FA_COMPAT_H */
