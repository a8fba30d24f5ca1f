// What the report records of each NCCL kernel's collective: PyTorch's collective args, or NCCL's
// NVTX extended payloads (docs/analyses.md, "Communication").
#include "analysis/communication/CollectiveSizes.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unordered_map>

#include "analysis/Cancellation.h"
#include "model/Correlation.h"
#include "model/NvtxPayloadDecoder.h"

namespace lanescope {
namespace {

// One range of a thread that says what a collective launched inside it is: a record_param_comms
// operator (`source` its row of Report::collective_args) or an NCCL NVTX range with a payload
// (`source` its index into the payload metas). Times in ns on the report's timeline.
struct CommsOperator {
    int64_t start_ns, end_ns;
    uint32_t source;
};
using OperatorsByThread = std::unordered_map<int32_t, std::vector<CommsOperator>>;

void sortOperators(OperatorsByThread& byThread) {
    for (auto& [thread, ops] : byThread)
        std::sort(ops.begin(), ops.end(), [](const CommsOperator& a, const CommsOperator& b) {
            return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
        });
}

// Reads collective args into metas, each name and dtype looked up once (they repeat).
class ArgsReader {
public:
    explicit ArgsReader(const Report& report) : report_(report) {}
    CollectiveMeta meta(const CollectiveArgs& a) {
        CollectiveMeta m;
        auto op = ops_.find(a.name_id);
        if (op == ops_.end()) op = ops_.emplace(a.name_id, collectiveOpOf(report_.str(a.name_id))).first;
        m.op = op->second;
        m.communicator = std::string(report_.str(a.group_name_id));
        m.ranks = a.group_size;
        auto element = dtypeBytes_.find(a.dtype_id);
        if (element == dtypeBytes_.end())
            element = dtypeBytes_.emplace(a.dtype_id, pytorchDtypeBytes(report_.str(a.dtype_id))).first;
        const int64_t elements = std::max(a.in_nelems, a.out_nelems);
        if (element->second > 0 && elements >= 0) m.size_bytes = elements * element->second;
        return m;
    }

private:
    const Report& report_;
    std::unordered_map<uint32_t, CollectiveOp> ops_;    // by name_id
    std::unordered_map<uint32_t, int64_t> dtypeBytes_;  // by dtype_id
};

// Per thread (index into Report::threads), its record_param_comms operators sorted by start.
OperatorsByThread commsOperatorsByThread(const Report& report) {
    OperatorsByThread out;
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::Nvtx || lane.thread < 0) continue;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::NvtxRange || ev.payload[i] >= report.nvtx.size()) continue;
            const uint32_t args = report.nvtx[ev.payload[i]].collective_args;
            if (args != 0 && args - 1 < report.collective_args.size())
                out[lane.thread].push_back({ev.start_ns[i], ev.endNs(i), args - 1});
        }
    }
    sortOperators(out);
    return out;
}

// NCCL's NVTX ranges with a payload (NCCL 2.19+): per thread, by start, each with what its
// payload says in `metas` (its CommsOperator::source); `ranksOfCommunicator` from the
// communicators' creation ranges ("No. of ranks").
struct NcclPayloadRanges {
    OperatorsByThread by_thread;
    std::vector<CollectiveMeta> metas;
    std::unordered_map<std::string, int32_t> ranks_of_communicator;
};

NcclPayloadRanges ncclPayloadRanges(const Report& report) {
    NcclPayloadRanges out;
    for (const NvtxPayloadRow& row : report.nvtx_payloads.rows) {
        if (row.mark || row.lane >= report.lanes.size()) continue;
        const Lane& lane = report.lanes[row.lane];
        if ((lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) || lane.thread < 0 ||
            row.event >= lane.events.size())
            continue;
        CollectiveMeta meta;
        int32_t ranks = -1;
        for (const NvtxPayloadField& f : decodeNvtxPayload(report, row).fields) {
            if (f.name == "NCCL communicator ID" && f.uint_value) meta.communicator = communicatorText(*f.uint_value);
            if (f.name == "Message size [bytes]" && f.uint_value) meta.message_bytes = int64_t(*f.uint_value);
            if (f.name == "No. of ranks")
                ranks = f.int_value ? int32_t(*f.int_value) : f.uint_value ? int32_t(*f.uint_value) : -1;
        }
        if (ranks > 0 && !meta.communicator.empty()) out.ranks_of_communicator[meta.communicator] = ranks;
        if (meta.message_bytes < 0) continue;
        // "ncclAllReduce": the op after NCCL's prefix.
        std::string_view name = report.str(lane.events.name_id[row.event]);
        if (name.starts_with("nccl")) name.remove_prefix(4);
        meta.op = collectiveOpOf(name);
        out.by_thread[lane.thread].push_back(
            {lane.events.start_ns[row.event], lane.events.endNs(row.event), uint32_t(out.metas.size())});
        out.metas.push_back(std::move(meta));
    }
    sortOperators(out.by_thread);
    return out;
}

// The innermost operator of `ops` around `t` (the latest to start at or before it that ends at
// or after it); nullptr when none.
const CommsOperator* operatorAround(const std::vector<CommsOperator>& ops, int64_t t) {
    auto it = std::upper_bound(ops.begin(), ops.end(), t,
                               [](int64_t time, const CommsOperator& op) { return time < op.start_ns; });
    // Operators of one thread nest or follow each other: a few steps back find the enclosing one.
    for (int steps = 0; it != ops.begin() && steps < 8; ++steps) {
        --it;
        if (it->end_ns >= t) return &*it;
    }
    return nullptr;
}

}  // namespace

