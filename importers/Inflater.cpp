#include "importers/Inflater.h"

#include <algorithm>
#include <limits>

namespace lanescope {

Inflater::~Inflater() {
    if (open_) inflateEnd(&z_);
}

bool Inflater::start() {
    open_ = inflateInit2(&z_, 15 + 32) == Z_OK;  // 15: the largest window; +32: zlib or gzip header
    if (!open_) error_ = "cannot start zlib";
    return open_;
}

void Inflater::feed(const char* data, size_t size) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    z_.avail_in = static_cast<uInt>(std::min<size_t>(size, std::numeric_limits<uInt>::max()));
}

std::optional<size_t> Inflater::inflateInto(char* out, size_t capacity) {
    if (z_.avail_in == 0) return 0;
    if (memberEnded_) {  // another gzip member follows
        inflateReset(&z_);
        memberEnded_ = false;
    }
    const auto room = static_cast<uInt>(std::min<size_t>(capacity, std::numeric_limits<uInt>::max()));
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = room;
    const uInt before = z_.avail_in;
    const int rc = inflate(&z_, Z_NO_FLUSH);
    consumed_ += before - z_.avail_in;
    if (rc == Z_STREAM_END) {
        memberEnded_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        error_ = "at byte " + std::to_string(consumed_) + " (" +
                 (z_.msg ? z_.msg : "zlib error " + std::to_string(rc)) + ")";
        return std::nullopt;
    }
    return room - z_.avail_out;
}

bool inflateAll(std::string_view in, std::string& out, size_t limit) {
    Inflater inflater;
    if (!inflater.start()) return false;
    inflater.feed(in.data(), in.size());
    char buffer[1 << 16];
    while (inflater.pendingInput() > 0) {
        const std::optional<size_t> produced = inflater.inflateInto(buffer, sizeof buffer);
        if (!produced) return false;
        out.append(buffer, *produced);
        if (out.size() > limit) return false;
        if (*produced == 0 && inflater.pendingInput() > 0 && !inflater.memberEnded()) return false;
    }
    return inflater.memberEnded();
}

}  // namespace lanescope
