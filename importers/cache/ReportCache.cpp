#include "importers/cache/ReportCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <thread>
#include <vector>

#include "importers/cache/CacheFolder.h"
#include "importers/cache/ContentNotes.h"
#include "importers/cache/FastHash.h"
#include "importers/cache/ModelFile.h"
#include "importers/cache/ModelFormat.h"
#include "importers/nsys/NsysLocator.h"

namespace lanescope {

using cache::describe;
using cache::kEntrySuffix;
using cache::kResultSuffix;
using cache::kTempMark;
using cache::makePrivateDir;
using cache::touch;

namespace {

constexpr int64_t kStaleTempSeconds = 24 * 60 * 60;  // a temporary file this old was left by a crash
// Blocks of 256 KiB stay in the L2 cache between read() and the hash, and below malloc's
// threshold for a mapping of their own: 3.1 GB/s from the page cache on the 107 MB synthetic
// report, against 2.0 GB/s with blocks of 4 MiB (docs/report-cache.md).
constexpr size_t kReadBytes = size_t{256} << 10;

std::string hex(uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, value);
    return text;
}

// XXH64 of the file at `path`, read in one pass; nullopt when it cannot be read whole.
std::optional<uint64_t> hashFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    const auto block = std::make_unique_for_overwrite<char[]>(kReadBytes);
    FastHash content;
    bool ok = true;
    while (true) {
        const ssize_t n = ::read(fd, block.get(), kReadBytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        content.update(block.get(), size_t(n));
    }
    ::close(fd);
    if (!ok) return std::nullopt;
    return content.digest();
}

// The XXH64 of bytes [offset, offset + bytes) of `fd`, read with pread through `buffer`
// (kReadBytes); nullopt when the file ends first, a read fails or `stop` is requested.
std::optional<uint64_t> hashBlock(int fd, uint64_t offset, uint64_t bytes, char* buffer, const std::stop_token& stop) {
    FastHash hash;
    while (bytes > 0) {
        if (stop.stop_requested()) return std::nullopt;
        const ssize_t n = ::pread(fd, buffer, size_t(std::min<uint64_t>(kReadBytes, bytes)), off_t(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return std::nullopt;
        hash.update(buffer, size_t(n));
        offset += uint64_t(n), bytes -= uint64_t(n);
    }
    return hash.digest();
}

// The running program's build: the hash of its own executable, so that any rebuild (an
// importer fixed between two releases of one version number) misses the entries of the one
// before. Computed once per process (about 2 ms for 5 MB); the time this file was compiled
// when the executable cannot be read.
const std::string& buildIdentity() {
    static const std::string identity = [] {
        const std::optional<uint64_t> exe = hashFile("/proc/self/exe");
        const std::string_view compiled = __DATE__ " " __TIME__;
        return hex(exe ? *exe : fastHash(compiled.data(), compiled.size()));
    }();
    return identity;
}

// The key of a file of `size` bytes whose content hashes to `content`, its model made the way
// `variant` says (ReportCache::key).
std::string keyOf(uint64_t content, uint64_t size, std::string_view variant) {
    std::string version = LANESCOPE_VERSION;
    for (char& c : version)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
    return hex(content) + "-" + hex(size) + "-" + version + "+" + buildIdentity() + "-m" +
           std::to_string(cache::kModelFormatVersion) + "-" + hex(fastHash(variant.data(), variant.size()));
}

}  // namespace

ReportCache::ReportCache(std::filesystem::path dir, uint64_t max_bytes, int64_t racy_ns)
    : dir_(dir.empty() ? defaultCacheDir() / "models" : std::move(dir)), maxBytes_(max_bytes), racyNs_(racy_ns) {}

bool ReportCache::enabled() {
    const char* setting = std::getenv("LANESCOPE_CACHE");
    return !setting || std::string_view(setting) != "off";
}

std::optional<uint64_t> ReportCache::contentHash(const std::filesystem::path& file, uint64_t& size,
                                                 std::stop_token stop, uint64_t block_bytes, unsigned threads) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || block_bytes == 0) {
        ::close(fd);
        return std::nullopt;
    }
    size = uint64_t(st.st_size);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    const uint64_t blocks = (size + block_bytes - 1) / block_bytes;
    std::vector<uint64_t> digests(blocks);
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    // Each thread takes the next block not taken until none is left or one failed.
    const auto work = [&] {
        const auto buffer = std::make_unique_for_overwrite<char[]>(kReadBytes);
        for (uint64_t b; !failed.load(std::memory_order_relaxed) && (b = next.fetch_add(1)) < blocks;) {
            const uint64_t offset = b * block_bytes;
            const std::optional<uint64_t> digest =
                hashBlock(fd, offset, std::min(block_bytes, size - offset), buffer.get(), stop);
            if (digest)
                digests[b] = *digest;
            else
                failed = true;
        }
    };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const auto helpers = size_t(std::min<uint64_t>(threads, std::max<uint64_t>(blocks, 1)) - 1);
    {
        std::vector<std::jthread> pool;
        pool.reserve(helpers);
        for (size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
        work();
    }
    ::close(fd);
    if (failed || stop.stop_requested()) return std::nullopt;
    return fastHash(digests.data(), digests.size() * sizeof(uint64_t));
}

std::string ReportCache::variant(NsysReader reader, const std::string& nsysPath, bool viewLanes) {
    return (reader == NsysReader::Native ? std::string("native") : "nsys-export:" + nsysPath) +
           (viewLanes ? "+view-lanes" : "");
}

std::optional<std::string> ReportCache::key(const std::filesystem::path& file, std::string_view variant,
                                            std::stop_token stop) {
    uint64_t size = 0;
    const std::optional<uint64_t> content = contentHash(file, size, stop);
    if (!content) return std::nullopt;
    return keyOf(*content, size, variant);
}

std::optional<std::string> ReportCache::keyFor(const std::filesystem::path& file, std::string_view variant,
                                               std::stop_token stop) const {
    const std::optional<cache::FileIdentity> before = cache::identityOf(file);
    if (!before) return std::nullopt;
    const cache::ContentNotes notes(dir_, racyNs_);
    if (const std::optional<uint64_t> noted = notes.find(*before)) return keyOf(*noted, before->size, variant);
    const int64_t hashedAt = cache::wallClockNs();
    uint64_t size = 0;
    const std::optional<uint64_t> content = contentHash(file, size, stop);
    if (!content) return std::nullopt;
    std::string ignored;
    if (size == before->size && cache::identityOf(file) == before && makePrivateDir(dir_, ignored))
        notes.note(*before, *content, hashedAt);
    return keyOf(*content, size, variant);
}

std::filesystem::path ReportCache::entryPath(const std::string& key) const {
    return dir_ / (key + std::string(kEntrySuffix));
}

std::unique_ptr<Report> ReportCache::load(const std::string& key, const std::filesystem::path& source, std::string& why,
                                          std::stop_token stop, unsigned threads,
                                          const std::function<void(std::shared_ptr<const Report>)>& onSkeleton) const {
    why.clear();
    const std::filesystem::path entry = entryPath(key);
    std::error_code ec;
    if (!std::filesystem::exists(entry, ec)) return nullptr;
    cache::SkeletonCallback rows;
    if (onSkeleton)
        rows = [&](std::shared_ptr<Report> skeleton) {
            skeleton->meta.source_path = source.string();
            onSkeleton(std::move(skeleton));
        };
    std::unique_ptr<Report> report = cache::readModelFile(entry, why, stop, threads, rows);
    if (!report) {
        if (stop.stop_requested()) {
            why.clear();  // not the entry's fault: it stays
            return nullptr;
        }
        std::filesystem::remove(entry, ec);
        why = "cache entry " + entry.filename().string() + " dropped: " + why;
        return nullptr;
    }
    touch(entry);
    report->meta.source_path = source.string();
    return report;
}

bool ReportCache::store(const Report& report, const std::string& key, std::string& error,
                        const cache::LaneReplacements& replaced) const {
    error.clear();
    const cache::ModelFileWriter writer(report, replaced);
    if (writer.fileBytes() > maxBytes_) {
        error = "not cached: its model (" + describe(writer.fileBytes()) + ") is larger than the cache (" +
                describe(maxBytes_) + ")";
        return false;
    }
    const std::filesystem::path entry = entryPath(key);
    if (!writeAside(
            key, entry, [&](int fd, std::string& why) { return writer.write(fd, why); }, error))
        return false;
    dropLeastRecentlyUsed();
    return true;
}

// Writes `target` whole or not at all: through `write` into a new private file beside it, then
// renamed over it; its modification time set to now.
bool ReportCache::writeAside(const std::string& key, const std::filesystem::path& target,
                             const std::function<bool(int fd, std::string& error)>& write, std::string& error) const {
    if (!makePrivateDir(dir_, error)) return false;
    std::string temporary = (dir_ / ("." + key + std::string(kTempMark) + "XXXXXX")).string();
    const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);  // mode 0600
    if (fd < 0) {
        error = "cannot create a file in the cache folder " + dir_.string() + ": " + std::strerror(errno);
        return false;
    }
    bool ok = write(fd, error);
    if (::close(fd) != 0 && ok) {
        error = "cannot write " + target.filename().string() + ": " + std::strerror(errno);
        ok = false;
    }
    if (ok && ::rename(temporary.c_str(), target.c_str()) != 0) {
        error = "cannot name the cache file " + target.string() + ": " + std::strerror(errno);
        ok = false;
    }
    if (!ok) {
        ::unlink(temporary.c_str());
        return false;
    }
    touch(target);
    return true;
}

