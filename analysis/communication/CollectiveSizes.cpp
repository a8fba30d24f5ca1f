// What the report records of each NCCL kernel's collective: PyTorch's collective args
// (docs/analyses.md, "Communication").
#include "analysis/communication/CollectiveSizes.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "analysis/Cancellation.h"
#include "model/Correlation.h"

namespace lanescope {
namespace {

// One record_param_comms operator of a thread: its times and its args row.
struct CommsOperator {
    int64_t start_ns, end_ns;
    uint32_t args;
};

CollectiveMeta metaOfArgs(const Report& report, const CollectiveArgs& a) {
    CollectiveMeta m;
    m.op = collectiveOpOf(report.str(a.name_id));
    m.communicator = std::string(report.str(a.group_name_id));
    m.ranks = a.group_size;
    const int64_t element = pytorchDtypeBytes(report.str(a.dtype_id));
    const int64_t elements = std::max(a.in_nelems, a.out_nelems);
    if (element > 0 && elements >= 0) m.size_bytes = elements * element;
    return m;
}

// Per thread (index into Report::threads), its record_param_comms operators sorted by start.
std::unordered_map<int32_t, std::vector<CommsOperator>> commsOperatorsByThread(const Report& report) {
    std::unordered_map<int32_t, std::vector<CommsOperator>> out;
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
    for (auto& [thread, ops] : out)
        std::sort(ops.begin(), ops.end(), [](const CommsOperator& a, const CommsOperator& b) {
            return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
        });
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

std::vector<CollectiveMeta> collectiveMetas(const Report& report, const std::vector<Collective>& collectives,
                                            std::string& note) {
    std::vector<CollectiveMeta> metas(collectives.size());
    note.clear();
    if (report.collective_args.empty()) {
        note =
            report.meta.format == "kineto-json"
                ? "no collective sizes: the trace records no collective args (PyTorch before 2.1)"
                : "no collective sizes: the report holds no NCCL NVTX payloads (NCCL before 2.19, or NVTX not traced)";
        return metas;
    }
    // The args on the kernels, by kernel row.
    std::unordered_map<uint32_t, uint32_t> argsOfKernel;
    for (uint32_t i = 0; i < report.collective_args.size(); ++i)
        if (report.collective_args[i].kernel_row != CollectiveArgs::kNotOnKernel)
            argsOfKernel.emplace(report.collective_args[i].kernel_row, i);
    // Else those of the record_param_comms operator around the kernel's launch.
    std::unordered_map<int32_t, std::vector<CommsOperator>> operators;
    std::optional<CorrelationIndex> correlation;
    bool anySize = false;
    for (size_t c = 0; c < collectives.size(); ++c) {
        cancellationPoint();
        const EventRef k = collectives[c].kernel;
        const IntervalColumns& ev = report.lanes[k.lane].events;
        const uint32_t kernelRow = ev.payload[k.index];
        if (const auto found = argsOfKernel.find(kernelRow); found != argsOfKernel.end()) {
            metas[c] = metaOfArgs(report, report.collective_args[found->second]);
        } else {
            if (!correlation) {
                correlation.emplace(report);
                operators = commsOperatorsByThread(report);
            }
            const std::optional<EventRef> launch = correlation->launcherOf(k);
            if (!launch) continue;
            const Lane& launchLane = report.lanes[launch->lane];
            const auto ops = operators.find(launchLane.thread);
            if (ops == operators.end()) continue;
            if (const CommsOperator* op = operatorAround(ops->second, launchLane.events.start_ns[launch->index]))
                metas[c] = metaOfArgs(report, report.collective_args[op->args]);
        }
        anySize = anySize || metas[c].size_bytes >= 0;
    }
    if (!anySize && !collectives.empty())
        note = "no collective sizes: no NCCL kernel's args or record_param_comms operator gives one";
    return metas;
}

}  // namespace lanescope
