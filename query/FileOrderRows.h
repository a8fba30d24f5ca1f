#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "model/Report.h"
#include "query/BuiltOnce.h"

namespace lanescope::sql {

// The rows of a table of lanes' events or instants in the order nsys's export lists them, as
// the table's segments: one per run of a Report::file_order list (model/FileOrder.h), whose rows
// are consecutive events of one lane, so in start order. A report without that list (a format
// without a file order) lists lane by lane instead, in Report::lanes order: one segment per lane
// `picks` takes that holds any, their events first (when `parts` has them), then their instants.
class FileOrderRows {
public:
    enum class Parts { Events, Instants, Both };
    FileOrderRows(const Report& report, const Column<FileOrderRun>& runs, std::function<bool(const Lane&)> picks,
                  Parts parts)
        : report_(report), runs_(runs), picks_(std::move(picks)), parts_(parts) {}

    size_t segmentCount() const { return segments().size(); }
    uint32_t segmentSize(size_t segment) const { return segments()[segment].count; }
    uint32_t laneIndex(size_t segment) const { return segments()[segment].lane; }
    const Lane& lane(size_t segment) const { return report_.lanes[laneIndex(segment)]; }
    // Whether a segment's rows are its lane's instants rather than its events.
    bool instants(size_t segment) const { return segments()[segment].instants; }
    // The row's index in its lane's IntervalColumns or InstantColumns.
    uint32_t event(size_t segment, uint32_t row) const { return segments()[segment].first + row; }
    // The start of a row (an instant's time).
    int64_t startNs(size_t segment, uint32_t row) const;

private:
    // The report's runs, or those made for lane order on first use.
    std::span<const FileOrderRun> segments() const {
        if (!runs_.empty()) return runs_;
        return laneOrder_.get([this] { return inLaneOrder(); });
    }
    std::vector<FileOrderRun> inLaneOrder() const;

    const Report& report_;
    const Column<FileOrderRun>& runs_;
    std::function<bool(const Lane&)> picks_;
    Parts parts_;
    BuiltOnce<std::vector<FileOrderRun>> laneOrder_;
};

}  // namespace lanescope::sql