// Deletes entries with their results, least recently used first, until the rest hold at most
// maxBytes_; and the temporary files of writers that died long ago. An entry is used when it is
// stored or loaded; results whose entry is gone count as used when the newest of them was stored.
void ReportCache::dropLeastRecentlyUsed() const {
    struct Group {  // an entry's file (which may be gone) and its results' files
        std::vector<std::filesystem::path> files;
        std::filesystem::file_time_type used = std::filesystem::file_time_type::min();
        bool hasEntry = false;
        uint64_t bytes = 0;
    };
    std::map<std::string, Group> groups;  // by the entry's file name
    uint64_t total = 0;
    const auto staleBefore = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(kStaleTempSeconds);
    std::error_code ec;
    for (const auto& item : std::filesystem::directory_iterator(dir_, ec)) {
        const std::string name = item.path().filename().string();
        std::error_code statError;
        const auto used = item.last_write_time(statError);
        const uint64_t bytes = item.file_size(statError);
        if (statError || !item.is_regular_file(statError)) continue;  // deleted meanwhile, or not ours
        if (name.starts_with(".") && name.find(kTempMark) != std::string::npos) {
            if (used < staleBefore) std::filesystem::remove(item.path(), statError);
            continue;
        }
        const bool entry = name.ends_with(kEntrySuffix);
        std::string entryName = name;  // a result's: its name less ".<name>.result"
        if (!entry) {
            if (!name.ends_with(kResultSuffix)) continue;
            entryName.resize(name.size() - kResultSuffix.size());
            entryName.resize(std::min(entryName.size(), entryName.rfind('.')));
            if (!entryName.ends_with(kEntrySuffix)) continue;
        }
        Group& group = groups[entryName];
        group.files.push_back(item.path());
        group.bytes += bytes;
        total += bytes;
        if (entry) {
            group.hasEntry = true;
            group.used = used;
        } else if (!group.hasEntry) {
            group.used = std::max(group.used, used);
        }
    }
    std::vector<const Group*> order;  // sorted below by last use, oldest first
    for (const auto& [name, group] : groups) order.push_back(&group);
    std::sort(order.begin(), order.end(), [](const Group* a, const Group* b) { return a->used < b->used; });
    for (const Group* group : order) {
        if (total <= maxBytes_) break;
        for (const auto& file : group->files) std::filesystem::remove(file, ec);
        total -= group->bytes;
    }
}

}  // namespace lanescope
