#include "importers/perfetto/PerfettoSliceDetails.h"

#include <limits>

#include "model/EventDetails.h"

namespace lanescope {
namespace {

const std::string* find(const SliceAnnotations& annotations, std::string_view label) {
    for (const auto& [name, value] : annotations)
        if (name == label) return &value;
    return nullptr;
}

// The integers in `text` in order, thousands separators skipped: "16,777,216 B (16.78 MB)"
// gives 16777216, 16, 78; "128 × 1 × 1" gives 128, 1, 1. Values beyond 2^63 are cut there.
std::vector<uint64_t> integers(const std::string* text) {
    std::vector<uint64_t> out;
    if (!text) return out;
    bool in = false;
    for (size_t i = 0; i < text->size(); ++i) {
        const char c = (*text)[i];
        const bool digit = c >= '0' && c <= '9';
        const bool separator = in && c == ',' && i + 1 < text->size() && (*text)[i + 1] >= '0' && (*text)[i + 1] <= '9';
        if (separator) continue;
        if (!digit) {
            in = false;
            continue;
        }
        if (!in) out.push_back(0);
        in = true;
        uint64_t& v = out.back();
        v = v > (uint64_t{1} << 59) ? uint64_t{1} << 63 : v * 10 + uint64_t(c - '0');
    }
    return out;
}

uint64_t firstInteger(const std::string* text) {
    const std::vector<uint64_t> v = integers(text);
    return v.empty() ? 0 : v.front();
}

template <typename T>
T narrow(uint64_t v) {
    return v > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : static_cast<T>(v);
}

// The value whose label is `text`, among 0..count-1; `fallback` when none is.
template <typename Label>
uint8_t valueOfLabel(const std::string* text, Label label, int count, uint8_t fallback) {
    if (!text) return fallback;
    for (int v = 0; v < count; ++v)
        if (*text == label(static_cast<uint8_t>(v))) return static_cast<uint8_t>(v);
    return fallback;
}

CopyKind copyKindOf(const std::string* text) {
    return CopyKind(valueOfLabel(text, [](uint8_t v) { return copyKindLabel(CopyKind(v)); }, 14, 0));
}

MemKind memKindOf(const std::string* text) {
    return MemKind(valueOfLabel(text, [](uint8_t v) { return memKindLabel(MemKind(v)); }, 8, uint8_t(MemKind::Unknown)));
}

// The text of the annotations named `labels`, joined: the key of a shared row.
std::string keyOf(const SliceAnnotations& annotations, std::initializer_list<std::string_view> labels) {
    std::string key;
    for (std::string_view label : labels) {
        if (const std::string* v = find(annotations, label)) key += *v;
        key += '\x1F';
    }
    return key;
}

}  // namespace

uint32_t SliceDetailsReader::payload(EventKind kind, const SliceAnnotations& a) {
    const auto correlation = narrow<uint32_t>(firstInteger(find(a, "Correlation id")));
    auto row = [](const auto& table) { return static_cast<uint32_t>(table.size() - 1); };
    switch (kind) {
        case EventKind::OsRuntimeCall: return kNoPayload;
        case EventKind::CudaApiCall: return find(a, "Correlation id") ? correlation : kNoPayload;
        case EventKind::NvtxRange: return nvtxRow(a);
        case EventKind::Kernel:
            r_.kernels.push_back({kernelConfig(a), correlation});
            return row(r_.kernels);
        case EventKind::Memcpy:
            r_.memcpys.push_back({firstInteger(find(a, "Bytes")), correlation, copyKindOf(find(a, "Copy kind")),
                                  memKindOf(find(a, "Source memory")), memKindOf(find(a, "Destination memory"))});
            return row(r_.memcpys);
        case EventKind::Memset:
            r_.memsets.push_back({firstInteger(find(a, "Bytes")), correlation,
                                  narrow<uint32_t>(firstInteger(find(a, "Value"))), memKindOf(find(a, "Memory kind"))});
            return row(r_.memsets);
        case EventKind::Sync:
            r_.syncs.push_back({correlation, valueOfLabel(find(a, "Type"), syncTypeLabel, 5, 0)});
            return row(r_.syncs);
    }
    return kNoPayload;
}

uint32_t SliceDetailsReader::kernelConfig(const SliceAnnotations& a) {
    const std::string key = keyOf(a, {"Grid", "Block", "Registers/thread", "Static shared memory",
                                      "Dynamic shared memory", "Local memory/thread", "Launch type", "Short name"});
    auto [it, added] = configs_.try_emplace(key, static_cast<uint32_t>(r_.kernel_configs.size()));
    if (!added) return it->second;
    KernelConfig c;
    const std::vector<uint64_t> grid = integers(find(a, "Grid")), block = integers(find(a, "Block"));
    for (size_t d = 0; d < 3; ++d) {
        if (d < grid.size()) c.grid[d] = narrow<uint32_t>(grid[d]);
        if (d < block.size()) c.block[d] = narrow<uint16_t>(block[d]);
    }
    c.registers_per_thread = narrow<uint16_t>(firstInteger(find(a, "Registers/thread")));
    c.static_shared_bytes = narrow<uint32_t>(firstInteger(find(a, "Static shared memory")));
    c.dynamic_shared_bytes = narrow<uint32_t>(firstInteger(find(a, "Dynamic shared memory")));
    c.local_bytes_per_thread = narrow<uint32_t>(firstInteger(find(a, "Local memory/thread")));
    c.launch_type = valueOfLabel(find(a, "Launch type"), launchTypeLabel, 4, 0);
    if (const std::string* name = find(a, "Short name")) c.short_name_id = r_.strings.intern(*name);
    r_.kernel_configs.push_back(c);
    return it->second;
}

uint32_t SliceDetailsReader::nvtxRow(const SliceAnnotations& a) {
    const std::string key = keyOf(a, {"Domain", "Color", "Category", "Style"});
    auto [it, added] = nvtx_.try_emplace(key, static_cast<uint32_t>(r_.nvtx.size()));
    if (!added) return it->second;
    NvtxInfo n;
    const std::string* domain = find(a, "Domain");
    if (domain && *domain != "default") n.domain_name_id = r_.strings.intern(*domain);
    const std::string* color = find(a, "Color");
    if (color && color->size() == 7 && (*color)[0] == '#') {
        try {
            size_t used = 0;
            const unsigned long rgb = std::stoul(color->substr(1), &used, 16);
            if (used == 6) {
                n.color = 0xFF000000u | static_cast<uint32_t>(rgb);
                n.has_color = true;
            }
        } catch (const std::exception&) {  // not hexadecimal: the default colour
        }
    }
    n.category = narrow<uint32_t>(firstInteger(find(a, "Category")));
    const std::string* style = find(a, "Style");
    n.start_end = style && *style == "start/end";
    r_.nvtx.push_back(n);
    return it->second;
}

}  // namespace lanescope
