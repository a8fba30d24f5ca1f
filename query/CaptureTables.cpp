#include "query/CaptureTables.h"

#include "query/FunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

}  // namespace

void addCaptureTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    const Report& r = report;
    auto keptFiles = [&r] { return uint32_t(r.process_streams.size()); };
    // ProcessStreams: the kept files in the report's order, names and contents as string ids.
    tables.push_back(std::make_unique<FunctionTable>(
        "ProcessStreams", std::vector<ColumnDef>{{"globalPid", I}, {"filenameId", I}, {"contentId", I}}, keptFiles,
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const ProcessStream& s = r.process_streams[row];
            if (column == 0) return resultInt(ctx, s.global_pid);
            resultStringId(ctx, r, column == 1 ? s.filename_id : s.content_id);
        }));
    // ANALYSIS_FILE: the same files numbered from 0, the name as text.
    tables.push_back(std::make_unique<FunctionTable>(
        "ANALYSIS_FILE", std::vector<ColumnDef>{{"id", I}, {"filename", T}, {"contentId", I}, {"globalPid", I}},
        keptFiles,
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const ProcessStream& s = r.process_streams[row];
            switch (column) {
                case 0:
                    return resultInt(ctx, row);
                case 1:
                    return resultText(ctx, r.str(s.filename_id));
                case 2:
                    return resultStringId(ctx, r, s.content_id);
                default:
                    return resultInt(ctx, s.global_pid);
            }
        },
        FunctionKey{0, {}}));
    tables.push_back(std::make_unique<FunctionTable>(
        "META_DATA_CAPTURE", std::vector<ColumnDef>{{"name", T}, {"value", T}},
        [&r] { return uint32_t(r.capture_options.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const CaptureOption& o = r.capture_options[row];
            resultText(ctx, r.str(column == 0 ? o.name_id : o.value_id));
        }));
}

}  // namespace lanescope::sql
