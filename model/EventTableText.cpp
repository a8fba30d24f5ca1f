#include "model/EventTableText.h"

#include <cinttypes>
#include <cstdio>

#include "model/EventDetails.h"
#include "model/Occupancy.h"

namespace lanescope {
namespace {

constexpr const char* kArrow = "\xE2\x86\x92";  // U+2192 RIGHTWARDS ARROW
constexpr const char* kDot = "\xC2\xB7";        // U+00B7 MIDDLE DOT

}  // namespace

const char* eventFieldTitle(EventField field) {
    static const char* const kTitles[kEventFieldCount] = {"Start",
                                                          "End",
                                                          "Duration",
                                                          "Name",
                                                          "Kind",
                                                          "Row",
                                                          "Depth",
                                                          "Correlation id",
                                                          "Grid",
                                                          "Block",
                                                          "Registers/thread",
                                                          "Shared memory",
                                                          "Occupancy",
                                                          "Bytes",
                                                          "Throughput",
                                                          "Copy kind",
                                                          "Memory",
                                                          "Sync type",
                                                          "Domain",
                                                          "Color"};
    const auto i = static_cast<size_t>(field);
    return i < kEventFieldCount ? kTitles[i] : "";
}

bool eventFieldIsNumber(EventField field) {
    switch (field) {
        case EventField::Start:
        case EventField::End:
        case EventField::Duration:
        case EventField::Depth:
        case EventField::CorrelationId:
        case EventField::Registers:
        case EventField::SharedMemory:
        case EventField::Occupancy:
        case EventField::Bytes:
        case EventField::Throughput:
            return true;
        default:
            return false;
    }
}

std::string formatTimestamp(int64_t ns) {
    const uint64_t magnitude = ns < 0 ? uint64_t{0} - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%s%" PRIu64 ".%09" PRIu64 " s", ns < 0 ? "-" : "", magnitude / 1000000000,
                  magnitude % 1000000000);
    return buffer;
}

std::string laneLabel(const Report& report, uint32_t laneIndex) {
    if (laneIndex >= report.lanes.size()) return {};
    const Lane& lane = report.lanes[laneIndex];
    std::string name(report.str(lane.name_id));
    if (holdsGpuWork(lane.kind)) {
        if (report.gpus.size() > 1 && lane.gpu >= 0 && size_t(lane.gpu) < report.gpus.size())
            return "GPU " + std::to_string(report.gpus[size_t(lane.gpu)].device_id) + " " + kDot + " " + name;
        return name;
    }
    if (lane.thread >= 0 && size_t(lane.thread) < report.threads.size()) {
        const Thread& t = report.threads[size_t(lane.thread)];
        return std::string(report.str(t.name_id)) + " [" + std::to_string(t.tid) + "] " + kDot + " " + name;
    }
    return name;
}

std::string eventCellText(const EventRows& rows, const SourcedEvent& e, EventField field) {
    const Report& r = *rows.source(e).report;
    const IntervalColumns& ev = rows.lane(e).events;
    const uint32_t i = e.index, payload = ev.payload[i];
    const EventKind kind = ev.kind[i];
    const int64_t duration = ev.endNs(i) - ev.start_ns[i];
    const KernelConfig* config = nullptr;
    if (kind == EventKind::Kernel && payload < r.kernels.size() && r.kernels[payload].config < r.kernel_configs.size())
        config = &r.kernel_configs[r.kernels[payload].config];
    const MemcpyInfo* memcpy = kind == EventKind::Memcpy && payload < r.memcpys.size() ? &r.memcpys[payload] : nullptr;
    const MemsetInfo* memset = kind == EventKind::Memset && payload < r.memsets.size() ? &r.memsets[payload] : nullptr;
    const NvtxInfo* nvtx = kind == EventKind::NvtxRange && payload < r.nvtx.size() ? &r.nvtx[payload] : nullptr;
    switch (field) {
        case EventField::Start:
            return formatTimestamp(rows.startNs(e));
        case EventField::End:
            return formatTimestamp(rows.endNs(e));
        case EventField::Duration:
            return detailDuration(duration);
        case EventField::Name:
            return std::string(ev.name_id[i] < r.strings.size() ? r.str(ev.name_id[i]) : std::string_view());
        case EventField::Kind:
            return eventKindLabel(kind);
        case EventField::Row: {
            std::string label = laneLabel(r, rows.source(e).lane);
            bool severalReports = false;
            for (const EventSource& s : rows.sources()) severalReports = severalReports || s.report != &r;
            return severalReports ? rankLabel(r) + " " + kDot + " " + label : label;
        }
        case EventField::Depth:
            return std::to_string(ev.depth[i]);
        case EventField::CorrelationId:
            if (kind == EventKind::CudaApiCall && payload != kNoPayload) return std::to_string(payload);
            if (kind == EventKind::Kernel && payload < r.kernels.size())
                return std::to_string(r.kernels[payload].correlation_id);
            if (memcpy) return std::to_string(memcpy->correlation_id);
            if (memset) return std::to_string(memset->correlation_id);
            if (kind == EventKind::Sync && payload < r.syncs.size())
                return std::to_string(r.syncs[payload].correlation_id);
            return {};
        case EventField::Grid:
            return config ? detailTriple(config->grid[0], config->grid[1], config->grid[2]) : std::string();
        case EventField::Block:
            return config ? detailTriple(config->block[0], config->block[1], config->block[2]) : std::string();
        case EventField::Registers:
            return config ? std::to_string(config->registers_per_thread) : std::string();
        case EventField::SharedMemory:
            return config ? detailBytes(uint64_t(config->static_shared_bytes) + config->dynamic_shared_bytes)
                          : std::string();
        case EventField::Occupancy: {
            if (!config) return {};
            const auto occupancy = kernelOccupancy(r, rows.lane(e), *config);
            return occupancy ? describePercent(occupancy->percent()) : std::string();
        }
        case EventField::Bytes:
            return memcpy ? detailBytes(memcpy->bytes) : memset ? detailBytes(memset->bytes) : std::string();
        case EventField::Throughput:
            return memcpy   ? detailThroughput(memcpy->bytes, duration)
                   : memset ? detailThroughput(memset->bytes, duration)
                            : std::string();
        case EventField::CopyKind:
            return memcpy ? copyKindLabel(memcpy->copy_kind) : "";
        case EventField::Memory:
            if (memcpy)
                return std::string(memKindLabel(memcpy->src_kind)) + " " + kArrow + " " +
                       memKindLabel(memcpy->dst_kind);
            return memset ? memKindLabel(memset->mem_kind) : "";
        case EventField::SyncType:
            return kind == EventKind::Sync && payload < r.syncs.size() ? syncTypeLabel(r.syncs[payload].sync_type) : "";
        case EventField::Domain:
            if (!nvtx) return {};
            return nvtx->domain_name_id == 0 || nvtx->domain_name_id >= r.strings.size()
                       ? std::string("default")
                       : std::string(r.str(nvtx->domain_name_id));
        case EventField::Color: {
            if (!nvtx || !nvtx->has_color) return {};
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "#%06X", nvtx->color & 0xFFFFFFu);
            return buffer;
        }
    }
    return {};
}

}  // namespace lanescope