int64_t pytorchDtypeBytes(std::string_view dtype) {
    static const std::unordered_map<std::string_view, int64_t> bytes = {
        {"Float", 4},
        {"Double", 8},
        {"Half", 2},
        {"BFloat16", 2},
        {"Int", 4},
        {"Long", 8},
        {"Short", 2},
        {"Char", 1},
        {"Byte", 1},
        {"Bool", 1},
        {"ComplexHalf", 4},
        {"ComplexFloat", 8},
        {"ComplexDouble", 16},
        {"UInt16", 2},
        {"UInt32", 4},
        {"UInt64", 8},
        {"Float8_e4m3fn", 1},
        {"Float8_e5m2", 1},
        {"Float8_e4m3fnuz", 1},
        {"Float8_e5m2fnuz", 1},
    };
    const auto found = bytes.find(dtype);
    return found == bytes.end() ? 0 : found->second;
}

std::string communicatorText(uint64_t id) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(id));
    return buf;
}

void countRanksOfCommunicators(std::vector<std::vector<CollectiveMeta>>& metas) {
    std::unordered_map<std::string, std::vector<uint8_t>> reportsOf;  // communicator -> per report, named
    for (size_t r = 0; r < metas.size(); ++r)
        for (const CollectiveMeta& m : metas[r])
            if (m.ranks < 0 && !m.communicator.empty()) {
                std::vector<uint8_t>& named = reportsOf[m.communicator];
                named.resize(metas.size(), 0);
                named[r] = 1;
            }
    for (auto& list : metas)
        for (CollectiveMeta& m : list) {
            if (m.ranks >= 0 || m.communicator.empty()) continue;
            const std::vector<uint8_t>& named = reportsOf[m.communicator];
            const int32_t count = int32_t(std::count(named.begin(), named.end(), 1));
            if (count >= 2) m.ranks = count;
        }
}

int64_t collectiveSize(const CollectiveMeta& meta, CollectiveOp op) {
    if (meta.size_bytes >= 0) return meta.size_bytes;
    if (meta.message_bytes < 0) return -1;
    if (op != CollectiveOp::AllGather && op != CollectiveOp::ReduceScatter) return meta.message_bytes;
    return meta.ranks > 0 ? meta.message_bytes * meta.ranks : -1;
}

std::vector<CollectiveMeta> collectiveMetas(const Report& report, const std::vector<Collective>& collectives,
                                            std::string& note) {
    std::vector<CollectiveMeta> metas(collectives.size());
    note.clear();
    const bool payloads = !report.nvtx_payloads.rows.empty();
    if (report.collective_args.empty() && !payloads) {
        note = report.meta.format == "kineto-json"
                   ? "no collective sizes: the trace records no collective args (PyTorch before 2.1)"
                   : "no collective sizes: the report holds no NVTX extended payloads (NCCL before 2.19, NVTX "
                     "not traced, or a SQLite export made without --include-blobs=true)";
        return metas;
    }
    // The args on the kernels, by kernel row.
    std::unordered_map<uint32_t, uint32_t> argsOfKernel;
    for (uint32_t i = 0; i < report.collective_args.size(); ++i)
        if (report.collective_args[i].kernel_row != CollectiveArgs::kNotOnKernel)
            argsOfKernel.emplace(report.collective_args[i].kernel_row, i);
    // Else those of the record_param_comms operator or NCCL range around the kernel's launch.
    ArgsReader args(report);
    std::optional<CorrelationIndex> correlation;
    OperatorsByThread operators;
    NcclPayloadRanges ncclRanges;
    bool anySize = false;
    for (size_t c = 0; c < collectives.size(); ++c) {
        cancellationPoint();
        const EventRef k = collectives[c].kernel;
        const IntervalColumns& ev = report.lanes[k.lane].events;
        if (const auto found = argsOfKernel.find(ev.payload[k.index]); found != argsOfKernel.end()) {
            metas[c] = args.meta(report.collective_args[found->second]);
        } else {
            if (!correlation) {
                correlation.emplace(report);
                operators = commsOperatorsByThread(report);
                if (payloads) ncclRanges = ncclPayloadRanges(report);
            }
            const std::optional<EventRef> launch = correlation->launcherOf(k);
            if (!launch) continue;
            const Lane& launchLane = report.lanes[launch->lane];
            const int64_t at = launchLane.events.start_ns[launch->index];
            if (const auto ops = operators.find(launchLane.thread); ops != operators.end())
                if (const CommsOperator* op = operatorAround(ops->second, at))
                    metas[c] = args.meta(report.collective_args[op->source]);
            if (metas[c].size_bytes < 0)
                if (const auto ranges = ncclRanges.by_thread.find(launchLane.thread);
                    ranges != ncclRanges.by_thread.end())
                    if (const CommsOperator* range = operatorAround(ranges->second, at)) {
                        metas[c] = ncclRanges.metas[range->source];
                        const auto ranks = ncclRanges.ranks_of_communicator.find(metas[c].communicator);
                        if (ranks != ncclRanges.ranks_of_communicator.end()) metas[c].ranks = ranks->second;
                    }
        }
        anySize = anySize || metas[c].size_bytes >= 0 || metas[c].message_bytes >= 0;
    }
    if (!anySize && !collectives.empty())
        note = "no collective sizes: no NCCL kernel's args, record_param_comms operator or NCCL NVTX payload gives one";
    return metas;
}

}  // namespace lanescope
