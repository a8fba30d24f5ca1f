#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE).
constexpr int64_t kMark = 34, kPushPop = 59, kStartEnd = 60, kDomainCreate = 75;
constexpr int64_t kCategory = 33, kThreadName = 39;
enum Col { Start, End, Type, Text, TextId, Tid, Domain, Color, Category };

}  // namespace

std::optional<ImportError> readNvtx(ImportContext& ctx) {
    const ReportBuilder& builder = ctx.builder;
    return scanEventTable(ctx, "NVTX_EVENTS",
                          {"start", "end", "eventType", "text", "textId", "globalTid", "domainId", "color", "category"},
                          {"start", "eventType", "globalTid"}, [&](const SqliteStmt& row, EventChunk& chunk) {
                              const int64_t type = row.i64(Type);
                              auto name = [&] {
                                  if (!row.isNull(Text)) return chunk.localString(row.text(Text));
                                  if (!row.isNull(TextId)) return nameOf(builder, chunk, row.i64(TextId));
                                  return 0u;
                              };
                              // Every row not held by a lane keeps its start, for the ranges' ids.
                              const int64_t start = row.i64(Start);
                              if (type == kDomainCreate) {
                                  chunk.domainNames.emplace_back(row.i64(Domain), name());
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              if (type == kCategory || type == kThreadName) {
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              const bool range = type == kPushPop || type == kStartEnd;
                              if (!range && type != kMark) {
                                  countDiagnostic(chunk.diagnostics, Diag::NvtxUnsupportedEventType);
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              NvtxInfo info;
                              info.has_color = !row.isNull(Color);
                              info.color = static_cast<uint32_t>(row.i64(Color));
                              info.domain_name_id = static_cast<uint32_t>(row.i64(Domain));
                              info.category = static_cast<uint32_t>(row.i64(Category));
                              info.start_end = type == kStartEnd;
                              const LaneKey key{info.start_end ? LaneKind::NvtxStartEnd : LaneKind::Nvtx, row.i64(Tid)};
                              if (!validTime(chunk, start)) {
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              if (!range) {
                                  PendingInstants& in = chunk.lane(key).instants;
                                  in.time_ns.push_back(start);
                                  in.name_id.push_back(name());
                                  in.payload.push_back(chunk.nvtxRow(info));
                                  return;
                              }
                              // Each column is read once: this loop runs millions of times.
                              if (row.isNull(End)) {
                                  countDiagnostic(chunk.diagnostics, Diag::NvtxRangeWithoutEnd);
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              const int64_t end = row.i64(End);
                              if (!validTime(chunk, end)) {
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              if (end < start) {
                                  countDiagnostic(chunk.diagnostics, Diag::NegativeDuration);
                                  chunk.nvtxOtherStarts.push_back(start);
                                  return;
                              }
                              pushInterval(chunk, key, start, end, name(), EventKind::NvtxRange, chunk.nvtxRow(info));
                          });
}

}  // namespace lanescope::nsys
