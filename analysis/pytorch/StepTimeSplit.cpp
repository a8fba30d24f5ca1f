// Each instant of the steps given to one category by priority: a sweep in start order.
#include "analysis/pytorch/StepTimeSplit.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

#include "analysis/pytorch/StepSpans.h"

namespace lanescope {
namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::min();

uint8_t bit(StepCategory c) { return static_cast<uint8_t>(1U << static_cast<unsigned>(c)); }

// One lane whose events count toward categories, walked in start order.
struct LaneWalk {
    const Lane* lane = nullptr;
    bool operators = false;  // the lane of cpu_op events (kPytorchOperatorLaneName)
    size_t next = 0;         // the next event to sweep
};

// The categories an event counts toward, as bits (bit(StepCategory)); 0 for none.
uint8_t categoriesOf(const LaneWalk& walk, size_t i, OverviewNames& names) {
    const IntervalColumns& ev = walk.lane->events;
    switch (walk.lane->kind) {
        case LaneKind::GpuStream:
            return ev.kind[i] == EventKind::Kernel   ? bit(StepCategory::Kernel)
                   : ev.kind[i] == EventKind::Memcpy ? bit(StepCategory::Memcpy)
                   : ev.kind[i] == EventKind::Memset ? bit(StepCategory::Memset)
                                                     : 0;
        case LaneKind::CudaApi:
            return bit(StepCategory::Runtime);
        default: {
            const OverviewName name = names.of(ev.name_id[i]);
            uint8_t bits = name == OverviewName::DataLoader ? bit(StepCategory::DataLoader) : 0;
            if (walk.operators && name != OverviewName::ProfilerStep) bits |= bit(StepCategory::CpuExec);
            return bits;
        }
    }
}

// The sweep's state: how far each category's events seen so far reach, and the windows' time
// given out up to `at`.
class Sweep {
public:
    explicit Sweep(const std::vector<std::pair<int64_t, int64_t>>& windows) : windows_(windows) {
        for (auto& perWindow : times_) perWindow.assign(windows.size(), 0);
        reach_.fill(kNever);
    }

    // Gives out the windows' time in [at, t), before the events starting at t are seen.
    void advanceTo(int64_t t) {
        while (window_ < windows_.size() && windows_[window_].first < t) {
            const int64_t from = std::max(at_, windows_[window_].first), to = std::min(t, windows_[window_].second);
            if (from < to) giveOut(from, to);
            if (windows_[window_].second > t) break;
            ++window_;
        }
        at_ = std::max(at_, t);
    }

    void see(uint8_t categories, int64_t end) {
        for (size_t c = 0; c < kStepCategories; ++c)
            if (categories & (1U << c)) reach_[c] = std::max(reach_[c], end);
    }

    std::array<std::vector<int64_t>, kStepCategories> times() && { return std::move(times_); }

private:
    // [from, to) inside the current window, no event starting in it: every event seen started
    // before, so a category covers an instant there exactly when its reach is past it, a
    // prefix of [from, to). The instants go to the first category whose prefix holds them.
    void giveOut(int64_t from, int64_t to) {
        for (size_t c = 0; c < kStepCategories && from < to; ++c) {
            const int64_t end = std::min(to, reach_[c]);
            if (end > from) {
                times_[c][window_] += end - from;
                from = end;
            }
        }
    }

    const std::vector<std::pair<int64_t, int64_t>>& windows_;
    std::array<std::vector<int64_t>, kStepCategories> times_;
    std::array<int64_t, kStepCategories> reach_{};
    size_t window_ = 0;    // the first window not given out to its end
    int64_t at_ = kNever;  // time before it is given out
};

}  // namespace

std::array<std::vector<int64_t>, kStepCategories> splitStepTime(
    const Report& report, const std::vector<std::pair<int64_t, int64_t>>& windows) {
    Sweep sweep(windows);
    if (windows.empty()) return std::move(sweep).times();
    OverviewNames names(report);
    const uint32_t operatorLaneName = report.strings.find(kPytorchOperatorLaneName);
    std::vector<LaneWalk> walks;
    for (const Lane& lane : report.lanes)
        if (lane.kind == LaneKind::GpuStream || lane.kind == LaneKind::CudaApi || lane.kind == LaneKind::Nvtx)
            walks.push_back({&lane, lane.kind == LaneKind::Nvtx && lane.name_id == operatorLaneName, 0});

    // The next event of each lane that counts toward a category, by start: (start, walk).
    using Next = std::pair<int64_t, size_t>;
    std::priority_queue<Next, std::vector<Next>, std::greater<>> queue;
    auto queueNext = [&](size_t w) {
        LaneWalk& walk = walks[w];
        const IntervalColumns& ev = walk.lane->events;
        while (walk.next < ev.size() && categoriesOf(walk, walk.next, names) == 0) ++walk.next;
        if (walk.next < ev.size()) queue.emplace(ev.start_ns[walk.next], w);
    };
    for (size_t w = 0; w < walks.size(); ++w) queueNext(w);
    const int64_t lastEnd = windows.back().second;
    while (!queue.empty() && queue.top().first < lastEnd) {
        const size_t w = queue.top().second;
        queue.pop();
        LaneWalk& walk = walks[w];
        const IntervalColumns& ev = walk.lane->events;
        sweep.advanceTo(ev.start_ns[walk.next]);
        sweep.see(categoriesOf(walk, walk.next, names), ev.endNs(walk.next));
        ++walk.next;
        queueNext(w);
    }
    sweep.advanceTo(lastEnd);
    return std::move(sweep).times();
}

}  // namespace lanescope
