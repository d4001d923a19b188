/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fastctl: shared declarations.
 *
 * fastctl reads TCP sockets through NETLINK_SOCK_DIAG (as ss does), derives
 * the fast_adaptive view of each flow with the control law of
 * include/fast_adaptive/fa_law.h, and prints it as a table, JSON or CSV.
 *
 * Everything here except fc_diag_dump() and the sysfs accessors is a pure
 * function of its arguments, so that tests/test_fastctl.c can check it
 * without a kernel and tests/fuzz_fastctl.c can fuzz it.
 */
#ifndef _FASTCTL_FC_H
#define _FASTCTL_FC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>

#include "fast_adaptive/fa_law.h"
#include "linux/tcp_fast_adaptive.h"

/* TCP states as the kernel numbers them (include/net/tcp_states.h). */
enum {
	FC_TCP_ESTABLISHED = 1, FC_TCP_SYN_SENT, FC_TCP_SYN_RECV,
	FC_TCP_FIN_WAIT1, FC_TCP_FIN_WAIT2, FC_TCP_TIME_WAIT, FC_TCP_CLOSE,
	FC_TCP_CLOSE_WAIT, FC_TCP_LAST_ACK, FC_TCP_LISTEN, FC_TCP_CLOSING,
};

/* Longest congestion control name (include/net/tcp.h). */
#define FC_CA_NAME_MAX		16

#define FC_VERSION		"1.0"
/* Bumped only when a JSON or CSV field is renamed or changes meaning. */
#define FC_SCHEMA		1

/* Exit statuses. */
#define FC_EXIT_OK		0
#define FC_EXIT_FAIL		1	/* runtime error, kernel refused */
#define FC_EXIT_USAGE		2	/* bad arguments, module missing */

/* ------------------------------------------------------------------ */
/* One socket as sock_diag reported it. */

struct fc_addr {
	int family;			/* AF_INET or AF_INET6 */
	uint8_t a[16];			/* network order; IPv4 in a[0..3] */
};

struct fc_flow {
	struct fc_addr src, dst;
	uint16_t sport, dport;		/* host order */
	uint8_t state;			/* TCP_ESTABLISHED, ... */
	uint32_t uid;
	uint32_t inode;
	uint64_t cookie;
	char cc[FC_CA_NAME_MAX + 1];	/* "" if the kernel did not say */

	bool has_info;
	size_t info_len;		/* bytes the kernel sent, <= sizeof */
	struct tcp_info info;

	bool has_vegas;
	struct tcpvegas_info vegas;

	int mem_n;			/* SK_MEMINFO_* values received */
	uint32_t mem[SK_MEMINFO_VARS];

	double t;			/* sample time, seconds (monotonic) */
};

/* Was field f of struct tcp_info in what this kernel sent? */
#define FC_HAS(fl, f)							\
	((fl)->has_info &&						\
	 (fl)->info_len >= offsetof(struct tcp_info, f) +		\
			   sizeof(((struct tcp_info *)0)->f))

struct fc_flows {
	struct fc_flow *v;
	size_t n, cap;
};

void fc_flows_free(struct fc_flows *fs);
struct fc_flow *fc_flows_push(struct fc_flows *fs);

/*
 * Parse one SOCK_DIAG_BY_FAMILY answer (an inet_diag_msg and its
 * attributes, len bytes from the start of the inet_diag_msg) into fl.
 * Returns 0, or -1 if the message is malformed.
 */
int fc_diag_parse(const void *msg, size_t len, struct fc_flow *fl);

/*
 * Decode one datagram of a SOCK_DIAG_BY_FAMILY dump (len bytes of netlink
 * messages): every answer with sequence number seq becomes a flow appended
 * to out (malformed ones are skipped), sampled at time t.  family is the
 * one asked for (a kernel without IPv6 answers an AF_INET6 dump with an
 * error, which is the end of an empty dump).  Returns 1 at NLMSG_DONE, 0
 * when more datagrams follow, or -errno with a message in err.
 */
int fc_diag_decode(const void *buf, size_t len, uint32_t seq, int family,
		   double t, struct fc_flows *out, char *err, size_t errlen);

/*
 * Dump every TCP socket in states (a TCPF_* mask) of the given families
 * (AF_INET, AF_INET6 or AF_UNSPEC for both) and append them to out.
 * Returns 0, or -errno with a message in err.
 */
int fc_diag_dump(int family, uint32_t states, struct fc_flows *out,
		 char *err, size_t errlen);

