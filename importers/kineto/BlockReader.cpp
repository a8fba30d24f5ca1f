#include "importers/kineto/BlockReader.h"

namespace lanescope::kineto {
namespace {

constexpr size_t kCompressedBlock = 1 << 20;  // compressed bytes read from the file at a time

}  // namespace

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
        if (!inflater_.start()) {
            error_ = inflater_.error();
            return false;
        }
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
    while (true) {
        if (inflater_.pendingInput() == 0) {
            in_.read(inBuf_.get(), kCompressedBlock);
            const auto got = static_cast<size_t>(in_.gcount());
            fileBytesRead_ += got;
            if (got == 0) {
                if (in_.bad()) {
                    error_ = "read error at byte " + std::to_string(fileBytesRead_);
                    return std::nullopt;
                }
                if (!inflater_.memberEnded()) {
                    error_ = "truncated gzip stream at byte " + std::to_string(inflater_.consumed());
                    return std::nullopt;
                }
                return 0;
            }
            inflater_.feed(inBuf_.get(), got);
        }
        const std::optional<size_t> produced = inflater_.inflateInto(out, capacity);
        if (!produced) {
            error_ = "damaged gzip stream " + inflater_.error();
            return std::nullopt;
        }
        if (*produced > 0) return produced;
    }
}

}  // namespace lanescope::kineto
