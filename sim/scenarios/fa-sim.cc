/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fa-sim: dumbbell and parking-lot scenarios for fast_adaptive and ns-3's
 * own congestion controls.
 *
 *  dumbbell:    S_i --access-- R0 ==bottleneck== R1 --access-- D_i
 *  parkinglot:  R0 ==A== R1 ==B== R2; flow 0 S0@R0 -> D0@R2 (both links),
 *               flow 1 S1@R0 -> D1@R1 (link A), flow 2 S2@R1 -> D2@R2 (B)
 *
 * Access links run at 10x the bottleneck with a queue that never fills; the
 * bottleneck is a drop-tail device queue of --buf packets with the
 * traffic-control layer removed, so the queue that is sized is the one that
 * fills (DESIGN.md 8).  A flow stops at its stop time by dropping all of its
 * data at its first router: it really stops sending into the network (its
 * sender only retransmits one segment per backed-off RTO).
 *
 * Every --sample seconds one CSV row: per bottleneck the queue (packets,
 * bytes) and cumulative drops; per flow the data packets that reached its
 * receiver in the interval, cwnd (packets), last RTT sample (us) and, for
 * fast_adaptive, base RTT (us), gain and phase.  --out PREFIX writes
 * PREFIX.csv and PREFIX.meta.json; tools/analyze.py turns them into the
 * summary (utilisation, queueing delay, Jain, convergence, overshoot).
 */
#include "tcp-fast-adaptive.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FaSim");

namespace
{

const uint32_t kSeg = 1000;        // TCP payload per packet, bytes (the paper's 1000-byte packets)
const uint32_t kWire = kSeg + 42;  // + TCP 20 + IPv4 20 + PPP 2 (no TCP options in steady state)

std::vector<double>
ParseList(const std::string& s)
{
    std::vector<double> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            v.push_back(std::stod(item));
        }
    }
    return v;
}

std::vector<std::string>
ParseStrList(const std::string& s)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            v.push_back(item);
        }
    }
    return v;
}

/* A bulk sender whose socket and congestion control the scenario can see. */
class BulkFlow : public Application
{
  public:
    BulkFlow() = default;
    void Setup(Address peer, Ptr<TcpCongestionOps> cc, uint32_t sndBuf)
    {
        m_peer = peer;
        m_cc = cc;
        m_sndBuf = sndBuf;
    }
    Ptr<TcpSocketBase> GetSock() const { return m_sock; }
    Ptr<TcpCongestionOps> GetCc() const { return m_cc; }

  private:
    void StartApplication() override
    {
        Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        m_sock = DynamicCast<TcpSocketBase>(s);
        m_sock->SetAttribute("SndBufSize", UintegerValue(m_sndBuf));
        m_sock->SetCongestionControlAlgorithm(m_cc);
        /* fast_adaptive reads RTT samples timed as Linux times them */
        Ptr<TcpFastAdaptive> fa = DynamicCast<TcpFastAdaptive>(m_cc);
        if (fa)
        {
            fa->AttachSocket(m_sock);
        }
        m_sock->Bind();
        m_sock->Connect(m_peer);
        m_sock->SetConnectCallback(MakeCallback(&BulkFlow::Connected, this),
                                   MakeNullCallback<void, Ptr<Socket>>());
        m_sock->SetSendCallback(MakeCallback(&BulkFlow::Space, this));
    }
    void StopApplication() override
    {
        m_running = false;
    }
    void Connected(Ptr<Socket> s)
    {
        Fill(s);
    }
    void Space(Ptr<Socket> s, uint32_t)
    {
        Fill(s);
    }
    void Fill(Ptr<Socket> s)
    {
        while (m_running)
        {
            uint32_t avail = s->GetTxAvailable();
            if (avail < kSeg)
            {
                break;
            }
            uint32_t n = std::min<uint32_t>(avail, 256 * kSeg);
            if (s->Send(Create<Packet>(n)) < 0)
            {
                break;
            }
        }
    }

