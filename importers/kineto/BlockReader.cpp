#include "importers/kineto/BlockReader.h"

#include <algorithm>
#include <limits>

namespace lanescope::kineto {
namespace {

constexpr size_t kCompressedBlock = 1 << 20;  // compressed bytes read from the file at a time

}  // namespace

BlockReader::~BlockReader() {
    if (zOpen_) inflateEnd(&z_);
}

bool BlockReader::open(const std::filesystem::path& path) {
    in_.open(path, std::ios::binary);
    if (!in_) {
        error_ = "cannot be read";
        return false;
    }
    std::error_code ec;
    fileSize_ = std::filesystem::file_size(path, ec);
    if (ec) fileSize_ = 0;
    char magic[2] = {0, 0};
    in_.read(magic, 2);
    compressed_ = in_.gcount() == 2 && isGzip(std::string_view(magic, 2));
    in_.clear();
    in_.seekg(0);
    if (compressed_) {
        if (inflateInit2(&z_, 15 + 32) != Z_OK) {
            error_ = "cannot start zlib";
            return false;
        }
        zOpen_ = true;
        inBuf_ = std::make_unique<char[]>(kCompressedBlock);
    }
    return true;
}

std::optional<size_t> BlockReader::read(char* out, size_t capacity) {
    if (compressed_) return inflateInto(out, capacity);
    in_.read(out, static_cast<std::streamsize>(capacity));
    const auto got = static_cast<size_t>(in_.gcount());
    fileBytesRead_ += got;
    if (got < capacity && in_.bad()) {
        error_ = "read error at byte " + std::to_string(fileBytesRead_);
        return std::nullopt;
    }
    return got;
}

std::optional<size_t> BlockReader::inflateInto(char* out, size_t capacity) {
    const auto room = static_cast<uInt>(std::min<size_t>(capacity, std::numeric_limits<uInt>::max()));
    while (true) {
        if (z_.avail_in == 0) {
            in_.read(inBuf_.get(), kCompressedBlock);
            z_.avail_in = static_cast<uInt>(in_.gcount());
            z_.next_in = reinterpret_cast<Bytef*>(inBuf_.get());
            fileBytesRead_ += z_.avail_in;
            if (z_.avail_in == 0) {
                if (in_.bad()) {
                    error_ = "read error at byte " + std::to_string(fileBytesRead_);
                    return std::nullopt;
                }
                if (!memberEnded_) {
                    error_ = "truncated gzip stream at byte " + std::to_string(consumed_);
                    return std::nullopt;
                }
                return 0;
            }
        }
        if (memberEnded_) {  // another gzip member follows
            inflateReset(&z_);
            memberEnded_ = false;
        }
        z_.next_out = reinterpret_cast<Bytef*>(out);
        z_.avail_out = room;
        const uInt before = z_.avail_in;
        const int rc = inflate(&z_, Z_NO_FLUSH);
        consumed_ += before - z_.avail_in;
        const size_t produced = room - z_.avail_out;
        if (rc == Z_STREAM_END) {
            memberEnded_ = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            error_ = std::string("damaged gzip stream at byte ") + std::to_string(consumed_) + " (" +
                     (z_.msg ? z_.msg : "zlib error " + std::to_string(rc)) + ")";
            return std::nullopt;
        }
        if (produced > 0) return produced;
    }
}

}  // namespace lanescope::kineto
