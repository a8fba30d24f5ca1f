#pragma once
#include "importers/Importer.h"

namespace lanescope {

// Perfetto protobuf traces (.pftrace, .perfetto-trace): track descriptors (processes,
// threads, named and counter tracks) and track events (slice begin/end, instant, counter)
// with interned names. Read packet by packet; see docs in PerfettoImporter.cpp for the
// mapping onto the model.
class PerfettoImporter final : public Importer {
public:
    std::string_view formatName() const override { return "perfetto"; }
    bool canRead(std::string_view head, const std::filesystem::path& path) const override;
    ImportResult import(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop) const override;
    MemoryEstimate estimateMemory(const std::filesystem::path& path) const override;
};

}  // namespace lanescope
