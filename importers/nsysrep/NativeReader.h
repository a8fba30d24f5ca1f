#pragma once
#include <filesystem>
#include <stop_token>

#include "importers/Importer.h"

namespace lanescope::nsysrep {

// Reads an .nsys-rep/.qdrep file itself, without Nsight Systems: the same report as the SQLite
// importer gives from `nsys export` of the file (docs/nsys-rep-format.md says what is read and
// from where). Blocks are inflated and decoded on options.threads workers, each a contiguous run
// of blocks, merged in file order. Damage gives a Corrupt error naming what and where.
ImportResult importNative(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                          std::stop_token stop);

// The memory an import needs: the events the index counts, without reading them.
MemoryEstimate estimateNative(const std::filesystem::path& path);

// The Nsight Systems version that recorded the report ("2025.3.1.0"), empty when unknown.
std::string recordedVersion(const std::filesystem::path& path);

}  // namespace lanescope::nsysrep
