/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "tcp-fast-adaptive.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/boolean.h"
#include "ns3/uinteger.h"
#include "ns3/abort.h"
#include "ns3/tcp-option-sack.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpFastAdaptive");
NS_OBJECT_ENSURE_REGISTERED(TcpFastAdaptive);

TypeId
TcpFastAdaptive::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpFastAdaptive")
                            .SetParent<TcpCongestionOps>()
                            .AddConstructor<TcpFastAdaptive>()
                            .SetGroupName("Internet")
#define FA_PARAM_ATTR(name, def, lo, hi, desc)                                                     \
    .AddAttribute(#name,                                                                           \
                  desc,                                                                            \
                  UintegerValue(def),                                                              \
                  MakeUintegerAccessor(&TcpFastAdaptive::m_##name),                                \
                  MakeUintegerChecker<uint32_t>(lo, hi))
                                FA_PARAM_TABLE(FA_PARAM_ATTR)
#undef FA_PARAM_ATTR
                                .AddAttribute("SsthreshFollowsLaw",
                                              "Lower ssthresh with every window the law sets, so "
                                              "that the host does not fall back into slow start "
                                              "(false: as tcp_fast_adaptive.c before 835d8b7)",
                                              BooleanValue(true),
                                              MakeBooleanAccessor(&TcpFastAdaptive::m_ssthreshFollowsLaw),
                                              MakeBooleanChecker())
        ;
    return tid;
}

TcpFastAdaptive::TcpFastAdaptive()
    : TcpCongestionOps()
{
#define FA_PARAM_INIT(name, def, lo, hi, desc) m_##name = (def);
    FA_PARAM_TABLE(FA_PARAM_INIT)
#undef FA_PARAM_INIT
    fa_init(&m_state, NowUs());
    m_lastUpdate = {};
}

TcpFastAdaptive::TcpFastAdaptive(const TcpFastAdaptive& o)
    : TcpCongestionOps(o),
      m_onUpdate(o.m_onUpdate),
      m_oracleBaseUs(o.m_oracleBaseUs),
      m_state(o.m_state),
      m_lastUpdate(o.m_lastUpdate),
      m_roundEndSeq(o.m_roundEndSeq),
      m_updates(o.m_updates),
      m_ssExitRule(o.m_ssExitRule),
      m_ssExitUs(o.m_ssExitUs),
      m_ssthreshFollowsLaw(o.m_ssthreshFollowsLaw)
{
#define FA_PARAM_COPY(name, def, lo, hi, desc) m_##name = o.m_##name;
    FA_PARAM_TABLE(FA_PARAM_COPY)
#undef FA_PARAM_COPY
}

TcpFastAdaptive::~TcpFastAdaptive() = default;

std::string
TcpFastAdaptive::GetName() const
{
    return "TcpFastAdaptive";
}

Ptr<TcpCongestionOps>
TcpFastAdaptive::Fork()
{
    return CopyObject<TcpFastAdaptive>(this);
}

/* A snapshot of the tunables, sanitised, as the kernel reads them. */
void
TcpFastAdaptive::ReadParams(struct fa_params* p) const
{
#define FA_PARAM_READ(name, def, lo, hi, desc) p->name = m_##name;
    FA_PARAM_TABLE(FA_PARAM_READ)
#undef FA_PARAM_READ
    fa_params_sanitize(p);
}

uint32_t
TcpFastAdaptive::NowUs()
{
    /* u32 microseconds, wrapping like the kernel's (u32)tcp_mstamp */
    return static_cast<uint32_t>(Simulator::Now().GetMicroSeconds());
}

void
TcpFastAdaptive::SetCwndPkts(Ptr<TcpSocketState> tcb, uint32_t pkts)
{
    pkts = std::max<uint32_t>(pkts, FA_CWND_MIN);
    uint64_t bytes = static_cast<uint64_t>(pkts) * tcb->m_segmentSize;
    tcb->m_cWnd = static_cast<uint32_t>(std::min<uint64_t>(bytes, 0xffffffffULL));
}

