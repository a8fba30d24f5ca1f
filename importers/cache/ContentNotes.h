#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>

namespace lanescope::cache {

// What stat says of a file, enough to tell that it has not changed since: a write changes its
// size or its modification time, and any change (a write, a rename, `touch -d` setting the
// modification time back) sets its change time, which no user can set.
struct FileIdentity {
    uint64_t device = 0;
    uint64_t inode = 0;
    uint64_t size = 0;        // bytes
    int64_t modified_ns = 0;  // st_mtim, ns since the epoch
    int64_t changed_ns = 0;   // st_ctim, ns since the epoch
    bool operator==(const FileIdentity&) const = default;
};
// The identity of `file` now; nullopt when it cannot be stat'ed.
std::optional<FileIdentity> identityOf(const std::filesystem::path& file);
// The wall clock now, ns since the epoch (the clock of the files' times).
int64_t wallClockNs();

// The content hashes of report files (ReportCache::contentHash), noted in the cache folder so
// that a file unchanged since it was hashed is not read again to find its key (0.3 s for a
// 2.9 GB report here). One small file per report file, named by its device and inode
// ("<hex>.content", 72 bytes with its own checksum), holding the file's identity when hashed, the
// hash and when the hashing began. A note is used only when the file's identity is the same now
// and both its times lie at least `racy_ns` before the hashing began: a file written again in
// the same tick of a coarse file-system clock (1 to 2 s on some) as the one noted could keep
// its times, so a note taken that soon after a change is not trusted and the file is hashed
// again (as git treats "racily clean" files). A damaged note is ignored.
class ContentNotes {
public:
    static constexpr int64_t kDefaultRacyNs = 2'000'000'000;
    // Notes at most this many files: noting one more drops the oldest notes (never the new one).
    static constexpr size_t kMaxNotes = 1024;

    explicit ContentNotes(std::filesystem::path dir, int64_t racy_ns = kDefaultRacyNs)
        : dir_(std::move(dir)), racyNs_(racy_ns) {}

    // The content hash noted for the file with this identity; nullopt when none can be trusted.
    std::optional<uint64_t> find(const FileIdentity& file) const;
    // Notes `hash` as the content of the file that had identity `file` before and after it was
    // read, from `hashed_at_ns` (wallClockNs() before the read began). In a folder that exists;
    // written aside and renamed, so a reader sees a whole note or none. Failures are ignored:
    // the file is then hashed again next time.
    void note(const FileIdentity& file, uint64_t hash, int64_t hashed_at_ns) const;

    std::filesystem::path notePath(const FileIdentity& file) const;

private:
    void dropOldest(const std::filesystem::path& kept) const;

    std::filesystem::path dir_;
    int64_t racyNs_;
};

}  // namespace lanescope::cache
