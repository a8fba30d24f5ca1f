#pragma once
#include "importers/Importer.h"

namespace lanescope {

// Nsight Systems SQLite exports (`nsys export --type=sqlite`), every schema from 2021 on:
// tables are read by column name and only when present.
class NsysSqliteImporter final : public Importer {
public:
    std::string_view formatName() const override { return "nsys-sqlite"; }
    bool canRead(std::string_view head, const std::filesystem::path& path) const override;
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop) const override;
    // The same, with the report's metadata (its skeletons' too) adjusted by `describe` once read:
    // a converted .nsys-rep names its own file and format.
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop, const std::function<void(Metadata&)>& describe) const;
    MemoryEstimate estimateMemory(const std::filesystem::path& path) const override;
};

}  // namespace lanescope