/*
 * Linux's tcp_is_cwnd_limited(): in slow start, cwnd < 2 * packets out;
 * otherwise whether the flight filled the window.  ns-3 3.37 keeps no such
 * flag, so it is derived from the flight before this ACK (bytes in flight
 * after it plus what it acked): limited when it was within one segment of
 * cwnd.
 */
bool
TcpFastAdaptive::CwndLimited(Ptr<const TcpSocketState> tcb, uint32_t acked, bool inSs) const
{
    uint64_t before = static_cast<uint64_t>(tcb->m_bytesInFlight.Get()) +
                      static_cast<uint64_t>(acked) * tcb->m_segmentSize;
    if (inSs)
    {
        return tcb->m_cWnd.Get() < 2 * before;
    }
    return before + tcb->m_segmentSize >= tcb->m_cWnd.Get();
}

/*
 * As tcp_fa_pace_restore(): a probe gave back a window far larger than the
 * flight; pace it unless the socket paces already.  Linux's
 * tcp_update_pacing_rate() keeps sk_pacing_rate current on every ACK, paced
 * or not; ns-3 3.37 updates m_pacingRate only while pacing, so the rate is
 * set here as its UpdatePacingRate() will set it at the next ACK (cwnd over
 * the last RTT sample, as 3.37 has no srtt in the socket state, times the
 * slow-start or the congestion-avoidance ratio).
 */
void
TcpFastAdaptive::PaceRestore(Ptr<TcpSocketState> tcb, const struct fa_params* p)
{
    const uint32_t seg = tcb->m_segmentSize;
    if (tcb->m_pacing ||
        !fa_pace_restore_due(&m_state, p, tcb->m_cWnd / seg, tcb->m_bytesInFlight.Get() / seg))
    {
        return;
    }
    Time srtt = tcb->m_lastRtt.Get();
    if (srtt.IsZero())
    {
        return;
    }
    uint16_t ratio =
        tcb->m_cWnd < tcb->m_ssThresh / 2 ? tcb->m_pacingSsRatio : tcb->m_pacingCaRatio;
    double bps = static_cast<double>(tcb->m_cWnd.Get()) * 8.0 / srtt.GetSeconds() * ratio / 100.0;
    tcb->m_pacingRate = std::min(DataRate(static_cast<uint64_t>(bps)), tcb->m_maxPacingRate);
    tcb->m_pacing = true;
    m_state.pace_restore = 1;
}

void
TcpFastAdaptive::PaceRelease(Ptr<TcpSocketState> tcb)
{
    if (!m_state.pace_restore)
    {
        return;
    }
    m_state.pace_restore = 0;
    tcb->m_pacing = false;
}

void
TcpFastAdaptive::Init(Ptr<TcpSocketState> tcb)
{
    fa_init(&m_state, NowUs());
    if (m_oracleBaseUs)
    {
        m_state.base_rtt_us = m_oracleBaseUs;
    }
    m_roundEndSeq = tcb->m_highTxMark;
    m_ssExitRule = 0;
    /* as tcp_fa_init(): the pacing tunable turns the socket's pacing on
     * (ns-3 then paces at 2x cwnd / RTT in slow start, 1.2x after, as
     * Linux); a scenario's --pacing=1 turns it on for every flow anyway */
    if (m_pacing)
    {
        tcb->m_pacing = true;
    }
}

void
TcpFastAdaptive::PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt)
{
    (void)tcb;
    (void)segmentsAcked;
    if (m_attached || rtt.IsZero() || rtt.IsNegative())
    {
        return; /* attached: OnRx has fed this ACK's sample */
    }
    int64_t us = rtt.GetMicroSeconds();
    fa_rtt_sample(&m_state, static_cast<s32>(std::min<int64_t>(us, INT32_MAX)), NowUs());
}

