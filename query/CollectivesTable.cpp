#include "query/CollectivesTable.h"

#include <cmath>
#include <mutex>
#include <optional>
#include <string>

#include "analysis/communication/CollectiveInstances.h"
#include "query/FunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

// The report's collectives, found once, on the first count of the table's rows.
class ReportCollectives {
public:
    explicit ReportCollectives(const Report& report) : report_(report) {}

    const CollectiveRows& rows() {
        std::call_once(computed_, [this] { rows_ = analyzeCommunication({&report_}).rows; });
        return rows_;
    }

private:
    const Report& report_;
    std::once_flag computed_;
    CollectiveRows rows_;
};

std::optional<int64_t> knownInt(int64_t v) { return v >= 0 ? std::optional<int64_t>(v) : std::nullopt; }

}  // namespace

void addCollectivesTable(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    enum Column {
        Row,
        Operation,
        Communicator,
        Ranks,
        SizeBytes,
        Start,
        End,
        Duration,
        AlgBw,
        BusBw,
        LaneId,
        EventIndex
    };
    auto collectives = std::make_shared<ReportCollectives>(report);
    tables.push_back(std::make_unique<FunctionTable>(
        "COLLECTIVES",
        std::vector<ColumnDef>{{"collective", ColumnType::Integer},
                               {"operation", ColumnType::Text},
                               {"communicator", ColumnType::Text},
                               {"ranks", ColumnType::Integer},
                               {"sizeBytes", ColumnType::Integer},
                               {"start", ColumnType::Integer},
                               {"end", ColumnType::Integer},
                               {"duration", ColumnType::Integer},
                               {"algbwGBps", ColumnType::Real},
                               {"busbwGBps", ColumnType::Real},
                               {"laneId", ColumnType::Integer},
                               {"eventIndex", ColumnType::Integer}},
        [collectives] { return uint32_t(collectives->rows().size()); },
        [collectives](uint32_t row, int column, sqlite3_context* ctx) {
            const CollectiveRows& r = collectives->rows();
            auto real = [&](double v) { return std::isnan(v) ? resultNull(ctx) : resultReal(ctx, v); };
            switch (column) {
                case Row:
                    return resultInt(ctx, row);
                case Operation:
                    return resultText(ctx, collectiveOpName(r.op[row]));
                case Communicator:
                    return r.communicator[row].empty() ? resultNull(ctx) : resultText(ctx, r.communicator[row]);
                case Ranks:
                    return resultInt(ctx, knownInt(r.ranks[row]));
                case SizeBytes:
                    return resultInt(ctx, knownInt(r.size_bytes[row]));
                case Start:
                    return resultInt(ctx, r.start_ns[row]);
                case End:
                    return resultInt(ctx, r.start_ns[row] + r.duration_ns[row]);
                case Duration:
                    return resultInt(ctx, r.duration_ns[row]);
                case AlgBw:
                    return real(r.algbw_gbps[row]);
                case BusBw:
                    return real(r.busbw_gbps[row]);
                case LaneId:
                    return resultInt(ctx, int64_t(r.lane[row]));
                default:
                    return resultInt(ctx, int64_t(r.event[row]));
            }
        },
        FunctionKey{Row, {}}));
}

}  // namespace lanescope::sql
