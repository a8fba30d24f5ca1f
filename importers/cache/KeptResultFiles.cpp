#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "importers/cache/CacheFolder.h"
#include "importers/cache/FastHash.h"
#include "importers/cache/ReportCache.h"

// The results ReportCache keeps beside its entries (storeResult, loadResult).
namespace lanescope {
namespace {

// A result file: this header, then `bytes` bytes whose XXH64 is `checksum`.
constexpr std::string_view kResultMagic = "LSRESLT1";
struct ResultHeader {
    char magic[8] = {};  // kResultMagic
    uint64_t bytes = 0;
    uint64_t checksum = 0;
};

}  // namespace

using cache::describe;
using cache::isResultName;
using cache::kEntrySuffix;
using cache::kResultSuffix;
using cache::readAll;
using cache::writeAll;

std::filesystem::path ReportCache::resultPath(const std::string& key, std::string_view name) const {
    return dir_ / (key + std::string(kEntrySuffix) + "." + std::string(name) + std::string(kResultSuffix));
}

bool ReportCache::storeResult(const std::string& key, std::string_view name, std::string_view bytes,
                              std::string& error) const {
    error.clear();
    if (!isResultName(name)) {
        error = "a result's name must be letters, digits, '_' and '-'";
        return false;
    }
    if (bytes.size() > kMaxResultBytes) {
        error = "not kept: the result " + std::string(name) + " (" + describe(bytes.size()) + ") is too large";
        return false;
    }
    ResultHeader header{{}, bytes.size(), fastHash(bytes.data(), bytes.size())};
    std::memcpy(header.magic, kResultMagic.data(), sizeof header.magic);
    const auto write = [&](int fd, std::string& why) {
        if (writeAll(fd, &header, sizeof header) && writeAll(fd, bytes.data(), bytes.size())) return true;
        why = std::string("cannot write the result: ") + std::strerror(errno);
        return false;
    };
    if (!writeAside(key, resultPath(key, name), write, error)) return false;
    dropLeastRecentlyUsed();
    return true;
}

std::optional<std::string> ReportCache::loadResult(const std::string& key, std::string_view name) const {
    if (!isResultName(name)) return std::nullopt;
    const std::filesystem::path path = resultPath(key, name);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    ResultHeader header{};
    std::string bytes;
    bool whole = readAll(fd, &header, sizeof header) &&
                 std::memcmp(header.magic, kResultMagic.data(), sizeof header.magic) == 0 &&
                 header.bytes <= kMaxResultBytes;
    if (whole) {
        bytes.resize(size_t(header.bytes));
        char extra = 0;
        whole = readAll(fd, bytes.data(), bytes.size()) && ::read(fd, &extra, 1) == 0 &&
                fastHash(bytes.data(), bytes.size()) == header.checksum;
    }
    ::close(fd);
    if (!whole) {  // damaged: never trusted, and made again by whoever asked
        std::error_code ec;
        std::filesystem::remove(path, ec);
        return std::nullopt;
    }
    return bytes;
}

}  // namespace lanescope