/*
 * Linux times the congestion control's RTT sample (tcp_clean_rtx_queue(),
 * ack_sample.rtt_us) from the most recently sent segment an ACK newly
 * acknowledges: the last one it newly SACKs if any, else the last one it
 * newly acknowledges cumulatively; a segment that was ever retransmitted is
 * never timed, and a cumulative ACK of retransmitted data gives no sample
 * unless a SACK does.  ns-3 3.37 (TcpSocketBase::EstimateRtt, no
 * timestamps) times a cumulative ACK from the oldest segment it covers, and
 * that differs where it matters to the law: the ACK that ends a drained
 * probe covers the old flight's last packet (held by the delayed ACK) and
 * the first packet sent into the drained pipe, and ns-3 reports the first's
 * RTT plus the old queue (152 ms on a 50 ms path, make check's 3 flows),
 * so the probe adopted the standing queue as a longer path.  Attached to
 * the sender's socket, the model keeps its own send times and feeds the law
 * Linux's sample, in the Rx trace, which fires before the ACK is processed
 * (as pkts_acked runs before cong_avoid).
 */
void
TcpFastAdaptive::AttachSocket(Ptr<TcpSocketBase> sock)
{
    m_attached = sock->TraceConnectWithoutContext("Tx", MakeCallback(&TcpFastAdaptive::OnTx, this)) &&
                 sock->TraceConnectWithoutContext("Rx", MakeCallback(&TcpFastAdaptive::OnRx, this));
    NS_ABORT_MSG_UNLESS(m_attached, "TcpFastAdaptive: socket has no Tx/Rx trace");
}

uint64_t
TcpFastAdaptive::Unwrap(SequenceNumber32 seq) const
{
    /* within 2 GiB of the highest byte sent, either side */
    int32_t d = static_cast<int32_t>(seq.GetValue() - m_txEndSeq.GetValue());
    return static_cast<uint64_t>(static_cast<int64_t>(m_txEnd) + d);
}

void
TcpFastAdaptive::OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s)
{
    (void)s;
    uint32_t len = p->GetSize();
    if (len == 0)
    {
        return; /* SYN, FIN-only or a pure ACK: Linux times data */
    }
    if (!m_txStarted)
    {
        m_txStarted = true;
        m_txEndSeq = h.GetSequenceNumber();
        m_txEnd = 1ULL << 32; /* room below for old ACK numbers */
    }
    int64_t now = Simulator::Now().GetMicroSeconds();
    uint64_t beg = Unwrap(h.GetSequenceNumber()), end = beg + len;
    /* bytes sent before: a retransmission, never timed again */
    auto it = m_txSegs.upper_bound(beg);
    if (it != m_txSegs.begin())
    {
        --it;
    }
    for (; it != m_txSegs.end() && it->first < end; ++it)
    {
        if (it->second.end > beg)
        {
            it->second.retx = true;
            it->second.sentUs = now;
        }
    }
    if (end > m_txEnd)
    {
        uint64_t from = std::max(beg, m_txEnd);
        m_txSegs[from] = TxSeg{end, now, from != beg, false};
        m_txEnd = end;
        m_txEndSeq = h.GetSequenceNumber() + SequenceNumber32(len);
    }
    m_lastTxUs = now;
}

