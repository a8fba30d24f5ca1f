#include "query/MpiTables.h"

#include "query/LaneEventTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

// MPI_OTHER_EVENTS: every MPI call of every thread, each thread's segment in start order;
// textId is the call's name ("MPI_Sendrecv") as a string id. nsys 2025.3's export puts there
// every MPI call recorded without its parameters (all of them in the reports of 2020 to 2022,
// which record MPI calls as NVTX ranges of an "MPI" domain); calls recorded with parameters go to
// tables of their own (MPI_P2P_EVENTS, MPI_COLLECTIVES_EVENTS, ...), which no importer reads. The
// model keeps a call's name and times only, so every call it holds is a row of this table (the
// classes of model/MpiCall.h would split them, but nsys does not by name alone).
class MpiOtherTable : public LaneEventTable {
public:
    enum Column { Start, End, GlobalTid, TextId };
    explicit MpiOtherTable(const Report& report)
        : LaneEventTable(
              report, "MPI_OTHER_EVENTS", {{"start", I}, {"end", I}, {"globalTid", I}, {"textId", I}},
              [](const Lane& l) { return l.kind == LaneKind::Mpi; }, LaneEvents::Part::Intervals, EventKind::MpiCall) {}

    bool isSegmentColumn(int column) const override { return column == GlobalTid; }
    std::optional<int64_t> segmentValue(size_t segment, int) const override {
        return globalTidOf(report_, rows_.lane(segment).thread);
    }

protected:
    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        switch (column) {
            case Start:
                return resultInt(ctx, lane.events.start_ns[event]);
            case End:
                return resultInt(ctx, lane.events.endNs(event));
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, lane.thread));
            default:
                return resultStringId(ctx, report_, lane.events.name_id[event]);
        }
    }
};

}  // namespace

void addMpiTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<MpiOtherTable>(report));
}

}  // namespace lanescope::sql
