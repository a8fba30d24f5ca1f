#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "model/DeferredLane.h"
#include "model/Report.h"
#include "timeline/LaneSummary.h"

namespace lanescope {

// The events of a shown report's deferred lanes (model/DeferredLane.h), computed when their
// row is first drawn and kept with the report, in its derived cache, with their drawing
// summaries. Slots by lane index; only deferred lanes' slots are ever filled. Thread-safe: builds
// run one at a time; a lane is read only once `ready` says it is built, and never changes after.
class DeferredLanes {
public:
    // Computes the events of deferred lane `lane` and of any others it computes in the same pass.
    using Builder = std::function<std::vector<DeferredLaneEvents>(const Report&, size_t lane)>;

    explicit DeferredLanes(const Report& report);
    static const DeferredLanes& of(const Report& report);

    // The computed events of deferred lane `lane`, or nullptr while it is not built.
    const Lane* ready(size_t lane) const;
    // Of a ready lane: its drawing summary, and the event each of its events stands for.
    const LaneSummary& summary(size_t lane) const;
    EventRef source(size_t lane, uint32_t event) const;
    // Builds deferred lane `lane` (and what `builder` computes with it) if it is not built yet;
    // on the calling thread, which waits for a build of another thread in progress.
    void build(size_t lane, const Builder& builder) const;

private:
    struct Slot {
        std::atomic<bool> built{false};
        DeferredLaneEvents events;
        LaneSummary summary;
    };
    const Report* report_;
    std::unique_ptr<Slot[]> slots_;
    std::unique_ptr<std::mutex> building_ = std::make_unique<std::mutex>();  // held, movable
};

// The lane as a timeline draws it: a deferred lane's computed events once built, else the
// report's own lane (empty while a deferred one is not built).
const Lane& shownLane(const Report& report, size_t lane);

}  // namespace lanescope
