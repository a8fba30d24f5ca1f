#pragma once
#include "importers/Importer.h"

namespace lanescope {

// .nsys-rep / .qdrep reports: read natively (importers/nsysrep), or, when the user asks for it
// (ImportOptions::nsys_reader), converted by the installed `nsys export --type=sqlite` into a
// per-user cache keyed by the report's content, then read by NsysSqliteImporter.
class NsysRepImporter final : public Importer {
public:
    std::string_view formatName() const override { return "nsys-rep"; }
    bool canRead(std::string_view head, const std::filesystem::path& path) const override;
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop) const override;
    MemoryEstimate estimateMemory(const std::filesystem::path& path) const override;

private:
    ImportResult importThroughNsys(const std::filesystem::path& path, const ImportOptions& options,
                                   ProgressSink& progress, std::stop_token stop) const;
};

}  // namespace lanescope
