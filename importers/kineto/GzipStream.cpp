#include "importers/kineto/GzipStream.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <new>

namespace lanescope::kineto {
namespace {

// Grows `text` so that `needed` bytes plus the padding fit.
void reserve(PaddedText& text, size_t needed, size_t padding) {
    if (needed + padding <= text.capacity) return;
    const size_t capacity = std::max(needed + padding, text.capacity + text.capacity / 2);
    char* bigger = static_cast<char*>(std::realloc(text.data.get(), capacity));
    if (!bigger) throw std::bad_alloc();
    text.data.release();
    text.data.reset(bigger);
    text.capacity = capacity;
}

}  // namespace

std::optional<PaddedText> readPadded(const std::filesystem::path& path, size_t padding, bool& compressed,
                                     std::string& error, std::stop_token stop) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot be read";
        return std::nullopt;
    }
    std::error_code ec;
    const auto fileSize = static_cast<size_t>(std::filesystem::file_size(path, ec));
    char magic[2] = {0, 0};
    in.read(magic, 2);
    compressed = in.gcount() == 2 && isGzip(std::string_view(magic, 2));
    in.seekg(0);

    PaddedText text;
    if (!compressed) {
        reserve(text, fileSize, padding);
        in.read(text.data.get(), static_cast<std::streamsize>(fileSize));
        text.size = static_cast<size_t>(in.gcount());
        if (text.size != fileSize) {
            error = "read error at byte " + std::to_string(text.size);
            return std::nullopt;
        }
        std::memset(text.data.get() + text.size, 0, text.capacity - text.size);
        return text;
    }

    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) {
        error = "cannot start zlib";
        return std::nullopt;
    }
    reserve(text, fileSize * 6 + (1 << 20), padding);  // JSON traces compress about 10:1
    constexpr size_t kIn = 1 << 20;
    auto inBuf = std::make_unique<char[]>(kIn);
    uint64_t consumed = 0;
    bool ended = false;  // the last member ended cleanly
    int rc = Z_OK;
    while (true) {
        if (z.avail_in == 0) {
            in.read(inBuf.get(), kIn);
            z.avail_in = static_cast<uInt>(in.gcount());
            z.next_in = reinterpret_cast<Bytef*>(inBuf.get());
            if (z.avail_in == 0) break;
        }
        if (stop.stop_requested()) {
            inflateEnd(&z);
            error = "cancelled";
            return std::nullopt;
        }
        if (ended) {  // another gzip member follows
            inflateReset(&z);
            ended = false;
        }
        reserve(text, text.size + (1 << 20), padding);
        const uInt room = static_cast<uInt>(std::min<size_t>(text.capacity - padding - text.size, 1u << 30));
        z.next_out = reinterpret_cast<Bytef*>(text.data.get() + text.size);
        z.avail_out = room;
        const uInt before = z.avail_in;
        rc = inflate(&z, Z_NO_FLUSH);
        consumed += before - z.avail_in;
        text.size += room - z.avail_out;
        if (rc == Z_STREAM_END) {
            ended = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            inflateEnd(&z);
            error = std::string("damaged gzip stream at byte ") + std::to_string(consumed) + " (" +
                    (z.msg ? z.msg : "zlib error " + std::to_string(rc)) + ")";
            return std::nullopt;
        }
    }
    inflateEnd(&z);
    if (!ended) {
        error = "truncated gzip stream at byte " + std::to_string(consumed);
        return std::nullopt;
    }
    std::memset(text.data.get() + text.size, 0, padding);  // only the padding: the rest is never read
    return text;
}

}  // namespace lanescope::kineto
