#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
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
    const std::vector<EventRef>& sources(size_t lane) const;  // by event
    // Builds deferred lane `lane` (and what `builder` computes with it) if it is not built yet;
    // on the calling thread, which waits for a build of another thread in progress.
    void build(size_t lane, const Builder& builder) const;

    // Settled once a window has drawn the report and built every deferred lane it asked for
    // then (TimelineView), or at once where nothing waits for that (a report reopened from its
    // saved model, or kept nowhere). A first open saves the model once the report is settled,
    // with the lanes built by then in it (app/gui/import/SaveModel.h); a lane built after is
    // kept beside the model (app/gui/import/NvtxOnGpuLanes.h).
    void settle() const { settled_->store(true, std::memory_order_release); }
    bool settled() const { return settled_->load(std::memory_order_acquire); }

private:
    struct Slot {
        std::atomic<bool> built{false};
        DeferredLaneEvents events;
        LaneSummary summary;
    };
    const Report* report_;
    std::unique_ptr<Slot[]> slots_;
    std::unique_ptr<std::mutex> building_ = std::make_unique<std::mutex>();                    // held, movable
    std::unique_ptr<std::atomic<bool>> settled_ = std::make_unique<std::atomic<bool>>(false);  // held, movable
};

// For event `event` of deferred lane `lane` once built, the event it stands for (an NVTX range
// for an "NVTX on GPU" lane); nullopt for any other lane, or one not built yet.
std::optional<EventRef> builtLaneSource(const Report& report, size_t lane, uint32_t event);

// The lane as a timeline draws it: a deferred lane's computed events once built, else the
// report's own lane (empty while a deferred one is not built).
const Lane& shownLane(const Report& report, size_t lane);

}  // namespace lanescope
