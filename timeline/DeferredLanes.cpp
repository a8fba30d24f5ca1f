#include "timeline/DeferredLanes.h"

#include "timeline/Palette.h"

namespace lanescope {

DeferredLanes::DeferredLanes(const Report& report)
    : report_(&report), slots_(std::make_unique<Slot[]>(report.lanes.size())) {}

const DeferredLanes& DeferredLanes::of(const Report& report) {
    return report.derived.get<DeferredLanes>([&] { return DeferredLanes(report); });
}

const Lane* DeferredLanes::ready(size_t lane) const {
    if (lane >= report_->lanes.size() || !slots_[lane].built.load(std::memory_order_acquire)) return nullptr;
    return &slots_[lane].events.content;
}

const LaneSummary& DeferredLanes::summary(size_t lane) const { return slots_[lane].summary; }

EventRef DeferredLanes::source(size_t lane, uint32_t event) const { return slots_[lane].events.sources[event]; }
const std::vector<EventRef>& DeferredLanes::sources(size_t lane) const { return slots_[lane].events.sources; }

void DeferredLanes::build(size_t lane, const Builder& builder) const {
    if (!isDeferredLane(*report_, lane) || ready(lane)) return;
    std::lock_guard lock(*building_);
    if (ready(lane)) return;  // built by the build this one waited for
    EventColors colors(*report_);
    for (DeferredLaneEvents& built : builder(*report_, lane)) {
        if (!isDeferredLane(*report_, built.lane) || ready(built.lane)) continue;
        Slot& slot = slots_[built.lane];
        slot.events = std::move(built);
        const Lane& content = slot.events.content;
        slot.summary = buildLaneSummary(content, [&](uint32_t event) { return colors.color(content, event); });
        slot.built.store(true, std::memory_order_release);
    }
    // A builder that left it out computed nothing for it: an empty lane, not a build on every draw.
    if (!ready(lane)) {
        slots_[lane].events.lane = lane;
        slots_[lane].built.store(true, std::memory_order_release);
    }
}

std::optional<EventRef> builtLaneSource(const Report& report, size_t lane, uint32_t event) {
    if (!isDeferredLane(report, lane)) return std::nullopt;
    const DeferredLanes& deferred = DeferredLanes::of(report);
    if (!deferred.ready(lane) || event >= deferred.sources(lane).size()) return std::nullopt;
    return deferred.source(lane, event);
}

const Lane& shownLane(const Report& report, size_t lane) {
    if (isDeferredLane(report, lane))
        if (const Lane* built = DeferredLanes::of(report).ready(lane)) return *built;
    return report.lanes[lane];
}

}  // namespace lanescope