void
TcpFastAdaptive::OnRx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s)
{
    (void)p;
    (void)s;
    if (!m_txStarted || !(h.GetFlags() & TcpHeader::ACK))
    {
        return;
    }
    int64_t now = Simulator::Now().GetMicroSeconds();
    int64_t sackUs = -1, cumUs = -1;
    uint64_t sackBeg = 0;
    bool retxAcked = false;

    Ptr<const TcpOptionSack> sack =
        DynamicCast<const TcpOptionSack>(h.GetOption(TcpOption::SACK));
    if (sack)
    {
        for (const auto& blk : sack->GetSackList())
        {
            uint64_t l = Unwrap(blk.first), r = Unwrap(blk.second);
            for (auto it = m_txSegs.lower_bound(l); it != m_txSegs.end() && it->second.end <= r;
                 ++it)
            {
                if (it->second.sacked)
                {
                    continue;
                }
                it->second.sacked = true;
                if (!it->second.retx && (sackUs < 0 || it->first > sackBeg))
                {
                    sackUs = it->second.sentUs;
                    sackBeg = it->first;
                }
            }
        }
    }
    uint64_t ack = Unwrap(h.GetAckNumber());
    while (!m_txSegs.empty() && m_txSegs.begin()->second.end <= ack)
    {
        const TxSeg& seg = m_txSegs.begin()->second;
        if (seg.retx)
        {
            retxAcked = true;
        }
        else if (!seg.sacked)
        {
            cumUs = seg.sentUs; /* ascending: the last is the newest */
        }
        m_txSegs.erase(m_txSegs.begin());
    }
    int64_t from = sackUs >= 0 ? sackUs : (retxAcked ? -1 : cumUs);
    if (from < 0)
    {
        return;
    }
    int64_t us = std::max<int64_t>(now - from, 1);
    fa_rtt_sample(&m_state, static_cast<s32>(std::min<int64_t>(us, INT32_MAX)), NowUs());
}

void
TcpFastAdaptive::IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked)
{
    const uint32_t seg = tcb->m_segmentSize;
    bool inSs = tcb->m_cWnd < tcb->m_ssThresh;
    bool cwndLimited = CwndLimited(tcb, segmentsAcked, inSs);
    bool roundEnd = tcb->m_lastAckedSeq > m_roundEndSeq;
    struct fa_params p;

    m_lastAckUs = Simulator::Now().GetMicroSeconds();
    ReadParams(&p);

    if (fa_pace_restore_done(&m_state, tcb->m_cWnd / seg, tcb->m_bytesInFlight.Get() / seg))
    {
        PaceRelease(tcb);
    }

    if (roundEnd)
    {
        bool probing = m_state.phase == FA_PHASE_PROBE;
        struct fa_update u = {};
        m_roundEndSeq = tcb->m_highTxMark;
        enum fa_action act = fa_round_end(&m_state,
                                          &p,
                                          tcb->m_cWnd / seg,
                                          inSs,
                                          cwndLimited,
                                          NowUs(),
                                          &u);
        if (act == FA_ACT_UPDATE)
        {
            m_lastUpdate = u;
            m_updates++;
            if (m_onUpdate)
            {
                m_onUpdate(u);
            }
        }
        if (act != FA_ACT_NONE)
        {
            SetCwndPkts(tcb, fa_apply(act, tcb->m_cWnd / seg, &u));
            /*
             * Out of slow start the law owns the window.  If the host kept
             * the ssthresh set when slow start ended, every window the law
             * lowers below it would put the host back in slow start
             * (cwnd < ssthresh), which regrows it by one packet per packet
             * acked straight back to ssthresh unless fa_ss_exit() fires: with
             * ss_exit_pkts > alpha (or a queueing delay below ss_delay_us)
             * the window is pinned at ssthresh and the law cannot bring the
             * queue down; a base-RTT probe's halved window is undone within a
             * round.  tcp_fast_adaptive.c had the same structure until
             * 835d8b7; SsthreshFollowsLaw=false reproduces it.
             */
            if (m_ssthreshFollowsLaw || act == FA_ACT_RAMP)
            {
                /* as tcp_fast_adaptive.c: the law's ssthresh (a ramp
                 * re-enters slow start; otherwise ssthresh = cwnd) */
                uint64_t th = static_cast<uint64_t>(
                                  fa_ssthresh_for(&m_state, act, tcb->m_cWnd / seg)) * seg;
                tcb->m_ssThresh = static_cast<uint32_t>(std::min<uint64_t>(th, 0xffffffffULL));
            }
            if (probing && m_state.phase != FA_PHASE_PROBE)
            {
                PaceRestore(tcb, &p);
            }
        }
    }

    /* early_restore, as tcp_fa_cong_avoid(): the flight after this ACK */
    if (m_state.phase == FA_PHASE_PROBE)
    {
        uint32_t cwnd = tcb->m_cWnd / seg;
        uint32_t inFlight = tcb->m_bytesInFlight.Get() / seg;
        /* probe_pause: the old flight's ACKs may ask for a longer pause */
        if (fa_probe_pause_over(&m_state, cwnd, inFlight))
        {
            uint32_t longer = fa_pause_longer(&m_state, &p, cwnd);
            if (longer < cwnd)
            {
                SetCwndPkts(tcb, longer);
                tcb->m_ssThresh = tcb->m_cWnd;
                cwnd = longer;
            }
        }
        uint32_t w = fa_probe_drained(&m_state, &p, cwnd, inFlight);
        if (w != cwnd)
        {
            SetCwndPkts(tcb, w);
            tcb->m_ssThresh = tcb->m_cWnd;
            PaceRestore(tcb, &p);
        }
    }

    inSs = tcb->m_cWnd < tcb->m_ssThresh;
    if (inSs)
    {
        if (!cwndLimited)
        {
            return;
        }
        uint32_t cwnd = tcb->m_cWnd / seg;
        int rule;
        if (fa_ss_exit(&m_state, &p, cwnd))
        {
            tcb->m_ssThresh = cwnd * seg;
            SetCwndPkts(tcb, cwnd);
            rule = p.adaptive_ss ? 1 : 2;
        }
        else
        {
            /* tcp_slow_start(): cwnd += acked, at most up to ssthresh */
            uint64_t w = static_cast<uint64_t>(cwnd) + segmentsAcked;
            uint64_t ssth = tcb->m_ssThresh / seg;
            SetCwndPkts(tcb, static_cast<uint32_t>(std::min(w, ssth)));
            if (tcb->m_cWnd < tcb->m_ssThresh)
            {
                return;
            }
            rule = 3;
        }
        fa_ss_done(&m_state);
        if (!m_ssExitRule)
        {
            m_ssExitRule = rule;
            m_ssExitUs = NowUs();
        }
        return;
    }
    SetCwndPkts(tcb,
                fa_cwnd_on_ack(&m_state, tcb->m_cWnd / seg, segmentsAcked, cwndLimited));
}