    Address m_peer;
    Ptr<TcpCongestionOps> m_cc;
    Ptr<TcpSocketBase> m_sock;
    uint32_t m_sndBuf{0};
    bool m_running{true};
};

struct FlowRec
{
    std::string cc;
    double rttMs{100};
    double start{0};
    double stop{-1};
    Ptr<BulkFlow> app;
    Ptr<NetDevice> firstHopIn; // the first router's device facing the sender
    uint64_t rxPkts{0};        // data packets at the receiver in this sample
    uint64_t rxTotal{0};
    uint32_t cwnd{0};
    int64_t rttUs{0};
    double minRttUs{0};
    bool traced{false};
};

struct Bottleneck
{
    Ptr<Queue<Packet>> q;
    uint64_t drops{0};
};

std::vector<FlowRec> g_flows;
std::vector<Bottleneck> g_bn;
std::ofstream g_csv;
double g_sample = 0.01;
double g_simTime = 10;

void
RxAtReceiver(uint32_t i, Ptr<const Packet> p)
{
    if (p->GetSize() > 200)
    {
        g_flows[i].rxPkts++;
        g_flows[i].rxTotal++;
    }
}

void
QueueDrop(uint32_t b, Ptr<const Packet>)
{
    g_bn[b].drops++;
}

void
TcDrop(uint32_t b, Ptr<const Packet> p)
{
    if (p->GetSize() > 200)
    {
        g_bn[b].drops++;
    }
}

void
CwndTrace(uint32_t i, uint32_t, uint32_t now)
{
    g_flows[i].cwnd = now / kSeg;
}

void
RttTrace(uint32_t i, Time, Time now)
{
    g_flows[i].rttUs = now.GetMicroSeconds();
}

void
StopFlow(uint32_t i)
{
    /* Drop all of the flow's data at its first router from now on. */
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(1.0);
    g_flows[i].firstHopIn->SetAttribute("ReceiveErrorModel", PointerValue(em));
}

void
Sample()
{
    double t = Simulator::Now().GetSeconds();
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.3f", t);
    g_csv << buf;
    for (auto& b : g_bn)
    {
        g_csv << ',' << b.q->GetNPackets() << ',' << b.q->GetNBytes() << ',' << b.drops;
    }
    for (uint32_t i = 0; i < g_flows.size(); i++)
    {
        FlowRec& f = g_flows[i];
        Ptr<TcpSocketBase> s = f.app->GetSock();
        if (s && !f.traced)
        {
            s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&CwndTrace, i));
            s->TraceConnectWithoutContext("RTT", MakeBoundCallback(&RttTrace, i));
            f.traced = true;
        }
        uint32_t base = 0, gamma = 0, phase = 9;
        Ptr<TcpFastAdaptive> fa = DynamicCast<TcpFastAdaptive>(f.app->GetCc());
        if (fa)
        {
            const struct fa_state& st = fa->GetLawState();
            base = st.base_rtt_us == FA_RTT_NONE ? 0 : st.base_rtt_us;
            gamma = st.gamma;
            phase = st.phase;
        }
        g_csv << ',' << f.rxPkts << ',' << f.cwnd << ',' << f.rttUs << ',' << base << ','
              << gamma << ',' << phase;
        f.rxPkts = 0;
    }
    g_csv << '\n';
    if (t + g_sample <= g_simTime + 1e-9)
    {
        Simulator::Schedule(Seconds(g_sample), &Sample);
    }
}

