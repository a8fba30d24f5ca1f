// The memory policy: bytes an event takes while importing, what is available, the refusal of a
// file that would not fit. The bytes per event are measured peaks (docs/robustness.md, "Memory").
#include "importers/MemoryEstimate.h"

#include <array>
#include <cstdio>
#include <system_error>

namespace lanescope {
namespace {

// Peak bytes of the import per event, the model and the import's working columns together
// (measured: 48 B for 2.2 M NVTX ranges from SQLite, 51 B for a 2.3 M-event Kineto trace).
constexpr uint64_t kBytesPerEvent = 56;
// Buffers whatever the size: SQLite's page cache, the JSON reader's blocks, the string pool.
constexpr uint64_t kFixedBytes = 32ull << 20;

}  // namespace

MemoryEstimate estimateFromEvents(const std::filesystem::path& path, uint64_t events) {
    MemoryEstimate estimate;
    std::error_code ec;
    estimate.file_bytes = std::filesystem::file_size(path, ec);
    if (ec || estimate.file_bytes == 0) return {};
    estimate.events = events;
    estimate.needed_bytes = kFixedBytes + events * kBytesPerEvent;
    return estimate;
}

std::string humanBytes(uint64_t bytes) {
    constexpr std::array units = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    double value = static_cast<double>(bytes);
    size_t unit = 0;
    while (value >= 1000 && unit + 1 < units.size()) {
        value /= 1000;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return text;
}

namespace {

// "about 52.3 million events", "about 4120 events".
std::string aboutEvents(uint64_t events) {
    char text[48];
    if (events >= 1000000)
        std::snprintf(text, sizeof text, "about %.1f million events", static_cast<double>(events) / 1e6);
    else
        std::snprintf(text, sizeof text, "about %llu events", static_cast<unsigned long long>(events));
    return text;
}

}  // namespace

std::optional<ImportError> refuseIfTooBig(const MemoryEstimate& estimate, const ImportOptions& options,
                                          const std::filesystem::path& shown) {
    const uint64_t available = availableMemory(options);
    if (available == 0) return std::nullopt;
    // Alone: compared with what is available. Opened with others: with what their estimates
    // left, taking this one's share at once so that two imports never count the same bytes.
    uint64_t promised = options.memory_promised ? options.memory_promised->load() : 0;
    for (;;) {
        const uint64_t left = available > promised ? available - promised : 0;
        if (estimate.needed_bytes > left) {
            const std::string others = promised ? " (of " + humanBytes(available) +
                                                      ", the other reports being opened take about " +
                                                      humanBytes(promised) + ")"
                                                : "";
            return ImportError{
                ImportError::Kind::TooBig,
                shown.string() + ": needs about " + humanBytes(estimate.needed_bytes) + " of memory to open (" +
                    humanBytes(estimate.file_bytes) + " file, " + aboutEvents(estimate.events) + "), " +
                    humanBytes(left) + " is available" + others +
                    "; close other programs, raise the limit (LANESCOPE_MEMORY_LIMIT_MB, or File > Memory "
                    "limit for opening in the viewer) or open it on a machine with more memory"};
        }
        if (!options.memory_promised ||
            options.memory_promised->compare_exchange_weak(promised, promised + estimate.needed_bytes))
            return std::nullopt;
    }
}

}  // namespace lanescope