/* Connected states: what ss lists by default, less TIME-WAIT. */
#define FC_STATES_CONNECTED						\
	((1U << FC_TCP_ESTABLISHED) | (1U << FC_TCP_SYN_SENT) |		\
	 (1U << FC_TCP_SYN_RECV) | (1U << FC_TCP_FIN_WAIT1) |			\
	 (1U << FC_TCP_FIN_WAIT2) | (1U << FC_TCP_CLOSE_WAIT) |		\
	 (1U << FC_TCP_LAST_ACK) | (1U << FC_TCP_CLOSING))

/* ------------------------------------------------------------------ */
/* Options of the subcommands (fc_opts.c). */

enum {
	FC_O_ALL = 1 << 0, FC_O_JSON = 1 << 1, FC_O_CC = 1 << 2,
	FC_O_FAM = 1 << 3, FC_O_INTERVAL = 1 << 4, FC_O_CSV = 1 << 5,
	FC_O_COUNT = 1 << 6, FC_O_DURATION = 1 << 7, FC_O_QUIET = 1 << 8,
	FC_O_RATE = 1 << 9, FC_O_OUTPUT = 1 << 10, FC_O_SCRIPT = 1 << 11,
};

struct fc_opts {
	unsigned int seen;		/* FC_O_* given */
	bool all, json, quiet;
	const char *cc;
	int family;
	uint64_t interval_ms;
	const char *csv;
	uint64_t count;
	double duration;
	uint64_t rate;
	const char *output;
	const char *script;
	int npos;			/* positional arguments ... */
	char **pos;			/* ... (free() it) */
};

/*
 * Parse the options of subcommand cmd in argv[0..argc) into o (fields not
 * given keep their values: set defaults first); options not in allowed
 * (FC_O_* bits) are refused.  Returns 0; -1 for a usage error or -2 when
 * out of memory, with a one-line reason in err and o->pos freed.
 */
int fc_opts_parse(const char *cmd, int argc, char **argv,
		  unsigned int allowed, struct fc_opts *o, char *err,
		  size_t errlen);

/* ------------------------------------------------------------------ */
/* Filters, like ss: dst ADDR[/PLEN], src ADDR[/PLEN], dport N, sport N. */

enum fc_cond_kind { FC_F_DST, FC_F_SRC, FC_F_DPORT, FC_F_SPORT };

struct fc_cond {
	enum fc_cond_kind kind;
	struct fc_addr addr;
	int plen;
	uint16_t port;
};

#define FC_MAX_CONDS	16

struct fc_filter {
	int n;
	struct fc_cond c[FC_MAX_CONDS];
};

/*
 * Parse argv[0..argc) as a filter.  Returns 0, or -1 with a one-line
 * reason in err.
 */
int fc_filter_parse(int argc, char **argv, struct fc_filter *f,
		    char *err, size_t errlen);
bool fc_filter_match(const struct fc_filter *f, const struct fc_flow *fl);