uint32_t
TcpFastAdaptive::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    (void)bytesInFlight;
    const uint32_t seg = tcb->m_segmentSize;
    if (!m_ssExitRule)
    {
        m_ssExitRule = 3;
        m_ssExitUs = NowUs();
    }
    struct fa_params p;
    ReadParams(&p);
    /* ns-3 asks for ssthresh on an ECE as Linux does (CWR): congestion */
    fa_ack_ece(&m_state, tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD);
    return std::max<uint32_t>(fa_ssthresh(&m_state, &p, tcb->m_cWnd / seg, nullptr, nullptr),
                              FA_CWND_MIN) *
           seg;
}

void
TcpFastAdaptive::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
{
    if (event == TcpSocketState::CA_EVENT_TX_START)
    {
        /*
         * as tcp_fa_cwnd_event(): an idle restart only after a silence of
         * a base RTT or more (fa_tx_start()), counted from the last send
         * (the Tx trace) or the last ACK, whichever came later
         * (fa_silence()).
         */
        uint32_t idleUs = 0;
        if (m_lastTxUs >= 0 && m_lastAckUs >= 0)
        {
            idleUs = fa_silence(NowUs(),
                                static_cast<uint32_t>(m_lastTxUs),
                                static_cast<uint32_t>(m_lastAckUs));
        }
        if (fa_tx_start(&m_state, idleUs, NowUs()))
        {
            m_roundEndSeq = tcb->m_highTxMark;
        }
    }
}

} // namespace ns3