Ptr<TcpCongestionOps>
MakeCc(const std::string& name, const std::map<std::string, uint32_t>& faAttrs)
{
    if (name == "fast")
    {
        Ptr<TcpFastAdaptive> cc = CreateObject<TcpFastAdaptive>();
        for (auto& kv : faAttrs)
        {
            cc->SetAttribute(kv.first, UintegerValue(kv.second));
        }
        return cc;
    }
    ObjectFactory f;
    if (name == "vegas")
        f.SetTypeId("ns3::TcpVegas");
    else if (name == "cubic")
        f.SetTypeId("ns3::TcpCubic");
    else if (name == "bbr")
        f.SetTypeId("ns3::TcpBbr");
    else if (name == "newreno")
        f.SetTypeId("ns3::TcpNewReno");
    else
        NS_FATAL_ERROR("unknown --cc " << name);
    return f.Create<TcpCongestionOps>();
}

} // namespace

int
main(int argc, char* argv[])
{
    auto wallStart = std::chrono::steady_clock::now();
    std::string topo = "dumbbell";
    std::string ccList = "fast";
    std::string rttList = "100";
    std::string startList = "0";
    std::string stopList = "";
    uint32_t nFlows = 3;
    double rateMbps = 96;
    double bufBdp = 2;
    uint32_t bufPkts = 0;
    double loss = 0;
    double bnDelayMs = 1;
    std::string out = "out";
    uint32_t seed = 1;
    uint32_t run = 1;
    bool pacing = false;
    bool oracleBase = false;
    bool kernelGlue = false;
    std::map<std::string, uint32_t> faAttrs;
    /* fast_adaptive tunables, named as in fa_params.h; -1 keeps the default */
    std::vector<int64_t> faVal;
    std::vector<const char*> faNames;
#define FA_PARAM_NAME(name, def, lo, hi, desc) faNames.push_back(#name), faVal.push_back(-1);
    FA_PARAM_TABLE(FA_PARAM_NAME)
#undef FA_PARAM_NAME
    const uint32_t nFa = faNames.size();

    CommandLine cmd(__FILE__);
    cmd.AddValue("topo", "dumbbell | parkinglot", topo);
    cmd.AddValue("n", "number of flows (dumbbell)", nFlows);
    cmd.AddValue("cc", "congestion control per flow, comma list (last repeats): "
                       "fast|vegas|cubic|bbr|newreno", ccList);
    cmd.AddValue("rate", "bottleneck rate, Mb/s", rateMbps);
    cmd.AddValue("bufBdp", "bottleneck buffer in BDPs of the largest RTT (if --buf=0)", bufBdp);
    cmd.AddValue("buf", "bottleneck buffer, packets (0: use --bufBdp)", bufPkts);
    cmd.AddValue("rtt", "propagation RTT per flow, ms, comma list (last repeats)", rttList);
    cmd.AddValue("start", "start time per flow, s, comma list (last repeats)", startList);
    cmd.AddValue("stop", "stop time per flow, s, comma list (-1: never)", stopList);
    cmd.AddValue("loss", "random loss probability per data packet at the bottleneck", loss);
    cmd.AddValue("bnDelay", "one-way delay of each bottleneck link, ms", bnDelayMs);
    cmd.AddValue("time", "simulated time, s", g_simTime);
    cmd.AddValue("sample", "sampling interval, s", g_sample);
    cmd.AddValue("out", "output prefix", out);
    cmd.AddValue("seed", "RNG seed", seed);
    cmd.AddValue("run", "RNG run number", run);
    cmd.AddValue("oracleBase", "fast_adaptive flows start with the true minimum RTT as base RTT "
                               "(the paper's assumption) instead of measuring it", oracleBase);
    cmd.AddValue("kernelGlue", "fast_adaptive keeps the slow-start ssthresh under the law, as "
                               "tcp_fast_adaptive.c did before 835d8b7 (SsthreshFollowsLaw=false)", kernelGlue);
    cmd.AddValue("pacing", "enable ns-3 pacing for all flows (BBR always paces)", pacing);
    std::vector<std::string> faCli(nFa);
    for (uint32_t k = 0; k < nFa; k++)
    {
        /* the law's "pacing" tunable would shadow the scenario's --pacing */
        faCli[k] = std::string(faNames[k]) == "pacing" ? "fa_pacing" : faNames[k];
        cmd.AddValue(faCli[k], "fast_adaptive tunable (fa_params.h)", faVal[k]);
    }
    cmd.Parse(argc, argv);
    for (uint32_t k = 0; k < nFa; k++)
    {
        if (faVal[k] >= 0)
        {
            faAttrs[faNames[k]] = static_cast<uint32_t>(faVal[k]);
        }
    }

    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    if (topo == "parkinglot")
    {
        nFlows = 3;
    }
    std::vector<std::string> ccs = ParseStrList(ccList);
    std::vector<double> rtts = ParseList(rttList);
    std::vector<double> starts = ParseList(startList);
    std::vector<double> stops = ParseList(stopList);
    auto pick = [](const auto& v, uint32_t i, auto dflt) {
        return v.empty() ? dflt : (i < v.size() ? v[i] : v.back());
    };
    bool anyBbr = false;
    g_flows.resize(nFlows);
    for (uint32_t i = 0; i < nFlows; i++)
    {
        g_flows[i].cc = pick(ccs, i, std::string("fast"));
        g_flows[i].rttMs = pick(rtts, i, 100.0);
        g_flows[i].start = pick(starts, i, 0.0);
        g_flows[i].stop = i < stops.size() ? stops[i] : -1;
        anyBbr |= g_flows[i].cc == "bbr";
    }

    /* TCP as the paper's: 1000-byte segments; raw RTT samples (see below) */
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSeg));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1u << 27));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1u << 27));
    /* ns-3 timestamps have 1 ms resolution (TcpOptionTS::NowToTsValue): with
     * them the RTT samples are whole milliseconds, useless for a queueing delay
     * of a few ms.  Without them ns-3 times each segment exactly. */
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    /* ns-3 passes m_lastRtt = the estimator's smoothed RTT to PktsAcked; Linux
     * passes the raw sample.  Alpha = 1 makes the estimate the last sample
     * (for every congestion control in the run, as in Linux). */
    Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(1.0));
    if (anyBbr || pacing)
    {
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    }

    double rate = rateMbps * 1e6;
    double maxRtt = 0;
    for (auto& f : g_flows)
        maxRtt = std::max(maxRtt, f.rttMs);
    if (!bufPkts)
    {
        bufPkts = static_cast<uint32_t>(bufBdp * rate * maxRtt / 1000.0 / (8.0 * kWire) + 0.5);
    }
    std::string accessRate = std::to_string(rateMbps * 10) + "Mbps";
    double accessRecvDelayMs = 0.5;

    uint32_t nRouters = topo == "parkinglot" ? 3 : 2;
    NodeContainer routers;
    routers.Create(nRouters);
    NodeContainer senders, receivers;
    senders.Create(nFlows);
    receivers.Create(nFlows);
    InternetStackHelper stack;
    stack.InstallAll();

    PointToPointHelper bn;
    bn.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
    bn.SetChannelAttribute("Delay", TimeValue(MicroSeconds(bnDelayMs * 1000)));
    bn.SetQueue("ns3::DropTailQueue", "MaxSize",
                QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bufPkts)));
    PointToPointHelper acc;
    acc.SetDeviceAttribute("DataRate", StringValue(accessRate));
    acc.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("200000p"));

    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    std::vector<NetDeviceContainer> bnDevs;
    for (uint32_t r = 0; r + 1 < nRouters; r++)
    {
        NetDeviceContainer d = bn.Install(routers.Get(r), routers.Get(r + 1));
        addr.Assign(d);
        addr.NewNetwork();
        bnDevs.push_back(d);
    }
    /* where flow i enters and leaves, and how many bottleneck links it crosses */
    std::vector<Ipv4Address> dstAddr(nFlows);
    std::vector<NetDeviceContainer> accDevs;
    for (uint32_t i = 0; i < nFlows; i++)
    {
        uint32_t in = 0, outR = nRouters - 1;
        if (topo == "parkinglot")
        {
            in = (i == 2) ? 1 : 0;
            outR = (i == 1) ? 1 : 2;
        }
        double hops = outR - in;
        double oneWay = g_flows[i].rttMs / 2.0 - hops * bnDelayMs - accessRecvDelayMs;
        if (oneWay < 0.01)
        {
            oneWay = 0.01;
        }
        acc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(oneWay * 1000)));
        NetDeviceContainer ds = acc.Install(senders.Get(i), routers.Get(in));
        addr.Assign(ds);
        addr.NewNetwork();
        acc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(accessRecvDelayMs * 1000)));
        NetDeviceContainer dr = acc.Install(routers.Get(outR), receivers.Get(i));
        Ipv4InterfaceContainer ifr = addr.Assign(dr);
        addr.NewNetwork();
        dstAddr[i] = ifr.GetAddress(1);
        g_flows[i].firstHopIn = ds.Get(1);
        {
            double accBps = rate * 10;
            double dataTx = kWire * 8.0 * (2.0 / accBps + hops / rate);
            double ackTx = 42 * 8.0 * (2.0 / accBps + hops / rate) + 2 * 8.0 * 0;
            g_flows[i].minRttUs =
                (2.0 * (oneWay + hops * bnDelayMs + accessRecvDelayMs)) * 1000.0 +
                (dataTx + ackTx) * 1e6;
        }
        dr.Get(1)->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&RxAtReceiver, i));
        accDevs.push_back(ds);
        accDevs.push_back(dr);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    /* No queue discs anywhere: the device queues are the queues. */
    TrafficControlHelper tch;
    for (auto& d : bnDevs)
        tch.Uninstall(d);
    for (auto& d : accDevs)
        tch.Uninstall(d);

    for (uint32_t b = 0; b < bnDevs.size(); b++)
    {
        Bottleneck bk;
        Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(bnDevs[b].Get(0));
        bk.q = dev->GetQueue();
        g_bn.push_back(bk);
    }
    for (uint32_t b = 0; b < bnDevs.size(); b++)
    {
        /* With the queue discs removed, a packet that finds the device queue
         * full is dropped by the traffic-control layer (its "TcDrop" trace;
         * it has no "Drop"), not by the device queue.  Before this was
         * checked, the layer's drops went uncounted. */
        bool okq = g_bn[b].q->TraceConnectWithoutContext("Drop", MakeBoundCallback(&QueueDrop, b));
        bool okt = routers.Get(b)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop", MakeBoundCallback(&TcDrop, b));
        NS_ABORT_MSG_UNLESS(okq && okt, "cannot trace the bottleneck's drops");
        if (loss > 0)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(loss);
            bnDevs[b].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }

    for (uint32_t i = 0; i < nFlows; i++)
    {
        uint16_t port = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sink.Install(receivers.Get(i));
        sa.Start(Seconds(0));
        Ptr<BulkFlow> app = CreateObject<BulkFlow>();
        Ptr<TcpCongestionOps> cc = MakeCc(g_flows[i].cc, faAttrs);
        Ptr<TcpFastAdaptive> fa = DynamicCast<TcpFastAdaptive>(cc);
        if (fa && oracleBase)
        {
            fa->m_oracleBaseUs = static_cast<uint32_t>(g_flows[i].minRttUs);
        }
        if (fa && kernelGlue)
        {
            fa->SetAttribute("SsthreshFollowsLaw", BooleanValue(false));
        }
        app->Setup(InetSocketAddress(dstAddr[i], port), cc, 1u << 27);
        senders.Get(i)->AddApplication(app);
        app->SetStartTime(Seconds(g_flows[i].start));
        g_flows[i].app = app;
        if (g_flows[i].stop >= 0)
        {
            app->SetStopTime(Seconds(g_flows[i].stop));
            Simulator::Schedule(Seconds(g_flows[i].stop), &StopFlow, i);
        }
    }

    g_csv.open(out + ".csv");
    g_csv << "t";
    for (uint32_t b = 0; b < g_bn.size(); b++)
    {
        g_csv << ",q" << b << "_pkts,q" << b << "_bytes,q" << b << "_drops";
    }
    for (uint32_t i = 0; i < nFlows; i++)
    {
        g_csv << ",f" << i << "_pkts,f" << i << "_cwnd,f" << i << "_rtt_us,f" << i
              << "_base_us,f" << i << "_gamma,f" << i << "_phase";
    }
    g_csv << '\n';
    Simulator::Schedule(Seconds(g_sample), &Sample);
    Simulator::Stop(Seconds(g_simTime + 1e-6));
    Simulator::Run();
    g_csv.close();

    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    std::ofstream meta(out + ".meta.json");
    meta << "{\n";
    meta << "  \"topo\": \"" << topo << "\",\n";
    meta << "  \"rate_bps\": " << rate << ",\n";
    meta << "  \"wire_bytes\": " << kWire << ",\n";
    meta << "  \"seg_bytes\": " << kSeg << ",\n";
    meta << "  \"cap_pps\": " << rate / (8.0 * kWire) << ",\n";
    meta << "  \"buf_pkts\": " << bufPkts << ",\n";
    meta << "  \"loss\": " << loss << ",\n";
    meta << "  \"bn_delay_ms\": " << bnDelayMs << ",\n";
    meta << "  \"sim_time\": " << g_simTime << ",\n";
    meta << "  \"sample\": " << g_sample << ",\n";
    meta << "  \"seed\": " << seed << ",\n";
    meta << "  \"kernel_glue\": " << (kernelGlue ? "true" : "false") << ",\n";
    meta << "  \"oracle_base\": " << (oracleBase ? "true" : "false") << ",\n";
    meta << "  \"pacing\": " << ((anyBbr || pacing) ? "true" : "false") << ",\n";
    meta << "  \"run\": " << run << ",\n";
    meta << "  \"wall_s\": " << wall << ",\n";
    meta << "  \"fa_attrs\": {";
    {
        bool first = true;
        for (auto& kv : faAttrs)
        {
            meta << (first ? "" : ", ") << "\"" << kv.first << "\": " << kv.second;
            first = false;
        }
    }
    meta << "},\n";
    meta << "  \"flows\": [\n";
    for (uint32_t i = 0; i < nFlows; i++)
    {
        FlowRec& f = g_flows[i];
        int ssRule = 0;
        double ssExit = -1;
        uint32_t updates = 0;
        Ptr<TcpFastAdaptive> fa = DynamicCast<TcpFastAdaptive>(f.app->GetCc());
        if (fa)
        {
            ssRule = fa->GetSsExitRule();
            ssExit = ssRule ? fa->GetSsExitTimeUs() / 1e6 : -1;
            updates = fa->GetUpdates();
        }
        uint32_t hops = 1;
        if (topo == "parkinglot")
            hops = (i == 0) ? 2 : 1;
        meta << "    {\"cc\": \"" << f.cc << "\", \"rtt_ms\": " << f.rttMs
             << ", \"start\": " << f.start << ", \"stop\": " << f.stop
             << ", \"hops\": " << hops << ", \"links\": \""
             << (topo == "parkinglot" ? (i == 0 ? "0,1" : (i == 1 ? "0" : "1")) : "0")
             << "\", \"rx_pkts\": " << f.rxTotal << ", \"ss_exit_rule\": " << ssRule
             << ", \"ss_exit_s\": " << ssExit << ", \"updates\": " << updates << "}"
             << (i + 1 < nFlows ? "," : "") << "\n";
    }
    meta << "  ]\n}\n";
    meta.close();
    std::printf("%s: %.1f s simulated in %.1f s wall\n", out.c_str(), g_simTime, wall);
    Simulator::Destroy();
    return 0;
}
