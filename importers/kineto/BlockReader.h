#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "importers/Inflater.h"

namespace lanescope::kineto {

inline bool isGzip(std::string_view head) {
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
           static_cast<unsigned char>(head[1]) == 0x8b;
}

// Reads a file front to back in blocks of the caller's size, inflating it on the way when it
// is gzip (concatenated members too), so that only a block of it is in memory at a time.
// A plain file that ends before the size it had when opened (cut short on disk while it is
// read) ends there, and cutShort() says so.
//
// The file is read, not mapped in memory: with two threads or more, each page fault on a
// mapping and each page given back made the other processors drop their address translations,
// and a 2-thread import took a third more processor time than with read() (docs/performance.md,
// "Reading, not mapping").
class BlockReader {
public:
    BlockReader() = default;
    BlockReader(const BlockReader&) = delete;
    BlockReader& operator=(const BlockReader&) = delete;
    ~BlockReader();

    // Opens the file; false with error() set ("cannot be read") when it cannot be.
    bool open(const std::filesystem::path& path);
    // Reads up to `capacity` bytes of (inflated) content into `out`: the count, 0 at the end,
    // or nullopt with error() set to one line ("truncated gzip stream at byte 81920",
    // "damaged gzip stream at byte 512 (invalid block type)", "read error at byte 4096").
    std::optional<size_t> read(char* out, size_t capacity);
    // From now on a gzip file is inflated on a thread of its own, up to kChunksAhead chunks of
    // `chunkBytes` ahead of read(), so that inflating (one thread, in order) runs beside the
    // threads that parse what read() gives; read() then copies a chunk, and gives and counts
    // exactly what it would have. No effect on a plain file. Call once, before the first read().
    void inflateAhead(size_t chunkBytes);
    static constexpr size_t kChunksAhead = 3;

    bool compressed() const { return compressed_; }
    uint64_t fileSize() const { return fileSize_; }
    uint64_t fileBytesRead() const { return ahead_ ? shown_.fileBytesRead : fileBytesRead_; }  // compressed when gzip
    // Bytes of the file behind the content read so far: for gzip the compressed bytes inflated
    // (fileBytesRead() counts whole compressed blocks read ahead).
    uint64_t contentSourceBytes() const {
        return ahead_ ? shown_.sourceBytes : compressed_ ? inflater_.consumed() : fileBytesRead_;
    }
    const std::string& error() const { return ahead_ ? shown_.error : error_; }

    // Whether the plain file ended before fileSize() bytes: it was cut short on disk since open().
    bool cutShort() const { return cutShort_; }

private:
    std::optional<size_t> inflateInto(char* out, size_t capacity);
    // What fileBytesRead(), contentSourceBytes() and error() say while inflating ahead.
    struct Shown {
        uint64_t fileBytesRead = 0, sourceBytes = 0;
        std::string error;
    };
    // A chunk inflated ahead: its content (`size` bytes of `bytes`; 0 at the end), or the error
    // that ended the file (`failed`), and what read() would have left the counts at after it.
    struct Chunk {
        std::vector<char> bytes;
        size_t size = 0, taken = 0;  // bytes read() has given of it
        bool failed = false;
        Shown after;
    };
    void inflateChunks(size_t chunkBytes);  // the inflating thread

    std::ifstream in_;
    uint64_t fileSize_ = 0, fileBytesRead_ = 0;
    std::string error_;
    bool compressed_ = false;
    // gzip only: the stream and the compressed bytes read but not yet inflated.
    Inflater inflater_;
    std::unique_ptr<char[]> inBuf_;
    bool cutShort_ = false;
    // Inflating ahead (inflateAhead): the chunks inflated and not yet read, in order, under
    // aheadMutex_ (the thread owns in_, inflater_, fileBytesRead_ and error_ then), and the
    // counts read() shows.
    bool ahead_ = false, aheadStops_ = false;
    std::mutex aheadMutex_;
    std::condition_variable chunkReady_, roomAhead_;
    std::deque<Chunk> chunks_;
    std::vector<std::vector<char>> spareChunks_;  // the buffers of chunks read, for the next ones
    Shown shown_;
    std::thread inflating_;
};

}  // namespace lanescope::kineto
