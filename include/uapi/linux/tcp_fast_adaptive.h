/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * What userspace reads from a fast_adaptive socket.
 *
 * The module answers INET_DIAG_VEGASINFO (sock_diag, as ss gets it) and
 * getsockopt(TCP_CC_INFO) with a struct tcpvegas_info, filled like this:
 *
 *   tcpv_enabled  bit 0: always 1 (the values below are valid)
 *                 bits 1-7: whole seconds the flow has been in phase
 *                 FA_INFO_PHASE_COMPETE, saturating at 127
 *                 (FA_INFO_COMPETE_S_MAX: "127 s or more"); 0 in any
 *                 other phase and in the first second of the mode
 *                 (kernels before the mode sent 0 here)
 *                 bits 8-15: phase, FA_INFO_PHASE_* below
 *                 bits 16-31: gain gamma of the last update, 1/1024 units
 *   tcpv_rttcnt   RTT samples taken in the current round
 *   tcpv_rtt      average RTT (us): minimum sample of the last full round;
 *                 0 before the first round completes
 *   tcpv_minrtt   base RTT (us): propagation-delay estimate;
 *                 0 before the first sample
 *
 * The flow's backlog (packets it keeps queued) follows from tcp_info's
 * cwnd: backlog = cwnd * (tcpv_rtt - tcpv_minrtt) / tcpv_rtt.
 */
#ifndef _UAPI_LINUX_TCP_FAST_ADAPTIVE_H
#define _UAPI_LINUX_TCP_FAST_ADAPTIVE_H

#define FA_CC_NAME			"fast_adaptive"
#define FA_MODULE_NAME			"tcp_fast_adaptive"
#define FA_PARAM_DIR			"/sys/module/tcp_fast_adaptive/parameters"

#define FA_INFO_ENABLED			0x1U
#define FA_INFO_COMPETE_S_SHIFT		1
#define FA_INFO_COMPETE_S_MASK		0x7fU
#define FA_INFO_COMPETE_S_MAX		FA_INFO_COMPETE_S_MASK
#define FA_INFO_PHASE_SHIFT		8
#define FA_INFO_PHASE_MASK		0xffU
#define FA_INFO_GAMMA_SHIFT		16
#define FA_INFO_GAMMA_MASK		0xffffU

/* Same values as enum fa_phase in fa_law.h. */
#define FA_INFO_PHASE_SS		0	/* slow start */
#define FA_INFO_PHASE_LAW		1	/* FAST window control law */
#define FA_INFO_PHASE_PROBE		2	/* draining to re-measure base RTT */
#define FA_INFO_PHASE_RAMP		3	/* slow start re-entered below equilibrium */
/* competing with buffer-filling (loss-based) cross traffic */
#define FA_INFO_PHASE_COMPETE		4

#define FA_INFO_PHASE(enabled) \
	(((enabled) >> FA_INFO_PHASE_SHIFT) & FA_INFO_PHASE_MASK)
#define FA_INFO_GAMMA(enabled) \
	(((enabled) >> FA_INFO_GAMMA_SHIFT) & FA_INFO_GAMMA_MASK)
#define FA_INFO_COMPETE_S(enabled) \
	(((enabled) >> FA_INFO_COMPETE_S_SHIFT) & FA_INFO_COMPETE_S_MASK)

#endif /* _UAPI_LINUX_TCP_FAST_ADAPTIVE_H */
