#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "model/Report.h"

// A finished Report as one binary file that is read back by mapping it, not by parsing: the
// report's columns (Column<T>: the lanes' events and the largest side tables) view the mapping,
// which they keep alive; the other tables are copied out of it (the format: ModelFormat.h,
// docs/report-cache.md). Every field of the report is stored except its DerivedCache, which is
// rebuilt on use.

namespace lanescope::cache {

class FilePlan;

// For each lane index of a report, a lane to write in its place (the same row, with events
// computed after the import: a deferred lane's, model/DeferredLane.h), or nullptr to write the
// report's own. An empty function writes every lane as it is.
using LaneReplacements = std::function<const Lane*(size_t lane)>;

// A report laid out as a model file, its size known before a byte is written, with `replaced`
// lanes written in place of its own. The report and those lanes must outlive the writer,
// unchanged.
class ModelFileWriter {
public:
    explicit ModelFileWriter(const Report& report, const LaneReplacements& replaced = {});
    ~ModelFileWriter();
    ModelFileWriter(const ModelFileWriter&) = delete;
    ModelFileWriter& operator=(const ModelFileWriter&) = delete;

    // The bytes write() writes.
    uint64_t fileBytes() const;
    // Writes the file to `fd`, which must be an empty file open for writing. False with a
    // one-line reason in `error` when a write fails (no space, I/O error) or a string of the
    // report is 4 GiB or longer.
    bool write(int fd, std::string& error) const;

private:
    std::unique_ptr<FilePlan> plan_;
};

// Called once with the report's rows before their events are read (readModelFile).
using SkeletonCallback = std::function<void(std::shared_ptr<Report>)>;

// Reads a model file back: nullptr with a one-line reason in `error` when it is not a model
// file of this build (magic, format version, Lanescope version, byte order, layout), is
// truncated or damaged (sizes, section bounds, checksums), or holds a report that breaks the
// model's invariants (ModelInvariants.h); also when `stop` is requested. Never a partial report.
// Reads and checks on `threads` threads (0: every core). `onSkeleton`, when given, is called
// once on this thread before the columns are read, once the sections the rows are made of
// (metadata, strings, lane records, processes, threads, GPUs) have hashed right and their
// indexes are in range: with a report of its own holding the metadata, the processes, threads
// and GPUs, the lanes with their kind, names and owners but no events (frozen), and the strings
// these name. The load may still fail afterwards (a damaged column).
std::unique_ptr<Report> readModelFile(const std::filesystem::path& path, std::string& error, std::stop_token stop = {},
                                      unsigned threads = 0, const SkeletonCallback& onSkeleton = {});

// Whether a loaded report's model file was found cut short on disk under its mapping since the
// program started (importers/WatchedMappings.h): the report reads zeros past the cut, wrong but
// harmless (every index stays in range). Lanescope never truncates an entry in place; a hand might.
bool aMappedModelWasCutShort();

}  // namespace lanescope::cache
