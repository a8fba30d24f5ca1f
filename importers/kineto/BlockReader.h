#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "importers/Inflater.h"

namespace lanescope::kineto {

inline bool isGzip(std::string_view head) {
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
           static_cast<unsigned char>(head[1]) == 0x8b;
}

// Reads a file front to back in blocks of the caller's size, inflating it on the way when it
// is gzip (concatenated members too), so that only a block of it is in memory at a time.
class BlockReader {
public:
    BlockReader() = default;
    BlockReader(const BlockReader&) = delete;
    BlockReader& operator=(const BlockReader&) = delete;

    // Opens the file; false with error() set ("cannot be read") when it cannot be.
    bool open(const std::filesystem::path& path);
    // Reads up to `capacity` bytes of (inflated) content into `out`: the count, 0 at the end,
    // or nullopt with error() set to one line ("truncated gzip stream at byte 81920",
    // "damaged gzip stream at byte 512 (invalid block type)", "read error at byte 4096").
    std::optional<size_t> read(char* out, size_t capacity);

    bool compressed() const { return compressed_; }
    uint64_t fileSize() const { return fileSize_; }
    uint64_t fileBytesRead() const { return fileBytesRead_; }  // of the file, compressed when gzip
    // Bytes of the file behind the content read so far: for gzip the compressed bytes inflated
    // (fileBytesRead() counts whole compressed blocks read ahead).
    uint64_t contentSourceBytes() const { return compressed_ ? inflater_.consumed() : fileBytesRead_; }
    const std::string& error() const { return error_; }

private:
    std::optional<size_t> inflateInto(char* out, size_t capacity);

    std::ifstream in_;
    uint64_t fileSize_ = 0, fileBytesRead_ = 0;
    std::string error_;
    bool compressed_ = false;
    // gzip only: the stream and the compressed bytes read but not yet inflated.
    Inflater inflater_;
    std::unique_ptr<char[]> inBuf_;
};

}  // namespace lanescope::kineto
