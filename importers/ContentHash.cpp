#include "importers/ContentHash.h"

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <vector>

namespace lanescope {

std::optional<std::string> contentKey(const std::filesystem::path& path, std::stop_token stop) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<char> buffer(1 << 20);
    uLong crc = crc32(0L, Z_NULL, 0);
    uLong adler = adler32(0L, Z_NULL, 0);
    uint64_t size = 0;
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto n = static_cast<uInt>(in.gcount());
        if (n == 0) break;
        crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer.data()), n);
        adler = adler32(adler, reinterpret_cast<const Bytef*>(buffer.data()), n);
        size += n;
        if (stop.stop_requested()) return std::nullopt;
    }
    if (in.bad()) return std::nullopt;
    char key[64];
    std::snprintf(key, sizeof key, "%016llx-%08lx-%08lx", static_cast<unsigned long long>(size),
                  static_cast<unsigned long>(crc), static_cast<unsigned long>(adler));
    return key;
}

}  // namespace lanescope
