/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ns-3 host of the fast_adaptive control law.
 *
 * The law itself lives in include/fast_adaptive/fa_law.h and is compiled
 * into this model unchanged; this class is only glue, mirroring what
 * tcp_fast_adaptive.c does in the kernel:
 *   PktsAcked      -> fa_rtt_sample()                    (pkts_acked)
 *   IncreaseWindow -> round boundary + fa_round_end/fa_apply, slow start
 *                     with fa_ss_exit/fa_ss_done, else fa_cwnd_on_ack
 *                                                       (cong_avoid)
 *   GetSsThresh    -> fa_ssthresh()                      (ssthresh)
 *   CwndEvent(TX_START) -> fa_restart()                  (cwnd_event)
 * ns-3 3.37 has no undo_cwnd hook, so fa_undo() is never called here.
 *
 * Attributes carry the names of the rows of FA_PARAM_TABLE
 * (include/fast_adaptive/fa_params.h) with its defaults and ranges.
 */
#ifndef TCP_FAST_ADAPTIVE_H
#define TCP_FAST_ADAPTIVE_H

#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traced-value.h"

#include "fast_adaptive/fa_law.h"

#include <functional>
#include <map>

namespace ns3
{

class TcpFastAdaptive : public TcpCongestionOps
{
  public:
    static TypeId GetTypeId();
    TcpFastAdaptive();
    TcpFastAdaptive(const TcpFastAdaptive& other);
    ~TcpFastAdaptive() override;

    std::string GetName() const override;
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
    Ptr<TcpCongestionOps> Fork() override;

    /* For the scenario's traces: the law's state and its last update. */
    const struct fa_state& GetLawState() const { return m_state; }
    const struct fa_update& GetLastUpdate() const { return m_lastUpdate; }
    uint32_t GetUpdates() const { return m_updates; }
    /* How slow start ended: 0 not yet, 1 backlog rule, 2 delay rule,
     * 3 ssthresh (loss). Time of the exit in us. */
    int GetSsExitRule() const { return m_ssExitRule; }
    uint32_t GetSsExitTimeUs() const { return m_ssExitUs; }
    /* Called with each update of the law (like the fast_adaptive:update
     * tracepoint). */
    std::function<void(const struct fa_update&)> m_onUpdate;
    /* The paper's assumption ("each connection obtained accurate propagation
     * delay"): when non-zero, the law's base RTT starts at this value instead
     * of being learnt from samples.  Host-side only; 0 (default) = measured,
     * as the kernel does. */
    uint32_t m_oracleBaseUs{0};
    /* Time the law's RTT samples as Linux does (the sender socket's Tx and
     * Rx traces; see the .cc).  Without it the model reads ns-3's RTT. */
    void AttachSocket(Ptr<TcpSocketBase> sock);

  private:
    /* A data segment in flight, for the Linux-style RTT sample. */
    struct TxSeg
    {
        uint64_t end;   /* one past its last byte (unwrapped sequence) */
        int64_t sentUs; /* its last transmission */
        bool retx;      /* ever retransmitted (Karn: never timed) */
        bool sacked;
    };
    void OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s);
    void OnRx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s);
    uint64_t Unwrap(SequenceNumber32 seq) const;

    void ReadParams(struct fa_params* p) const;
    static uint32_t NowUs();
    static void SetCwndPkts(Ptr<TcpSocketState> tcb, uint32_t pkts);
    bool CwndLimited(Ptr<const TcpSocketState> tcb, uint32_t acked, bool inSs) const;
    void PaceRestore(Ptr<TcpSocketState> tcb, const struct fa_params* p);
    void PaceRelease(Ptr<TcpSocketState> tcb);

    /* tunables (raw, as set; sanitised at each use like the kernel) */
#define FA_PARAM_MEMBER(name, def, lo, hi, desc) uint32_t m_##name;
    FA_PARAM_TABLE(FA_PARAM_MEMBER)
#undef FA_PARAM_MEMBER

    struct fa_state m_state;
    struct fa_update m_lastUpdate;
    SequenceNumber32 m_roundEndSeq;
    uint32_t m_updates{0};
    int m_ssExitRule{0};
    uint32_t m_ssExitUs{0};
    bool m_ssthreshFollowsLaw{true};
    bool m_attached{false};
    std::map<uint64_t, TxSeg> m_txSegs; /* keyed by first byte */
    uint64_t m_txEnd{0};                /* highest end sent (unwrapped) */
    int64_t m_lastTxUs{-1};             /* last data segment sent (attached) */
    int64_t m_lastAckUs{-1};            /* last ACK the law saw */
    SequenceNumber32 m_txEndSeq;        /* the same, on the wire */
    bool m_txStarted{false};
};

} // namespace ns3

#endif
