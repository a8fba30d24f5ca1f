#include "model/NvtxPayloadPlacement.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "model/DiagnosticKinds.h"
#include "model/NvtxPayloadDecoder.h"

namespace lanescope {
namespace {

bool holdsNvtxRanges(LaneKind kind) {
    return kind == LaneKind::Nvtx || kind == LaneKind::NvtxStartEnd || kind == LaneKind::Nccl;
}

void countProblem(Diagnostics& diagnostics, NvtxPayloadProblem problem) {
    switch (problem) {
        case NvtxPayloadProblem::None:
            return;
        case NvtxPayloadProblem::UnknownSchema:
            return countDiagnostic(diagnostics, Diag::NvtxPayloadUnknownSchema);
        case NvtxPayloadProblem::UnsupportedType:
            return countDiagnostic(diagnostics, Diag::NvtxPayloadUnsupportedType);
        case NvtxPayloadProblem::Damaged:
            return countDiagnostic(diagnostics, Diag::NvtxPayloadDamaged);
    }
}

}  // namespace

void placeNvtxPayloads(Report& report) {
    NvtxPayloads& payloads = report.nvtx_payloads;
    if (payloads.rows.empty()) return;
    const Column<NvtxPayloadRow> read = std::move(payloads.rows);
    // The rows read, by NvtxInfo row (an event's payloads in recorded order).
    std::vector<uint32_t> byNvtx(read.size());
    std::iota(byNvtx.begin(), byNvtx.end(), 0u);
    std::stable_sort(byNvtx.begin(), byNvtx.end(), [&](uint32_t a, uint32_t b) { return read[a].nvtx < read[b].nvtx; });
    std::vector<bool> carries(report.nvtx.size());
    for (const NvtxPayloadRow& r : read)
        if (r.nvtx < carries.size()) carries[r.nvtx] = true;

    struct Placed {
        NvtxPayloadRow row;
        uint32_t read;  // index into `read`
    };
    std::vector<Placed> placed;
    auto place = [&](uint32_t lane, uint32_t event, bool mark, uint32_t nvtx) {
        if (nvtx >= carries.size() || !carries[nvtx]) return;
        auto first = std::lower_bound(byNvtx.begin(), byNvtx.end(), nvtx,
                                      [&](uint32_t k, uint32_t n) { return read[k].nvtx < n; });
        for (; first != byNvtx.end() && read[*first].nvtx == nvtx; ++first) {
            NvtxPayloadRow row = read[*first];
            row.lane = lane;
            row.event = event;
            row.mark = mark;
            placed.push_back({row, *first});
        }
    };
    for (uint32_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (!holdsNvtxRanges(lane.kind)) continue;
        const IntervalColumns& ev = lane.events;
        for (uint32_t i = 0; i < ev.size(); ++i)
            if (ev.kind[i] == EventKind::NvtxRange) place(l, i, false, ev.payload[i]);
        if (lane.kind == LaneKind::Nvtx)
            for (uint32_t i = 0; i < lane.instants.size(); ++i) place(l, i, true, lane.instants.payload[i]);
    }

    // The bytes of the placed payloads only, in the order read; copies share them.
    std::vector<uint64_t> newOffset(read.size(), UINT64_MAX);
    for (const Placed& p : placed) newOffset[p.read] = 0;
    Column<uint8_t> bytes;
    for (uint32_t k = 0; k < read.size(); ++k) {
        if (newOffset[k] == UINT64_MAX) continue;
        newOffset[k] = bytes.size();
        const NvtxPayloadRow& r = read[k];
        if (r.offset <= payloads.bytes.size() && r.length <= payloads.bytes.size() - r.offset)
            bytes.insert(bytes.end(), payloads.bytes.begin() + std::ptrdiff_t(r.offset),
                         payloads.bytes.begin() + std::ptrdiff_t(r.offset + r.length));
        else
            newOffset[k] = UINT64_MAX - r.length;  // outside the pool: stays outside, decoded as damaged
    }
    payloads.bytes = std::move(bytes);
    payloads.bytes.shrink_to_fit();
    std::vector<bool> decoded(read.size());
    for (Placed& p : placed) {
        p.row.offset = newOffset[p.read];
        if (decoded[p.read]) continue;  // a copy's payload is the original's
        decoded[p.read] = true;
        countProblem(report.diagnostics, decodeNvtxPayload(report, p.row).problem);
    }
    std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
        return std::tie(a.row.lane, a.row.mark, a.row.event) < std::tie(b.row.lane, b.row.mark, b.row.event);
    });
    payloads.rows.reserve(placed.size());
    for (const Placed& p : placed) payloads.rows.push_back(p.row);
}

}  // namespace lanescope
