#pragma once
// Before an import: how much memory the report will take, and how much the machine can give,
// so that a file that would not fit is refused with a message instead of by the OOM killer.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "importers/Importer.h"

namespace lanescope {

// What an import of one file is expected to need at its peak, from a quick look at the file
// (never a full read): event rows counted or extrapolated from a sample, times the bytes an
// event takes while importing, plus a fixed allowance for buffers.
struct MemoryEstimate {
    uint64_t file_bytes = 0;
    uint64_t events = 0;        // rows of the event tables, or events extrapolated from a sample
    uint64_t needed_bytes = 0;  // 0 when the content gave no estimate (then nothing is refused)
};

// The estimate for `path`, whose content the importer named `format` recognised
// ("nsys-sqlite", "kineto-json", "perfetto"; others get no estimate).
MemoryEstimate estimateImportMemory(const std::filesystem::path& path, std::string_view format);

// Bytes this import may take: options.memory_limit_bytes when set, else LANESCOPE_MEMORY_LIMIT_MB
// when set, else MemAvailable of /proc/meminfo, lowered to what this process's cgroup still
// allows. 0 when unknown.
uint64_t availableMemory(const ImportOptions& options);

// "3.1 GB", "820 MB", "12 KB": decimal units, two significant digits below 10.
std::string humanBytes(uint64_t bytes);

// A TooBig error naming `shown` when `path` (read as `format`) needs more than is available.
std::optional<ImportError> refuseIfTooBig(const std::filesystem::path& path, std::string_view format,
                                          const ImportOptions& options, const std::filesystem::path& shown);

}  // namespace lanescope
