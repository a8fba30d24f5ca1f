#include "analysis/DeferredLaneBytes.h"

#include <cstdint>
#include <set>

#include "analysis/ByteCodec.h"
#include "analysis/NvtxProjection.h"

namespace lanescope {
namespace {

constexpr std::string_view kDeferredLaneTag = "LSDLANE1";
constexpr std::string_view kSourcesTag = "LSDSRCS1";

bool isNvtxRangeOf(const Report& report, int32_t process, uint32_t lane, uint32_t index) {
    if (lane >= report.lanes.size()) return false;
    const Lane& l = report.lanes[lane];
    return (l.kind == LaneKind::Nvtx || l.kind == LaneKind::NvtxStartEnd) && l.process == process &&
           index < l.events.size();
}

}  // namespace

std::string encodeDeferredLanes(const std::vector<DeferredLaneEvents>& lanes) {
    ByteWriter out;
    out.raw(kDeferredLaneTag);
    out.put(uint32_t(lanes.size()));
    for (const DeferredLaneEvents& lane : lanes) {
        const IntervalColumns& ev = lane.content.events;
        out.put(uint64_t(lane.lane));
        out.put(uint32_t(ev.size()));
        for (uint32_t i = 0; i < ev.size(); ++i) {
            out.put(ev.start_ns[i]);
            out.put(ev.endNs(i));
            out.put(lane.sources[i].lane);
            out.put(lane.sources[i].index);
        }
    }
    return out.take();
}

std::optional<std::vector<DeferredLaneEvents>> decodeDeferredLanes(const Report& report, int32_t process,
                                                                   std::string_view bytes) {
    ByteReader in(bytes);
    uint32_t laneCount = 0;
    if (!in.raw(kDeferredLaneTag) || !in.get(laneCount)) return std::nullopt;
    std::vector<DeferredLaneEvents> lanes;
    std::set<uint64_t> seen;
    for (uint32_t k = 0; k < laneCount; ++k) {
        uint64_t index = 0;
        uint32_t events = 0;
        if (!in.get(index) || !in.get(events) || !isDeferredLane(report, index) ||
            report.lanes[index].process != process || !seen.insert(index).second ||
            in.left() / (2 * sizeof(int64_t) + 2 * sizeof(uint32_t)) < events)
            return std::nullopt;
        const Lane& shell = report.lanes[index];
        DeferredLaneEvents& lane = lanes.emplace_back();
        lane.lane = index;
        lane.content.kind = shell.kind;
        lane.content.name_id = shell.name_id;
        lane.content.process = shell.process;
        lane.content.gpu = shell.gpu;
        lane.content.events.reserve(events);
        lane.sources.reserve(events);
        for (uint32_t i = 0; i < events; ++i) {
            int64_t start = 0, end = 0;
            EventRef source;
            if (!in.get(start) || !in.get(end) || !in.get(source.lane) || !in.get(source.index) || end < start ||
                !isNvtxRangeOf(report, process, source.lane, source.index))
                return std::nullopt;
            lane.content.events.append(start, end, report.lanes[source.lane].events.name_id[source.index], i,
                                       EventKind::NvtxRange);
            lane.sources.push_back(source);
        }
        finishDeferredLane(report, lane);
    }
    if (in.left() != 0) return std::nullopt;
    return lanes;
}

std::string encodeProjectedSources(const std::vector<EventRef>& sources) {
    ByteWriter out;
    out.raw(kSourcesTag);
    out.put(uint32_t(sources.size()));
    for (const EventRef& source : sources) {
        out.put(source.lane);
        out.put(source.index);
    }
    return out.take();
}

std::optional<EventRef> decodeProjectedSource(const Report& report, size_t lane, uint32_t event,
                                              std::string_view bytes) {
    if (lane >= report.lanes.size() || report.lanes[lane].kind != LaneKind::NvtxGpuProjection) return std::nullopt;
    const Lane& projected = report.lanes[lane];
    constexpr size_t kEntryBytes = 2 * sizeof(uint32_t);
    ByteReader in(bytes);
    uint32_t events = 0;
    if (!in.raw(kSourcesTag) || !in.get(events) || events != projected.events.size() || event >= events ||
        in.left() != size_t(events) * kEntryBytes)
        return std::nullopt;
    ByteReader entry(bytes.substr(kSourcesTag.size() + sizeof(uint32_t) + size_t(event) * kEntryBytes));
    EventRef source;
    if (!entry.get(source.lane) || !entry.get(source.index) ||
        !isNvtxRangeOf(report, projected.process, source.lane, source.index))
        return std::nullopt;
    const IntervalColumns& range = report.lanes[source.lane].events;
    if (range.name_id[source.index] != projected.events.name_id[event] ||
        range.payload[source.index] != projected.events.payload[event])
        return std::nullopt;
    return source;
}

}  // namespace lanescope
