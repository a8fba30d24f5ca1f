#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "importers/Importer.h"
#include "importers/cache/ModelFile.h"
#include "model/Report.h"

namespace lanescope {

// Finished reports kept on disk, so that a file opened before reopens from its model in a
// fraction of its import (docs/report-cache.md). One model file (cache/ModelFile.h) per entry,
// named by its key: the file's content, Lanescope's version and build, the model format and how the
// model was made. The folder is the user's alone (made 0700, entries 0600) and bounded:
// storing drops the least recently used entries (loading counts as a use) until the total
// fits. A damaged or stale entry is deleted and said why, never used. Several processes may
// share the folder: an entry appears whole (written aside, then renamed), and a reader keeps
// reading an entry deleted under it.
class ReportCache {
public:
    static constexpr uint64_t kDefaultMaxBytes = uint64_t{4} << 30;
    static constexpr int64_t kDefaultRacyNs = 2'000'000'000;

    // `dir` empty: defaultCacheDir() / "models" (~/.cache/lanescope/models). `racy_ns`: how
    // long after its last change a file's content hash is noted for keyFor()
    // (cache/ContentNotes.h); other than the default, for tests.
    explicit ReportCache(std::filesystem::path dir = {}, uint64_t max_bytes = kDefaultMaxBytes,
                         int64_t racy_ns = kDefaultRacyNs);

    // False when the environment has LANESCOPE_CACHE=off: callers then neither load nor store.
    static bool enabled();

    // The content part of a key is hashed in blocks of this, on several threads.
    static constexpr uint64_t kKeyBlockBytes = uint64_t{16} << 20;

    // What shapes a model beyond the file's content, for its key: the reader (and the nsys it
    // runs, `nsysPath`), and whether the viewer's NVTX-on-GPU lanes were added. "native",
    // "nsys-export:<nsysPath>", each with "+view-lanes" for the viewer's.
    static std::string variant(NsysReader reader, const std::string& nsysPath, bool viewLanes);

    // The key of `file`'s model made the way `variant` says (whatever shaped the model beyond
    // the file, such as "native+view-lanes"): "<contentHash>-<size>-<Lanescope
    // version>+<XXH64 of the running executable>-m<model format>-<hash of the variant>", in hex.
    // Reads the whole file (contentHash). nullopt when it cannot be read or `stop` is requested.
    static std::optional<std::string> key(const std::filesystem::path& file, std::string_view variant,
                                          std::stop_token stop = {});
    // key(), reading the file only when it changed since its content hash was noted in this
    // cache's folder (cache/ContentNotes.h): a file unchanged since then (same device, inode,
    // size, modification and change times, the times older than the note by racy_ns) takes
    // its noted hash; any other is hashed and noted. What the viewer uses.
    std::optional<std::string> keyFor(const std::filesystem::path& file, std::string_view variant,
                                      std::stop_token stop = {}) const;
    // The content part of key(): the file cut into blocks of `block_bytes` (the last one
    // shorter), each hashed with XXH64 on one of `threads` threads (0: every core; each reads
    // its blocks with pread), then the XXH64 of the blocks' digests in order, as 8-byte
    // little-endian words (of no bytes for an empty file). `size` gets the file's size. nullopt
    // when it cannot be read whole or `stop` is requested. `block_bytes` other than
    // kKeyBlockBytes: for tests.
    static std::optional<uint64_t> contentHash(const std::filesystem::path& file, uint64_t& size,
                                               std::stop_token stop = {}, uint64_t block_bytes = kKeyBlockBytes,
                                               unsigned threads = 0);

    // The report stored under `key`, its meta.source_path set to `source` (the file opened
    // now), or nullptr. An entry that cannot be used (damaged, stale, broken) is deleted and
    // `why` says why in one line; `why` is empty on a hit, on a miss and when stopped. Read and
    // checked on `threads` threads (0: every core). `onSkeleton`, when given, is called once on
    // this thread, before the events are read, with the report's rows (its metadata, source_path
    // set too, strings, processes, threads, GPUs, and lanes with their kind, names and owners but
    // no events), as ImportOptions::on_skeleton gives them; not called when the entry fails
    // before that, and the load may still fail after it.
    std::unique_ptr<Report> load(const std::string& key, const std::filesystem::path& source, std::string& why,
                                 std::stop_token stop = {}, unsigned threads = 0,
                                 const std::function<void(std::shared_ptr<const Report>)>& onSkeleton = {}) const;

    // Stores `report` under `key`, with the `replaced` lanes in place of its own (the deferred
    // lanes built by then: cache/ModelFile.h), then drops the least recently used entries until
    // the folder holds at most maxBytes(). False with a one-line reason in `error` when it is not
    // stored (larger than the bound on its own, no space, a read-only folder, ...); never throws.
    bool store(const Report& report, const std::string& key, std::string& error,
               const cache::LaneReplacements& replaced = {}) const;

    // Results computed from the report under `key` and kept beside its entry, such as the
    // Statistics panel's whole-report summaries: bytes the caller encodes, named by `name`
    // (letters, digits, '_' and '-'), at most kMaxResultBytes. Stored whole or not at all, with a
    // checksum; they count in the bound and go with their entry (or, with none, when they are
    // the least recently used). False with a one-line reason when not stored; never throws.
    static constexpr uint64_t kMaxResultBytes = uint64_t{64} << 20;
    bool storeResult(const std::string& key, std::string_view name, std::string_view bytes, std::string& error) const;
    // The bytes stored by storeResult(key, name), or nullopt; a damaged file is deleted.
    std::optional<std::string> loadResult(const std::string& key, std::string_view name) const;

    const std::filesystem::path& dir() const { return dir_; }
    uint64_t maxBytes() const { return maxBytes_; }
    // The file of the entry under `key`, whether it exists or not.
    std::filesystem::path entryPath(const std::string& key) const;

    // The file of the result `name` of the entry under `key`: "<entry's file name>.<name>.result".
    std::filesystem::path resultPath(const std::string& key, std::string_view name) const;

private:
    void dropLeastRecentlyUsed() const;
    bool writeAside(const std::string& key, const std::filesystem::path& target,
                    const std::function<bool(int fd, std::string& error)>& write, std::string& error) const;

    std::filesystem::path dir_;
    uint64_t maxBytes_;
    int64_t racyNs_;
};

}  // namespace lanescope
