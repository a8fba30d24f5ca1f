#include "importers/nsys/NvtxPayloadStaging.h"
#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE).
constexpr int64_t kMark = 34, kPushPop = 59, kStartEnd = 60, kDomainCreate = 75;
constexpr int64_t kCategory = 33, kThreadName = 39;
enum Col { Start, End, Type, Text, TextId, Tid, Domain, Color, Category, BinaryData };

}  // namespace

std::optional<ImportError> readNvtx(ImportContext& ctx) {
    const ReportBuilder& builder = ctx.builder;
    return scanEventTable(
        ctx, "NVTX_EVENTS",
        {"start", "end", "eventType", "text", "textId", "globalTid", "domainId", "color", "category", "binaryData"},
        {"start", "eventType", "globalTid"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            const int64_t type = row.i64(Type);
            // Each column is read once, NULL told apart in the same call:
            // this runs millions of times.
            auto name = [&] {
                if (const auto text = row.textOrNull(Text)) return chunk.localString(*text);
                if (const auto id = row.i64OrNull(TextId)) return nameOf(builder, chunk, *id);
                return 0u;
            };
            // Every row not held by a lane keeps its start, for the ranges' ids.
            const int64_t start = row.i64(Start);
            auto other = [&] {
                chunk.noteNvtx(start, row.i64(Tid), NvtxHolder::Other);
                chunk.nvtxOtherStarts.push_back(start);
            };
            // A name given as textId alone is a registered string.
            const bool registered = row.isNull(Text) && !row.isNull(TextId);
            if (type == kDomainCreate || type == kCategory || type == kThreadName) {
                chunk.domains.push_back({row.i64(Domain), name(), start, row.i64(Tid),
                                         static_cast<uint16_t>(type == kDomainCreate ? 0 : type),
                                         static_cast<uint32_t>(row.i64(Category)), registered});
                other();
                return;
            }
            const bool range = type == kPushPop || type == kStartEnd;
            if (!range && type != kMark) {
                countDiagnostic(chunk.diagnostics, Diag::NvtxUnsupportedEventType);
                other();
                return;
            }
            NvtxInfo info;
            const auto color = row.i64OrNull(Color);
            info.has_color = color.has_value();
            info.color = static_cast<uint32_t>(color.value_or(0));
            info.domain_name_id = static_cast<uint32_t>(row.i64(Domain));
            info.category = static_cast<uint32_t>(row.i64(Category));
            info.start_end = type == kStartEnd;
            info.registered_name = registered;
            const LaneKey key{info.start_end ? LaneKind::NvtxStartEnd : LaneKind::Nvtx, row.i64(Tid)};
            // An event carrying extended payloads (an export made with
            // --include-blobs=true) has an NvtxInfo row of its own, by which
            // finishReport finds its payloads.
            const auto blob = row.blobOrNull(BinaryData);
            auto nvtxRow = [&] {
                if (!blob) return chunk.nvtxRow(info);
                const uint32_t own = chunk.ownNvtxRow(info);
                addExportPayloads(chunk, own, *blob);
                return own;
            };
            if (!validTime(chunk, start)) {
                other();
                return;
            }
            if (!range) {
                chunk.noteNvtx(start, row.i64(Tid), NvtxHolder::Mark);
                StagingInstants& in = chunk.lane(key).instants;
                const uint32_t label = name();
                in.append(start, label, nvtxRow());
                return;
            }
            const auto endOrNull = row.i64OrNull(End);
            if (!endOrNull) {
                countDiagnostic(chunk.diagnostics, Diag::NvtxRangeWithoutEnd);
                other();
                return;
            }
            const int64_t end = *endOrNull;
            if (!validTime(chunk, end)) {
                other();
                return;
            }
            if (end < start) {
                countDiagnostic(chunk.diagnostics, Diag::NegativeDuration);
                other();
                return;
            }
            chunk.noteNvtx(start, row.i64(Tid), NvtxHolder::Range);
            pushInterval(chunk, key, start, end, name(), EventKind::NvtxRange, nvtxRow());
        });
}

}  // namespace lanescope::nsys
