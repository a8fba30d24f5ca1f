#include "model/NvtxPayload.h"

#include <algorithm>
#include <tuple>

#include "model/Report.h"

namespace lanescope {
namespace {

// The registration of `id` in `domain` by `process`, else the domain's first of that id.
template <typename Registration>
const Registration* findRegistration(const Column<Registration>& all, uint32_t domain, int32_t process, uint64_t id) {
    const Registration* any = nullptr;
    for (const Registration& r : all) {
        if (r.schema_id != id || r.domain_name_id != domain) continue;
        if (r.process == process) return &r;
        if (!any) any = &r;
    }
    return any;
}

}  // namespace

size_t NvtxPayloads::memoryBytes() const {
    return schemas.capacity() * sizeof(NvtxPayloadSchema) + entries.capacity() * sizeof(NvtxPayloadEntry) +
           enums.capacity() * sizeof(NvtxPayloadEnum) + enum_values.capacity() * sizeof(NvtxPayloadEnumValue) +
           type_info.capacity() * sizeof(NvtxPayloadTypeInfo) + registered_strings.capacity() * sizeof(uint32_t) +
           bytes.capacity() + rows.capacity() * sizeof(NvtxPayloadRow);
}

std::span<const NvtxPayloadRow> nvtxPayloadRows(const Report& report, uint32_t lane, uint32_t event, bool mark) {
    const auto& rows = report.nvtx_payloads.rows;
    const auto key = std::tuple(lane, mark, event);
    auto keyOf = [](const NvtxPayloadRow& r) { return std::tuple(r.lane, r.mark, r.event); };
    const auto first = std::lower_bound(rows.begin(), rows.end(), key,
                                        [&](const NvtxPayloadRow& r, const auto& k) { return keyOf(r) < k; });
    auto last = first;
    while (last != rows.end() && keyOf(*last) == key) ++last;
    return {rows.data() + (first - rows.begin()), size_t(last - first)};
}

std::span<const uint8_t> nvtxPayloadBytes(const Report& report, const NvtxPayloadRow& row) {
    const auto& bytes = report.nvtx_payloads.bytes;
    if (row.offset > bytes.size() || row.length > bytes.size() - row.offset) return {};
    return {bytes.data() + row.offset, row.length};
}

const NvtxPayloadSchema* findNvtxPayloadSchema(const Report& report, uint32_t domain_name_id, int32_t process,
                                               uint64_t schema_id) {
    return findRegistration(report.nvtx_payloads.schemas, domain_name_id, process, schema_id);
}

const NvtxPayloadEnum* findNvtxPayloadEnum(const Report& report, uint32_t domain_name_id, int32_t process,
                                           uint64_t schema_id) {
    return findRegistration(report.nvtx_payloads.enums, domain_name_id, process, schema_id);
}

}  // namespace lanescope
