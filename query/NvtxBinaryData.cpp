#include "query/NvtxBinaryData.h"

#include "model/NvtxPayload.h"

namespace lanescope::sql {
namespace {

void appendU64(std::vector<uint8_t>& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> nvtxBinaryData(const Report& report, uint32_t lane, uint32_t event, bool mark) {
    std::vector<uint8_t> blob;
    const auto rows = nvtxPayloadRows(report, lane, event, mark);
    if (rows.empty()) return blob;
    appendU64(blob, rows.size());
    uint64_t offset = 8 + 24 * uint64_t(rows.size());  // the first payload's bytes follow the header
    for (const NvtxPayloadRow& row : rows) {
        const uint64_t size = nvtxPayloadBytes(report, row).size();
        appendU64(blob, row.schema_id);
        appendU64(blob, size);
        appendU64(blob, offset);
        offset += size;
    }
    for (const NvtxPayloadRow& row : rows) {
        const auto bytes = nvtxPayloadBytes(report, row);
        blob.insert(blob.end(), bytes.begin(), bytes.end());
    }
    return blob;
}

}  // namespace lanescope::sql
