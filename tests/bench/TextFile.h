#pragma once
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace lanescope::bench {

// A new text file written through a 4 MiB buffer, gzip-compressed (zlib's default level)
// when its name ends in ".gz". Errors throw std::runtime_error naming the file.
class TextFile {
public:
    explicit TextFile(const std::filesystem::path& path);
    ~TextFile();
    TextFile(const TextFile&) = delete;
    TextFile& operator=(const TextFile&) = delete;

    // The buffer to append to; it is written out when it grows past 4 MiB, and by close().
    std::string& text() { return buffer_; }
    void flushIfFull();
    void close();

private:
    void write();

    std::filesystem::path path_;
    std::FILE* plain_ = nullptr;
    void* gz_ = nullptr;  // a gzFile
    std::string buffer_;
};

}  // namespace lanescope::bench
