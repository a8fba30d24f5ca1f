#include "importers/nsys/NvtxPayloadStaging.h"

#include <algorithm>

namespace lanescope::nsys {
namespace {

constexpr uint64_t kRegisteredStringType = 80;

uint64_t blobU64(std::span<const uint8_t> blob, size_t at) {
    uint64_t v = 0;
    for (size_t k = 8; k-- > 0;) v = (v << 8) | blob[at + k];
    return v;
}

}  // namespace

uint32_t EventChunk::ownNvtxRow(const NvtxInfo& info) {
    NvtxKey key = NvtxKey::of(info);
    key.own = true;
    nvtx.push_back(info);
    nvtxKeys.push_back(key);
    return static_cast<uint32_t>(nvtx.size() - 1);
}

void EventChunk::addPayload(uint32_t nvtxRow, uint64_t schemaId, std::span<const uint8_t> bytes) {
    const auto length = static_cast<uint32_t>(std::min<size_t>(bytes.size(), UINT32_MAX));
    payloads.push_back({nvtxRow, length, schemaId, payloadBytes.size()});
    payloadBytes.insert(payloadBytes.end(), bytes.begin(), bytes.begin() + length);
}

void mergePayloads(const EventChunk& chunk, const std::vector<uint32_t>& nvtxToGlobal, NvtxPayloads& into) {
    const uint64_t base = into.bytes.size();
    into.bytes.insert(into.bytes.end(), chunk.payloadBytes.begin(), chunk.payloadBytes.end());
    for (const PendingPayload& p : chunk.payloads) {
        NvtxPayloadRow row;
        row.nvtx = nvtxToGlobal[p.nvtx];
        row.schema_id = p.schema_id;
        row.offset = base + p.offset;
        row.length = p.length;
        into.rows.push_back(row);
    }
}

void addExportPayloads(EventChunk& chunk, uint32_t nvtxRow, std::span<const uint8_t> blob) {
    constexpr size_t kEntry = 24;
    const uint64_t count = blob.size() >= 8 ? blobU64(blob, 0) : 0;
    const bool tableFits = blob.size() >= 8 && count <= (blob.size() - 8) / kEntry;
    bool fits = tableFits && count > 0;
    for (uint64_t i = 0; fits && i < count; ++i) {
        const size_t at = 8 + size_t(i) * kEntry;
        const uint64_t size = blobU64(blob, at + 8), offset = blobU64(blob, at + 16);
        fits = offset <= blob.size() && size <= blob.size() - offset;
    }
    if (!fits) return chunk.addPayload(nvtxRow, 0, blob);
    for (uint64_t i = 0; i < count; ++i) {
        const size_t at = 8 + size_t(i) * kEntry;
        chunk.addPayload(nvtxRow, blobU64(blob, at),
                         blob.subspan(size_t(blobU64(blob, at + 16)), size_t(blobU64(blob, at + 8))));
    }
}

void mapRegisteredStrings(const ReportBuilder& builder, uint64_t recordedStrings, NvtxPayloads& payloads) {
    const bool used = std::any_of(payloads.entries.begin(), payloads.entries.end(),
                                  [](const NvtxPayloadEntry& e) { return e.type == kRegisteredStringType; });
    if (!used) return;
    payloads.registered_strings.resize(size_t(recordedStrings));
    for (uint64_t id = 0; id < recordedStrings; ++id) {
        const uint32_t s = builder.string(int64_t(id));
        payloads.registered_strings[size_t(id)] = s != UINT32_MAX ? s : kNoRegisteredString;
    }
}

}  // namespace lanescope::nsys
