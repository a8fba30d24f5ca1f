#include "importers/nsys/SampledLanes.h"

#include <algorithm>
#include <optional>
#include <tuple>

namespace lanescope::nsys {
namespace {

constexpr uint64_t kWindows = 32, kWindowRows = 64;
constexpr int64_t kTimeLimit = int64_t{1} << 62;                          // as validTime: rows beyond it are skipped
constexpr int64_t kNvtxMark = 34, kNvtxPushPop = 59, kNvtxStartEnd = 60;  // NVTX_EVENTS.eventType, as ReadNvtx

bool validTimeOf(int64_t t) { return t > -kTimeLimit && t < kTimeLimit; }

// The lane a row makes, as the table's reader makes it (columns: start, end, then `owner` ids).
using LaneOfRow = std::optional<LaneKey> (*)(const SqliteStmt& row);

std::optional<LaneKey> nvtxLane(const SqliteStmt& row) {  // start, end, globalTid, eventType
    const int64_t type = row.i64(3);
    if (row.isNull(0) || !validTimeOf(row.i64(0))) return std::nullopt;
    if (type == kNvtxMark) return LaneKey{LaneKind::Nvtx, row.i64(2)};
    if (type != kNvtxPushPop && type != kNvtxStartEnd) return std::nullopt;
    if (row.isNull(1) || !validTimeOf(row.i64(1)) || row.i64(1) < row.i64(0)) return std::nullopt;
    return LaneKey{type == kNvtxStartEnd ? LaneKind::NvtxStartEnd : LaneKind::Nvtx, row.i64(2)};
}

bool validInterval(const SqliteStmt& row) {
    return !row.isNull(0) && !row.isNull(1) && validTimeOf(row.i64(0)) && validTimeOf(row.i64(1)) &&
           row.i64(1) >= row.i64(0);
}

std::optional<LaneKey> cudaApiLane(const SqliteStmt& row) {  // start, end, globalTid
    if (!validInterval(row)) return std::nullopt;
    return LaneKey{LaneKind::CudaApi, row.i64(2)};
}

std::optional<LaneKey> osRuntimeLane(const SqliteStmt& row) {  // start, end, globalTid
    if (!validInterval(row)) return std::nullopt;
    return LaneKey{LaneKind::OsRuntime, row.i64(2)};
}

std::optional<LaneKey> streamLane(const SqliteStmt& row) {  // start, end, globalPid, deviceId, streamId, contextId
    if (!validInterval(row)) return std::nullopt;
    return LaneKey{LaneKind::GpuStream, row.i64(2), row.i64(3), row.isNull(4) ? -1 : row.i64(4),
                   row.isNull(5) ? -1 : row.i64(5)};
}

struct Table {
    const char* name;
    std::vector<std::string> columns, required;
    LaneOfRow lane;
};

// The windows' lanes of one table, added to `found`.
void sampleTable(const SqliteDb& db, const Table& table, std::vector<LaneKey>& found) {
    if (!db.hasTable(table.name)) return;
    const auto sql = selectByName(db, table.name, table.columns, table.required);
    if (!sql) return;
    const std::string from = std::string(" FROM \"") + table.name + "\")";
    SqliteStmt range(db, "SELECT (SELECT min(rowid)" + from + ", (SELECT max(rowid)" + from);
    if (!range.step() || range.isNull(0) || range.i64(1) < range.i64(0)) return;
    const int64_t lo = range.i64(0);
    const uint64_t last = uint64_t(range.i64(1)) - uint64_t(lo);  // rowids as offsets from lo
    const bool whole = last < kWindows * kWindowRows;             // a small table is read whole
    for (uint64_t w = 0; w < (whole ? 1 : kWindows); ++w) {
        SqliteStmt rows(db, *sql + " WHERE rowid BETWEEN ?1 AND ?2");
        if (!rows.prepared()) return;
        const uint64_t first = last / kWindows * w;
        rows.bind(1, int64_t(uint64_t(lo) + first));
        rows.bind(2, int64_t(uint64_t(lo) + (whole ? last : first + kWindowRows - 1)));
        while (rows.step())
            if (const auto lane = table.lane(rows)) found.push_back(*lane);
        if (!rows.ok()) return;
    }
}

}  // namespace

std::vector<LaneKey> sampledLanes(const SqliteDb& db) {
    // The tables in the order the importer reads them (NsysSqliteImporter, ReadCpuCalls,
    // ReadGpuActivity), each with the columns its reader requires (a table lacking one is skipped).
    const std::vector<std::string> calls = {"start", "end", "globalTid"},
                                   callsRequired = {"start", "end", "globalTid", "nameId"};
    const std::vector<std::string> gpu = {"start", "end", "globalPid", "deviceId", "streamId", "contextId"};
    const std::vector<std::string> gpuRequired = {"start", "end", "deviceId", "streamId"};
    std::vector<std::string> memcpyRequired = gpuRequired;
    memcpyRequired.push_back("copyKind");
    const Table tables[] = {
        {"NVTX_EVENTS", {"start", "end", "globalTid", "eventType"}, {"start", "eventType", "globalTid"}, nvtxLane},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", calls, callsRequired, cudaApiLane},
        {"CUPTI_ACTIVITY_KIND_DRIVER", calls, callsRequired, cudaApiLane},
        {"OSRT_API", calls, callsRequired, osRuntimeLane},
        {"CUPTI_ACTIVITY_KIND_KERNEL", gpu, gpuRequired, streamLane},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", gpu, memcpyRequired, streamLane},
        {"CUPTI_ACTIVITY_KIND_MEMSET", gpu, gpuRequired, streamLane},
    };
    const auto order = [](const LaneKey& a, const LaneKey& b) {
        return std::tie(a.kind, a.owner, a.device, a.stream, a.context) <
               std::tie(b.kind, b.owner, b.device, b.stream, b.context);
    };
    std::vector<LaneKey> lanes;
    for (const Table& table : tables) {
        std::vector<LaneKey> found;
        sampleTable(db, table, found);
        std::sort(found.begin(), found.end(), order);
        found.erase(std::unique(found.begin(), found.end()), found.end());
        for (const LaneKey& key : found)
            if (std::find(lanes.begin(), lanes.end(), key) == lanes.end()) lanes.push_back(key);
    }
    return lanes;
}

}  // namespace lanescope::nsys
