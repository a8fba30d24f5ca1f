#include "importers/kineto/BlockReader.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>

namespace lanescope::kineto {
namespace {

constexpr size_t kCompressedBlock = 1 << 20;  // compressed bytes read from the file at a time

}  // namespace

BlockReader::~BlockReader() {
    if (inflating_.joinable()) {
        {
            const std::lock_guard lock(aheadMutex_);
            aheadStops_ = true;
        }
        roomAhead_.notify_all();
        inflating_.join();
    }
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
        if (!inflater_.start()) {
            error_ = inflater_.error();
            return false;
        }
        inBuf_ = std::make_unique<char[]>(kCompressedBlock);
    }
    return true;
}

void BlockReader::inflateAhead(size_t chunkBytes) {
    if (!compressed_ || ahead_) return;
    try {
        spareChunks_.reserve(kChunksAhead + 2);  // the chunks there can be: queued, being read, being inflated
        inflating_ = std::thread([this, chunkBytes] { inflateChunks(chunkBytes); });
        ahead_ = true;
    } catch (const std::exception&) {  // no thread, or no memory for the list: read() inflates
    }
}

void BlockReader::inflateChunks(size_t chunkBytes) {
    while (true) {
        Chunk chunk;
        {
            const std::lock_guard lock(aheadMutex_);
            if (!spareChunks_.empty()) {
                chunk.bytes = std::move(spareChunks_.back());
                spareChunks_.pop_back();
            }
        }
        std::optional<size_t> got;
        try {
            chunk.bytes.resize(chunkBytes);
            got = inflateInto(chunk.bytes.data(), chunkBytes);
        } catch (const std::bad_alloc&) {
            error_ = "not enough memory to inflate the file";
        }
        chunk.size = got.value_or(0);
        chunk.failed = !got;
        chunk.after = {fileBytesRead_, inflater_.consumed(), chunk.failed ? error_ : std::string()};
        const bool last = chunk.failed || chunk.size == 0;
        {
            std::unique_lock lock(aheadMutex_);
            roomAhead_.wait(lock, [&] { return aheadStops_ || chunks_.size() < kChunksAhead; });
            if (aheadStops_) return;
            chunks_.push_back(std::move(chunk));
        }
        chunkReady_.notify_one();
        if (last) return;
    }
}

std::optional<size_t> BlockReader::read(char* out, size_t capacity) {
    if (ahead_) {
        std::unique_lock lock(aheadMutex_);
        chunkReady_.wait(lock, [&] { return !chunks_.empty(); });
        Chunk& chunk = chunks_.front();
        shown_ = chunk.after;
        if (chunk.failed) return std::nullopt;  // the chunk stays: every later read fails the same way
        const size_t n = std::min(capacity, chunk.size - chunk.taken);
        std::memcpy(out, chunk.bytes.data() + chunk.taken, n);
        chunk.taken += n;
        if (chunk.size == 0 || chunk.taken < chunk.size) return n;  // the end stays too
        spareChunks_.push_back(std::move(chunk.bytes));             // within its capacity
        chunks_.pop_front();
        lock.unlock();
        roomAhead_.notify_one();
        return n;
    }
    if (compressed_) return inflateInto(out, capacity);
    in_.read(out, static_cast<std::streamsize>(capacity));
    const auto got = static_cast<size_t>(in_.gcount());
    fileBytesRead_ += got;
    if (got < capacity && in_.bad()) {
        error_ = "read error at byte " + std::to_string(fileBytesRead_);
        return std::nullopt;
    }
    if (got == 0 && fileBytesRead_ < fileSize_) cutShort_ = true;
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