/* Parse "1.2.3.4", "::1", "[::1]", optionally "/PLEN".  0 or -1. */
int fc_addr_parse(const char *s, struct fc_addr *a, int *plen);
/* Format an address (IPv4-mapped IPv6 shown as IPv4). */
const char *fc_addr_str(const struct fc_addr *a, char *buf, size_t len);
/* "1.2.3.4:80" or "[::1]:80". */
const char *fc_endpoint_str(const struct fc_addr *a, uint16_t port,
			    char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Tunables (fa_params.h) and sysfs. */

/*
 * The table is fa_param_descs[] of include/fast_adaptive/fa_params.h, the
 * rows the module's parameter handlers check writes against.
 */
#define fc_param_defs	fa_param_descs
#define fc_param_count	((int)FA_P_COUNT)
#define FC_PARAM_MAX	FA_P_COUNT

/* Index of the tunable called name, or -1. */
int fc_param_index(const char *name);
/*
 * Parse a decimal value for tunable idx and check its range.
 * Returns 0, or -1 with a one-line reason in err.
 */
int fc_param_parse(int idx, const char *s, uint32_t *val,
		   char *err, size_t errlen);
/* The arguments of "fastctl params": NAME or NAME=VALUE each. */
struct fc_param_args {
	int nnamed, nset;
	bool named[FC_PARAM_MAX];	/* NAME given */
	bool set[FC_PARAM_MAX];		/* NAME=VALUE given ... */
	uint32_t want[FC_PARAM_MAX];	/* ... with this value */
};

/*
 * Parse and check args[0..n) (names known, none twice, values in range,
 * gamma_min <= gamma_max when both are set) before anything is written.
 * Returns 0, or -1 with a one-line reason in err.
 */
int fc_param_args_parse(int n, char **args, struct fc_param_args *a,
			char *err, size_t errlen);
/* Check cross-field rules on a full set of values (gamma_min <= gamma_max). */
int fc_param_check_set(const uint32_t *vals, char *err, size_t errlen);
/* Fill a struct fa_params from values indexed like fc_param_defs. */
void fc_param_to_fa(const uint32_t *vals, struct fa_params *p);

/* Directory of the module's parameters ($FASTCTL_PARAM_DIR overrides). */
const char *fc_param_dir(void);
/* Is fast_adaptive available (module loaded or built in)? */
bool fc_module_present(void);
/* Read one tunable from sysfs: 0, or -errno. */
int fc_param_read(int idx, uint32_t *val);
/* Write one tunable: 0, or -errno (the kernel's answer). */
int fc_param_write(int idx, uint32_t val);
/* The live tunables if readable, the defaults otherwise. */
void fc_params_live(struct fa_params *p);

/* ------------------------------------------------------------------ */
/* Derived view of a flow: what show, watch and doctor print. */

struct fc_view {
	bool is_fa;			/* cc == fast_adaptive */
	const char *phase;		/* slow_start law probe compete ... */
	const char *ca_state;		/* open disorder cwr recovery loss */
	const char *state;		/* ESTAB, SYN-SENT, ... */
	uint32_t cwnd, mss;
	bool ssthresh_set;		/* false: infinite (initial) */
	uint32_t ssthresh;
	uint32_t srtt_us, rttvar_us;
	bool min_rtt_known;
	uint32_t min_rtt_us;
	bool base_known, avg_known;	/* from INET_DIAG_VEGASINFO */
	uint32_t base_rtt_us, avg_rtt_us;
	bool backlog_known;		/* base and avg known */
	double backlog_pkts;		/* w (avg - base) / avg */
	double dist;			/* |b - alpha| / alpha */
	uint32_t target_cwnd;		/* w base / avg + alpha */
	double gamma_next;		/* gain the law would pick now */
	bool gamma_known;		/* fast_adaptive only */
	uint32_t gamma_q10;		/* gain of the last update */
	/*
	 * The module's phase is FA_INFO_PHASE_COMPETE (also while the
	 * kernel's recovery or loss shows as phase), for compete_s whole
	 * seconds, FA_INFO_COMPETE_S_MAX meaning that many or more.
	 */
	bool competing;
	uint32_t compete_s;
	uint64_t pacing_bps, delivery_bps;
	bool app_limited;
	uint32_t retrans, total_retrans, lost, unacked;
	uint64_t bytes_acked, bytes_received;
	uint64_t busy_us, rwnd_limited_us, sndbuf_limited_us;
	bool snd_wnd_known;
	uint32_t snd_wnd;
	bool sndbuf_known, rcvbuf_known, wmem_known, notsent_known;
	uint32_t sndbuf, rcvbuf, wmem_queued, notsent_bytes;
};

void fc_view_make(const struct fc_flow *fl, const struct fa_params *p,
		  struct fc_view *v);
const char *fc_state_name(uint8_t state);

/* ------------------------------------------------------------------ */
/* Formatting. */

/* "52.1ms", "31us", "1.20s"; "-" for unknown. */
const char *fc_fmt_us(uint32_t us, bool known, char *buf, size_t len);
/* "49.8Mbit/s" from bits per second. */
const char *fc_fmt_rate(uint64_t bps, char *buf, size_t len);
/* "1.5MiB" from bytes. */
const char *fc_fmt_bytes(uint64_t b, char *buf, size_t len);
/* Parse "100mbit", "1g", "2.5Gbit/s", "800000" (bits per second). */
int fc_parse_rate(const char *s, uint64_t *bps);
/* Parse a non-negative decimal integer that fits in max. */
int fc_parse_uint(const char *s, uint64_t max, uint64_t *out);
/* Parse seconds, possibly fractional ("2", "0.5"), > 0, <= 1e6. */
int fc_parse_seconds(const char *s, double *out);

/* Minimal JSON writer, with indentation and commas done for you. */
struct fc_json {
	FILE *f;
	int depth;
	bool first[32];
	bool compact;
};

void fc_json_init(struct fc_json *j, FILE *f, bool compact);
void fc_json_obj_begin(struct fc_json *j, const char *key);
void fc_json_obj_end(struct fc_json *j);
void fc_json_arr_begin(struct fc_json *j, const char *key);
void fc_json_arr_end(struct fc_json *j);
void fc_json_str(struct fc_json *j, const char *key, const char *val);
void fc_json_u64(struct fc_json *j, const char *key, uint64_t val);
void fc_json_s64(struct fc_json *j, const char *key, int64_t val);
void fc_json_dbl(struct fc_json *j, const char *key, double val, int prec);
void fc_json_bool(struct fc_json *j, const char *key, bool val);
void fc_json_null(struct fc_json *j, const char *key);
/* Write s as a JSON string literal (with quotes). */
void fc_json_escape(FILE *f, const char *s);

/* The flow's identity and state as JSON members (show, watch, doctor). */
void fc_json_flow(struct fc_json *j, const struct fc_flow *fl,
		  const struct fc_view *v);

/* Table of show. */
void fc_table_header(FILE *f);
void fc_table_row(FILE *f, const struct fc_flow *fl, const struct fc_view *v);

/* CSV of watch: the header line and one row. */
extern const char *const fc_csv_columns[];
extern const int fc_csv_ncolumns;
void fc_csv_header(FILE *f);
void fc_csv_row(FILE *f, double t, int flow_id, const struct fc_flow *fl,
		const struct fc_view *v);
/*
 * Split one CSV line (no quoting: fastctl writes none) into at most max
 * fields, in place.  Returns the number of fields.
 */
int fc_csv_split(char *line, char **fields, int max);

/* ------------------------------------------------------------------ */
/* doctor: what limits a flow. */

enum fc_limit {
	FC_LIM_CWND,		/* congestion control / network path */
	FC_LIM_RWND,		/* the peer's receive window */
	FC_LIM_SNDBUF,		/* the local send buffer */
	FC_LIM_APP,		/* the application does not supply data */
	FC_LIM_RECEIVER,	/* this socket receives; the peer sends */
	FC_LIM_IDLE,		/* no data moved */
};

const char *fc_limit_name(enum fc_limit l);

struct fc_doctor_opts {
	uint64_t rate_bps;	/* --rate: target rate for sizing advice, 0 */
};

#define FC_ADVICE_MAX	6
#define FC_LINE		400

struct fc_verdict {
	enum fc_limit limit;
	bool windowed;		/* fractions over a window, not cumulative */
	double window_s;
	/* fractions of the window (or of busy time when cumulative) */
	double f_cwnd, f_rwnd, f_sndbuf, f_app;
	double f_sndbuf_kernel;	/* tcpi_sndbuf_limited alone */
	double f_sndbuf_snap;	/* snapshots alone, -1 if none */
	uint64_t bdp_bytes;	/* delivery_rate * min_rtt, 0 if unknown */
	double loss_pct;	/* retransmitted segments, percent */
	char summary[FC_LINE];
	int nnotes;
	char notes[FC_ADVICE_MAX][FC_LINE];
	int nadvice;
	char advice[FC_ADVICE_MAX][FC_LINE];
};

/*
 * Snapshots of one socket taken during the doctor window: how many, and in
 * how many it looked send-buffer-limited (fc_snap_sndbuf_limited).
 */
struct fc_snaps {
	int n;
	int sndbuf;
};

/*
 * One snapshot: everything written is in flight (notsent < 1 MSS), the
 * congestion window has room (in flight < cwnd - 1) and the send buffer is
 * at least half full, so the application is waiting for buffer space, not
 * for the network.  The kernel's tcpi_sndbuf_limited stopwatch misses such
 * flows on some kernels (seen on 6.12); this is the second opinion.
 */
bool fc_snap_sndbuf_limited(const struct fc_flow *fl);

/*
 * Decide what limits the flow.  prev is an earlier sample of the same
 * socket (or NULL: use the counters since the connection started); snaps,
 * if not NULL, the snapshots taken in between.
 */
void fc_doctor(const struct fc_flow *prev, const struct fc_flow *cur,
	       const struct fc_snaps *snaps, const struct fa_params *p,
	       const struct fc_doctor_opts *o, struct fc_verdict *r);

/* ------------------------------------------------------------------ */
/* plot: a gnuplot script for a watch CSV. */

/*
 * Read the CSV at path and write a complete gnuplot script (data inlined
 * as datablocks) that draws cwnd, RTT/base RTT and backlog over time into
 * png.  Returns the number of flows, or -1 with a reason in err.
 */
int fc_plot_script(const char *csv, const char *png, FILE *out,
		   char *err, size_t errlen);

#endif /* _FASTCTL_FC_H */
