#include "timeline/ReportSummaries.h"

#include <algorithm>
#include <numeric>
#include <thread>
#include <vector>

#include "timeline/Palette.h"

namespace lanescope {

ReportSummaries::ReportSummaries(const Report& report)
    : report_(&report),
      lanes_(std::make_unique<Slot<LaneSummary>[]>(report.lanes.size())),
      counters_(std::make_unique<Slot<CounterSummary>[]>(report.counters.size())) {}

const ReportSummaries& ReportSummaries::of(const Report& report) {
    return report.derived.get<ReportSummaries>([&] { return ReportSummaries(report); });
}

const LaneSummary& ReportSummaries::lane(size_t index) const {
    Slot<LaneSummary>& slot = lanes_[index];
    std::call_once(slot.once, [&] {
        const Lane& lane = report_->lanes[index];
        EventColors colors(*report_);  // its own: EventColors is not thread-safe
        slot.value = buildLaneSummary(lane, [&](uint32_t event) { return colors.color(lane, event); });
        slot.built.store(true, std::memory_order_release);
    });
    return slot.value;
}

const CounterSummary& ReportSummaries::counter(size_t index) const {
    Slot<CounterSummary>& slot = counters_[index];
    std::call_once(slot.once, [&] {
        slot.value = buildCounterSummary(report_->counters[index].value);
        slot.built.store(true, std::memory_order_release);
    });
    return slot.value;
}

void ReportSummaries::buildAll(unsigned threads) const {
    std::vector<size_t> order(report_->lanes.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return report_->lanes[a].events.size() > report_->lanes[b].events.size(); });
    std::atomic<size_t> next{0};
    const size_t total = order.size() + report_->counters.size();
    auto work = [&] {
        for (size_t i = next++; i < total; i = next++)
            if (i < order.size())
                lane(order[i]);
            else
                counter(i - order.size());
    };
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    work();
}

size_t ReportSummaries::memoryBytes() const {
    size_t bytes = sizeof(ReportSummaries);
    for (size_t i = 0; i < report_->lanes.size(); ++i)
        if (lanes_[i].built.load(std::memory_order_acquire)) bytes += lanes_[i].value.memoryBytes();
    for (size_t i = 0; i < report_->counters.size(); ++i)
        if (counters_[i].built.load(std::memory_order_acquire)) bytes += counters_[i].value.memoryBytes();
    return bytes;
}

}  // namespace lanescope
