#include "analysis/NsysTraceReports.h"

#include <string>

#include "analysis/NsysStatsSupport.h"

namespace lanescope {
namespace {

using namespace nsysstats;

using Cell = StatsTable::Cell;

}  // namespace

StatsTable cudaGpuTrace(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "cuda_gpu_trace";
    table.header = {
        "Start (ns)", "Duration (ns)", "CorrId",  "GrdX",         "GrdY",         "GrdZ",       "BlkX",
        "BlkY",       "BlkZ",          "Reg/Trd", "StcSMem (MB)", "DymSMem (MB)", "Bytes (MB)", "Throughput (MB/s)",
        "SrcMemKd",   "DstMemKd",      "Device",  "Ctx",          "GreenCtx",     "Strm",       "Name"};
    TraceRows rows(table, options);
    forEachEventByStart(
        report, {EventKind::Kernel, EventKind::Memcpy, EventKind::Memset}, range, [&](const Lane& lane, size_t i) {
            if (!rows.wanted()) return;
            const IntervalColumns& ev = lane.events;
            const int64_t duration = ev.endNs(i) - ev.start_ns[i];
            std::vector<Cell> row;
            row.reserve(table.header.size());
            row.emplace_back(ev.start_ns[i]);
            row.emplace_back(duration);
            const uint32_t payload = ev.payload[i];
            uint32_t nameId = ev.name_id[i];
            if (ev.kind[i] == EventKind::Kernel) {
                const KernelConfig* c = kernelConfigOf(report, lane, i);
                const KernelConfig config = c ? *c : KernelConfig{};
                row.emplace_back(
                    int64_t{payload < report.kernels.size() ? report.kernels[payload].correlation_id : 0u});
                for (uint32_t g : config.grid) row.emplace_back(int64_t{g});
                for (uint16_t b : config.block) row.emplace_back(int64_t{b});
                row.emplace_back(int64_t{config.registers_per_thread});
                row.push_back(megabytes(config.static_shared_bytes));
                row.push_back(megabytes(config.dynamic_shared_bytes));
                for (int k = 0; k < 4; ++k) row.push_back(kNull);
                nameId = kernelNameId(report, lane, i, options);
            } else {
                uint32_t correlation = 0;
                uint64_t bytes = 0;
                Cell src = kNull, dst = kNull;
                if (ev.kind[i] == EventKind::Memcpy && payload < report.memcpys.size()) {
                    const MemcpyInfo& m = report.memcpys[payload];
                    correlation = m.correlation_id;
                    bytes = m.bytes;
                    src = std::string(memKindLabel(m.src_kind));
                    dst = std::string(memKindLabel(m.dst_kind));
                } else if (ev.kind[i] == EventKind::Memset && payload < report.memsets.size()) {
                    const MemsetInfo& m = report.memsets[payload];
                    correlation = m.correlation_id;
                    bytes = m.bytes;
                    src = std::string(memKindLabel(m.mem_kind));
                }
                row.emplace_back(int64_t{correlation});
                for (int k = 0; k < 9; ++k) row.push_back(kNull);
                row.push_back(megabytes(bytes));
                row.push_back(throughput(bytes, duration));
                row.push_back(std::move(src));
                row.push_back(std::move(dst));
            }
            // A unified-memory migration belongs to no context or stream: nsys prints both empty
            // (the export stores 0 for them).
            const bool migration = ev.kind[i] == EventKind::Memcpy && payload < report.memcpys.size() &&
                                   report.memcpys[payload].copy_kind >= CopyKind::UvmHtoD;
            row.emplace_back(deviceLabel(report, lane.gpu));
            row.push_back(migration ? kNull : Cell(lane.context_id));
            row.push_back(kNull);  // green contexts: not recorded in the corpus, not in the model
            row.push_back(migration ? kNull : Cell(lane.stream_id));
            row.emplace_back(std::string(report.str(nameId)));
            rows.add(std::move(row));
        });
    return table;
}

}  // namespace lanescope
