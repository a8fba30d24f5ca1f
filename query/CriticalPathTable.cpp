#include "query/CriticalPathTable.h"

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "analysis/critical_path/CriticalPath.h"
#include "query/FunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

// The whole report's path, computed once, on the first count of the table's rows; a report with
// nothing to walk (no calls, no GPU work) has no rows.
class WholeReportPath {
public:
    explicit WholeReportPath(const Report& report) : report_(report) {}

    const CriticalPath& path() {
        std::call_once(computed_, [this] {
            try {
                path_ = computeCriticalPath({&report_}, CriticalPathOptions{});
            } catch (const std::invalid_argument&) {
                path_ = CriticalPath{};  // nothing in the report: no segments
            }
        });
        return path_;
    }
    const Report& report() const { return report_; }

private:
    const Report& report_;
    std::once_flag computed_;
    CriticalPath path_;
};

}  // namespace

void addCriticalPathTable(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    enum Column { Segment, Start, End, Duration, Category, Name, Lane, LaneId, EventIndex };
    auto whole = std::make_shared<WholeReportPath>(report);
    tables.push_back(std::make_unique<FunctionTable>(
        "CRITICAL_PATH",
        std::vector<ColumnDef>{{"segment", ColumnType::Integer},
                               {"start", ColumnType::Integer},
                               {"end", ColumnType::Integer},
                               {"duration", ColumnType::Integer},
                               {"category", ColumnType::Text},
                               {"name", ColumnType::Text},
                               {"lane", ColumnType::Text},
                               {"laneId", ColumnType::Integer},
                               {"eventIndex", ColumnType::Integer}},
        [whole] { return uint32_t(whole->path().segments.size()); },
        [whole](uint32_t row, int column, sqlite3_context* ctx) {
            const CriticalPath& path = whole->path();
            const PathSegments& s = path.segments;
            switch (column) {
                case Segment:
                    return resultInt(ctx, row);
                case Start:
                    return resultInt(ctx, s.start_ns[row]);
                case End:
                    return resultInt(ctx, s.end_ns[row]);
                case Duration:
                    return resultInt(ctx, s.end_ns[row] - s.start_ns[row]);
                case Category:
                    return resultText(ctx, pathCategoryName(s.category[row]));
                case Name:
                    return resultText(ctx, segmentName({&whole->report()}, path, row));
                case Lane:
                    return resultText(ctx, path.lane_labels[s.lane_label[row]]);
                case LaneId:
                    return resultInt(ctx, s.lane[row] >= 0 ? std::optional<int64_t>(s.lane[row]) : std::nullopt);
                default:
                    return resultInt(ctx, s.event[row] >= 0 ? std::optional<int64_t>(s.event[row]) : std::nullopt);
            }
        },
        FunctionKey{Segment, {}}));
}

}  // namespace lanescope::sql
