#include "importers/cache/ContentNotes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <type_traits>
#include <vector>

#include "importers/cache/FastHash.h"

namespace lanescope::cache {
namespace {

constexpr std::string_view kNoteSuffix = ".content";
constexpr char kNoteMagic[8] = {'L', 'S', 'N', 'O', 'T', 'E', '1', '\0'};

// One note as stored, 72 bytes; `checksum` is the XXH64 of the bytes before it.
struct NoteRecord {
    char magic[8] = {};
    FileIdentity file;
    uint64_t hash = 0;
    int64_t hashed_at_ns = 0;
    uint64_t checksum = 0;
};
static_assert(sizeof(NoteRecord) == 72 && std::is_trivially_copyable_v<NoteRecord>);

uint64_t checksumOf(const NoteRecord& note) { return fastHash(&note, offsetof(NoteRecord, checksum)); }

int64_t nsOf(const timespec& t) { return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

}  // namespace

std::optional<FileIdentity> identityOf(const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return std::nullopt;
    return FileIdentity{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size), nsOf(st.st_mtim),
                        nsOf(st.st_ctim)};
}

int64_t wallClockNs() {
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return nsOf(now);
}

std::filesystem::path ContentNotes::notePath(const FileIdentity& file) const {
    const uint64_t where[2] = {file.device, file.inode};
    char name[17];
    std::snprintf(name, sizeof name, "%016" PRIx64, fastHash(where, sizeof where));
    return dir_ / (std::string(name) + std::string(kNoteSuffix));
}

std::optional<uint64_t> ContentNotes::find(const FileIdentity& file) const {
    NoteRecord note;
    const int fd = ::open(notePath(file).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    const ssize_t n = ::read(fd, &note, sizeof note);
    ::close(fd);
    if (n != ssize_t(sizeof note) || std::memcmp(note.magic, kNoteMagic, sizeof kNoteMagic) != 0 ||
        note.checksum != checksumOf(note) || note.file != file)
        return std::nullopt;
    const int64_t latestChange = std::max(file.modified_ns, file.changed_ns);
    if (latestChange > note.hashed_at_ns - racyNs_) return std::nullopt;  // racy: could hide a later write
    return note.hash;
}

void ContentNotes::note(const FileIdentity& file, uint64_t hash, int64_t hashed_at_ns) const {
    NoteRecord note;
    std::memcpy(note.magic, kNoteMagic, sizeof kNoteMagic);
    note.file = file;
    note.hash = hash;
    note.hashed_at_ns = hashed_at_ns;
    note.checksum = checksumOf(note);
    const std::filesystem::path path = notePath(file);
    std::string temporary = (dir_ / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);  // mode 0600
    if (fd < 0) return;
    const bool written = ::write(fd, &note, sizeof note) == ssize_t(sizeof note);
    if (::close(fd) != 0 || !written || ::rename(temporary.c_str(), path.c_str()) != 0) {
        ::unlink(temporary.c_str());
        return;
    }
    dropOldest(path);
}

// Deletes the notes beyond kMaxNotes, least recently written first, but never `kept` (the
// one just written, which may share its time with others).
void ContentNotes::dropOldest(const std::filesystem::path& kept) const {
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> notes;
    std::error_code ec;
    for (const auto& item : std::filesystem::directory_iterator(dir_, ec)) {
        std::error_code statError;
        const std::string name = item.path().filename().string();
        if (name.starts_with(".") || !name.ends_with(kNoteSuffix) || item.path() == kept) continue;
        const auto written = item.last_write_time(statError);
        if (!statError) notes.emplace_back(written, item.path());
    }
    if (notes.size() < kMaxNotes) return;
    std::sort(notes.begin(), notes.end());
    for (size_t i = 0; i + kMaxNotes <= notes.size(); ++i) std::filesystem::remove(notes[i].second, ec);
}

}  // namespace lanescope::cache
