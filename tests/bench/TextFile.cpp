#include "tests/bench/TextFile.h"

#include <zlib.h>

#include <stdexcept>

namespace lanescope::bench {
namespace {

constexpr size_t kBufferBytes = 4u << 20;

}  // namespace

TextFile::TextFile(const std::filesystem::path& path) : path_(path) {
    if (path.extension() == ".gz")
        gz_ = gzopen(path.c_str(), "wb");
    else
        plain_ = std::fopen(path.c_str(), "wb");
    if (!gz_ && !plain_) throw std::runtime_error("cannot create " + path.string());
    buffer_.reserve(kBufferBytes + (64u << 10));
}

TextFile::~TextFile() {
    if (gz_) gzclose(static_cast<gzFile>(gz_));
    if (plain_) std::fclose(plain_);
}

void TextFile::flushIfFull() {
    if (buffer_.size() >= kBufferBytes) write();
}

void TextFile::write() {
    const bool ok = gz_ ? gzwrite(static_cast<gzFile>(gz_), buffer_.data(), static_cast<unsigned>(buffer_.size())) ==
                              static_cast<int>(buffer_.size())
                        : std::fwrite(buffer_.data(), 1, buffer_.size(), plain_) == buffer_.size();
    if (!ok) throw std::runtime_error("cannot write " + path_.string());
    buffer_.clear();
}

void TextFile::close() {
    write();
    const bool ok = gz_ ? gzclose(static_cast<gzFile>(gz_)) == Z_OK : std::fclose(plain_) == 0;
    gz_ = nullptr;
    plain_ = nullptr;
    if (!ok) throw std::runtime_error("cannot write " + path_.string());
}

}  // namespace lanescope::bench
