#pragma once
// The memory policy of imports: how much memory the machine can give, what an estimated number
// of events needs, and the refusal of a file that would not fit, with a message instead of the
// OOM killer. Each importer estimates its own events (Importer::estimateMemory).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "importers/Importer.h"

namespace lanescope {

// The estimate for `events` events of a file of `path`'s size: the model and the import's
// working columns per event, plus buffers. No estimate when the file cannot be measured.
MemoryEstimate estimateFromEvents(const std::filesystem::path& path, uint64_t events);

// Bytes this import may take: options.memory_limit_bytes when set, else LANESCOPE_MEMORY_LIMIT_MB
// when set, else MemAvailable of /proc/meminfo, lowered to what this process's cgroup still
// allows. 0 when unknown.
uint64_t availableMemory(const ImportOptions& options);

// "3.1 GB", "820 MB", "12 KB": decimal units, two significant digits below 10.
std::string humanBytes(uint64_t bytes);

// A TooBig error naming `shown` when `estimate` needs more than is available. With several
// reports opened together (options.memory_promised) the estimate is taken from what the others
// left, and promised when let in.
std::optional<ImportError> refuseIfTooBig(const MemoryEstimate& estimate, const ImportOptions& options,
                                          const std::filesystem::path& shown);

}  // namespace lanescope
