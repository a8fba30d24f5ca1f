#pragma once
#include <filesystem>
#include <optional>

namespace lanescope::bench {

// Seconds a bare SQLite aggregate scan of the event rows of an nsys SQLite export takes, on
// one thread, in this process: for each event table the importer reads, `SELECT count(*),
// total(c1), total(c2), ... FROM table` over the columns it reads (for NVTX_EVENTS: start, end,
// globalTid, textId, eventType). The floor an import of the same rows is measured against.
// nullopt when the file is not a SQLite database or holds none of those tables.
std::optional<double> rawScanSeconds(const std::filesystem::path& file);

}  // namespace lanescope::bench
