#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <variant>

#include "importers/ImportError.h"
#include "model/Report.h"

namespace lanescope {

// Receives progress of a long import: a stage name and done/total in stage units
// (total 0 = unknown). Called from worker threads; implementations must be thread-safe.
class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    virtual void progress(std::string_view stage, uint64_t done, uint64_t total) = 0;
};

class NullProgress final : public ProgressSink {
public:
    void progress(std::string_view, uint64_t, uint64_t) override {}
};

// How an .nsys-rep/.qdrep is read: by Lanescope itself (the default), or converted by the
// `nsys export` of an installed Nsight Systems (the fallback a user can ask for).
enum class NsysReader : uint8_t { Native, NsysExport };

struct ImportOptions {
    unsigned threads = 0;             // 0 = hardware concurrency
    std::filesystem::path cache_dir;  // empty = $XDG_CACHE_HOME/lanescope or ~/.cache/lanescope
    NsysReader nsys_reader = NsysReader::Native;
    std::filesystem::path nsys_path;  // empty = LANESCOPE_NSYS, PATH, usual install places
    int nsys_timeout_s = 1800;        // an nsys export taking longer is ended
    uint64_t memory_limit_bytes = 0;  // 0 = what the machine has (see availableMemory)
    // Several reports opened together (importFiles) share memory_limit_bytes: each one let in
    // adds its estimated bytes here, and the next is measured against what the others left.
    std::atomic<uint64_t>* memory_promised = nullptr;
    // Lanes a viewer shows beside the imported ones (NVTX on the GPU): the finishing step runs
    // this on the frozen lanes, once, before the report is handed over and becomes immutable.
    // Empty for the command line, which never shows them.
    std::function<void(Report&)> add_view_lanes;
    // The rows known before the events are read, for a viewer to draw while the rest loads:
    // called from the import's thread with a report of its own holding the metadata (the time
    // span only where the file records one; else begin_ns == end_ns), processes, threads, GPUs
    // and lanes without events, frozen. Called again as more lanes become known; each report
    // handed over is never changed afterwards. Formats that know nothing early never call it.
    // Empty: nobody asks.
    std::function<void(std::shared_ptr<const Report>)> on_skeleton;
};

// Either a report or the reason there is none.
class ImportResult {
public:
    ImportResult(std::unique_ptr<Report> report) : value_(std::move(report)) {}
    ImportResult(ImportError error) : value_(std::move(error)) {}
    bool ok() const { return std::holds_alternative<std::unique_ptr<Report>>(value_); }
    std::unique_ptr<Report>& report() { return std::get<std::unique_ptr<Report>>(value_); }
    const ImportError& error() const { return std::get<ImportError>(value_); }

private:
    std::variant<std::unique_ptr<Report>, ImportError> value_;
};

// What an import of one file is expected to need at its peak, from a quick look at the file
// (never a full read): event rows counted or extrapolated from a sample, times the bytes an
// event takes while importing, plus a fixed allowance for buffers (importers/MemoryEstimate.h).
struct MemoryEstimate {
    uint64_t file_bytes = 0;
    uint64_t events = 0;        // rows of the event tables, or events extrapolated from a sample
    uint64_t needed_bytes = 0;  // 0 when the content gave no estimate (then nothing is refused)
};

// One file format. canRead looks only at the first bytes and the path.
class Importer {
public:
    virtual ~Importer() = default;
    virtual std::string_view formatName() const = 0;
    virtual bool canRead(std::string_view head, const std::filesystem::path& path) const = 0;
    virtual ImportResult import(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                                std::stop_token stop) const = 0;
    // The memory an import of `path` will need (see MemoryEstimate); none by default.
    virtual MemoryEstimate estimateMemory(const std::filesystem::path&) const { return {}; }
};

// Opens any supported file: checks it exists and is not empty, picks the importer from the
// content (then the extension) and runs it.
ImportResult importFile(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop = {});

// The estimate of the importer whose formatName() is `format` ("nsys-sqlite", "kineto-json",
// "perfetto", ...); none for an unknown format.
MemoryEstimate estimateImportMemory(const std::filesystem::path& path, std::string_view format);

}  // namespace lanescope
