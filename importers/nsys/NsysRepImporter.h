#pragma once
#include "importers/Importer.h"

namespace lanescope {

// .nsys-rep / .qdrep reports: converted by the installed `nsys export --type=sqlite` into a
// per-user cache keyed by the report's content, then read by NsysSqliteImporter.
class NsysRepImporter final : public Importer {
public:
    std::string_view formatName() const override { return "nsys-rep"; }
    bool canRead(std::string_view head, const std::filesystem::path& path) const override;
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options,
                        ProgressSink& progress, std::stop_token stop) const override;
};

}  // namespace lanescope
