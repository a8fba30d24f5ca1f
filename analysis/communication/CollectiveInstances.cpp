// Every NCCL collective with its size, bandwidths and waits (docs/analyses.md, "Communication").
#include "analysis/communication/CollectiveInstances.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "analysis/Cancellation.h"
#include "analysis/communication/CollectiveSizes.h"
#include "analysis/ranks/Collectives.h"
#include "analysis/ranks/GpuShares.h"
#include "analysis/ranks/RankAlignment.h"
#include "analysis/ranks/RankInput.h"

namespace lanescope {
namespace {

constexpr double kUnknownBandwidth = std::numeric_limits<double>::quiet_NaN();

double quantileSorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return kUnknownBandwidth;
    const double pos = q * double(sorted.size() - 1);
    const size_t below = size_t(pos);
    const double frac = pos - double(below);
    return below + 1 < sorted.size() ? sorted[below] + (sorted[below + 1] - sorted[below]) * frac : sorted[below];
}

}  // namespace

std::string_view collectiveOpName(CollectiveOp op) {
    static constexpr std::string_view names[kCollectiveOpCount] = {
        "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "AllToAll", "SendRecv", "Other"};
    return names[size_t(op)];
}

CollectiveOp collectiveOpOf(std::string_view kind) {
    std::string k;
    for (char c : kind)
        if (c != '_') k += char(std::tolower(static_cast<unsigned char>(c)));
    // PyTorch's names carry suffixes ("allgatherbase", "reducescattertensorcoalesced").
    auto starts = [&](std::string_view prefix) { return k.rfind(prefix, 0) == 0; };
    if (starts("allreduce")) return CollectiveOp::AllReduce;
    if (starts("allgather")) return CollectiveOp::AllGather;
    if (starts("reducescatter")) return CollectiveOp::ReduceScatter;
    if (starts("broadcast")) return CollectiveOp::Broadcast;
    if (starts("alltoall")) return CollectiveOp::AllToAll;
    if (starts("reduce")) return CollectiveOp::Reduce;
    if (starts("sendrecv") || k == "send" || k == "recv") return CollectiveOp::SendRecv;
    return CollectiveOp::Other;
}

double busBandwidthFactor(CollectiveOp op, int ranks) {
    if (ranks < 1) return kUnknownBandwidth;
    const double n = ranks;
    switch (op) {
        case CollectiveOp::AllReduce:
            return 2.0 * (n - 1) / n;
        case CollectiveOp::AllGather:
        case CollectiveOp::ReduceScatter:
        case CollectiveOp::AllToAll:
            return (n - 1) / n;
        case CollectiveOp::Broadcast:
        case CollectiveOp::Reduce:
        case CollectiveOp::SendRecv:
            return 1.0;
        case CollectiveOp::Other:
            break;
    }
    return kUnknownBandwidth;
}

CommunicationAnalysis analyzeCommunication(const std::vector<const Report*>& reports) {
    CommunicationAnalysis out;
    out.ranks.resize(reports.size());
    out.offsets_ns.assign(reports.size(), 0);
    std::vector<std::vector<Collective>> lists(reports.size());
    std::vector<std::vector<CollectiveMeta>> metas(reports.size());
    std::vector<std::vector<uint32_t>> rowOf(reports.size());  // per rank, per collective: its row
    struct Pending {
        uint16_t rank;
        uint32_t index;
    };
    std::vector<Pending> order;
    for (size_t r = 0; r < reports.size(); ++r) {
        lists[r] = ncclCollectives(*reports[r]);
        std::string note;
        metas[r] = collectiveMetas(*reports[r], lists[r], note);
        if (!note.empty()) out.notes.push_back("rank " + std::to_string(r) + ": " + note);
        // As the Ranks panel counts it (GpuShares): communication hidden behind other GPU work.
        const GpuShares shares = gpuShares(*reports[r]);
        out.ranks[r].comm_ns = shares.communication_ns;
        out.ranks[r].overlapped_ns = shares.overlap_ns;
        for (uint32_t c = 0; c < lists[r].size(); ++c) order.push_back({uint16_t(r), c});
    }
    countRanksOfCommunicators(metas);
    std::sort(order.begin(), order.end(), [&](const Pending& a, const Pending& b) {
        const Collective &x = lists[a.rank][a.index], &y = lists[b.rank][b.index];
        return std::tie(a.rank, x.start_ns, x.kernel.lane, x.kernel.index) <
               std::tie(b.rank, y.start_ns, y.kernel.lane, y.kernel.index);
    });
    CollectiveRows& rows = out.rows;
    for (size_t r = 0; r < reports.size(); ++r) rowOf[r].assign(lists[r].size(), 0);
    std::unordered_map<std::string, CollectiveOp> opOfKind;  // kernel kinds repeat: each read once
    for (const Pending& p : order) {
        const Collective& c = lists[p.rank][p.index];
        const CollectiveMeta& m = metas[p.rank][p.index];
        // The op: the args' name where it says more than the kernel (all-to-all runs SendRecv kernels).
        auto kindOp = opOfKind.find(c.kind);
        if (kindOp == opOfKind.end()) kindOp = opOfKind.emplace(c.kind, collectiveOpOf(c.kind)).first;
        const CollectiveOp op = m.op != CollectiveOp::Other ? m.op : kindOp->second;
        const int64_t duration = c.end_ns - c.start_ns;
        const int64_t size = collectiveSize(m, op);
        double algbw = kUnknownBandwidth, busbw = kUnknownBandwidth;
        if (size >= 0 && duration > 0) {
            algbw = double(size) / double(duration);  // bytes per ns = GB/s
            busbw = algbw * busBandwidthFactor(op, m.ranks);
        }
        rowOf[p.rank][p.index] = uint32_t(rows.size());
        rows.rank.push_back(p.rank);
        rows.op.push_back(op);
        rows.communicator.push_back(m.communicator);
        rows.ranks.push_back(m.ranks);
        rows.size_bytes.push_back(size);
        rows.start_ns.push_back(c.start_ns);
        rows.duration_ns.push_back(duration);
        rows.algbw_gbps.push_back(algbw);
        rows.busbw_gbps.push_back(busbw);
        rows.wait_ns.push_back(-1);
        rows.instance.push_back(-1);
        rows.lane.push_back(c.kernel.lane);
        rows.event.push_back(c.kernel.index);
    }

    if (reports.size() < 2) return out;
    // Matched across every rank, as the Ranks panel aligns them.
    std::vector<RankInput> inputs(reports.size());
    std::vector<CollectiveColumns> columns(reports.size());
    std::vector<const CollectiveColumns*> pointers;
    for (size_t r = 0; r < reports.size(); ++r) {
        inputs[r].file_name = reports[r]->meta.fileName();
        inputs[r].source_path = reports[r]->meta.source_path;
        inputs[r].start_utc_ns = reports[r]->meta.start_utc_ns;
        columns[r] = toColumns(lists[r]);
        pointers.push_back(&columns[r]);
    }
    const RankAlignment alignment = alignRanks(inputs, pointers, AlignMode::Nccl);
    out.offsets_ns = alignment.offsets_ns;
    for (const std::string& note : alignment.notes) out.notes.push_back(note);
    if (alignment.reference < 0) return out;
    std::vector<int32_t> lastCount(reports.size(), 0);
    const size_t ref = size_t(alignment.reference);
    for (size_t c = 0; c < lists[ref].size(); ++c) {
        cancellationPoint();
        CollectiveInstance instance;
        bool everyRank = true;
        for (size_t r = 0; r < reports.size() && everyRank; ++r) {
            const int32_t k = c < alignment.matches[r].size() ? alignment.matches[r][c] : -1;
            if (k < 0)
                everyRank = false;
            else
                instance.rows.push_back(rowOf[r][size_t(k)]);
        }
        if (!everyRank) continue;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (uint32_t row : instance.rows) {
            const int64_t aligned = rows.start_ns[row] + out.offsets_ns[rows.rank[row]];
            first = std::min(first, aligned);
            if (aligned > last) last = aligned, instance.last_rank = rows.rank[row];
        }
        instance.skew_ns = last - first;
        const int32_t index = int32_t(out.instances.size());
        for (uint32_t row : instance.rows) {
            rows.wait_ns[row] = last - (rows.start_ns[row] + out.offsets_ns[rows.rank[row]]);
            rows.instance[row] = index;
            out.ranks[rows.rank[row]].wait_ns += rows.wait_ns[row];
        }
        ++out.ranks[size_t(instance.last_rank)].times_last;
        out.instances.push_back(std::move(instance));
    }
    int32_t best = -1;
    for (size_t r = 0; r < reports.size(); ++r)
        if (out.ranks[r].times_last > 0 && (best < 0 || out.ranks[r].times_last > out.ranks[size_t(best)].times_last))
            best = int32_t(r);
    out.most_often_last = best;
    return out;
}

std::vector<CollectiveSummaryRow> summarizeCollectives(const CollectiveRows& rows) {
    std::map<std::pair<CollectiveOp, int64_t>, std::vector<size_t>> groups;
    for (size_t i = 0; i < rows.size(); ++i) {
        const int64_t size = rows.size_bytes[i];
        const int64_t bucket = size < 0 ? -1 : size == 0 ? 0 : int64_t(std::bit_floor(uint64_t(size)));
        groups[{rows.op[i], bucket}].push_back(i);
    }
    std::vector<CollectiveSummaryRow> out;
    for (const auto& [key, members] : groups) {
        CollectiveSummaryRow s;
        s.op = key.first;
        s.bucket_bytes = key.second;
        s.count = int64_t(members.size());
        std::vector<double> durations, busbw;
        for (size_t i : members) {
            s.total_ns += rows.duration_ns[i];
            durations.push_back(double(rows.duration_ns[i]));
            if (!std::isnan(rows.busbw_gbps[i])) busbw.push_back(rows.busbw_gbps[i]);
        }
        std::sort(durations.begin(), durations.end());
        std::sort(busbw.begin(), busbw.end());
        s.median_ns = quantileSorted(durations, 0.5);
        s.p90_ns = quantileSorted(durations, 0.9);
        s.median_busbw_gbps = quantileSorted(busbw, 0.5);
        out.push_back(s);
    }
    return out;
}

}  // namespace lanescope
