#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>

#include "model/Report.h"
#include "timeline/CounterSummary.h"
#include "timeline/LaneSummary.h"

namespace lanescope {

// The drawing summaries of one frozen report (LaneSummary.h, CounterSummary.h), one per lane
// and per counter, each built on first use or all at once ahead (buildAll, off the GUI
// thread after import) and kept with the report, in its derived cache. Thread-safe: a
// summary is built once; a caller asking for one being built waits for it.
class ReportSummaries {
public:
    explicit ReportSummaries(const Report& report);
    static const ReportSummaries& of(const Report& report);

    const LaneSummary& lane(size_t index) const;        // of report.lanes[index]
    const CounterSummary& counter(size_t index) const;  // of report.counters[index]
    // Builds every summary not built yet, on `threads` threads, largest lanes first.
    void buildAll(unsigned threads) const;
    size_t memoryBytes() const;  // of the summaries built so far

private:
    template <typename T>
    struct Slot {
        std::once_flag once;
        std::atomic<bool> built{false};
        T value;
    };
    const Report* report_;
    std::unique_ptr<Slot<LaneSummary>[]> lanes_;
    std::unique_ptr<Slot<CounterSummary>[]> counters_;
};

}  // namespace lanescope
