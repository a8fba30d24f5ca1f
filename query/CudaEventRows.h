#pragma once
#include <cstdint>
#include <vector>

#include "model/Report.h"
#include "query/BuiltOnce.h"

namespace lanescope::sql {

// The rows of CUPTI_ACTIVITY_KIND_CUDA_EVENT: the CUDA event records, each an instant of its
// stream lane whose payload is its row of Report::cuda_events. A report of Nsight Systems lists
// them in Report::cuda_events order, the report file's, which nsys's export keeps (neither time
// nor stream order); another lists the stream lanes' instants lane by lane. A segment is a
// stretch of rows of one lane. Built on first use, 4 bytes a record.
class CudaEventRows {
public:
    explicit CudaEventRows(const Report& report) : report_(report) {}

    size_t segmentCount() const { return built().segments.size(); }
    uint32_t segmentSize(size_t segment) const { return built().segments[segment].count; }
    const Lane& lane(size_t segment) const { return report_.lanes[built().segments[segment].lane]; }
    // The row's record: its instant's payload, a row of Report::cuda_events where it is one.
    uint32_t record(size_t segment, uint32_t row) const {
        const Rows& rows = built();
        return rows.records[rows.segments[segment].first + row];
    }

private:
    struct Segment {
        uint32_t lane = 0;   // into Report::lanes
        uint32_t first = 0;  // into Rows::records
        uint32_t count = 0;
    };
    struct Rows {
        std::vector<uint32_t> records;  // the rows' records, in table order
        std::vector<Segment> segments;
    };
    const Rows& built() const {
        return rows_.get([this] { return build(); });
    }
    Rows build() const;

    const Report& report_;
    BuiltOnce<Rows> rows_;
};

}  // namespace lanescope::sql
