#pragma once
#include <simdjson.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string_view>
#include <vector>

#include "importers/kineto/BlockReader.h"
#include "importers/kineto/EventBatch.h"
#include "importers/kineto/JsonEventStream.h"

namespace lanescope::kineto {

// Parses a JsonEventStream's pieces into EventBatches and builds them in piece order, each
// piece in parts of about kPartBytes (readPart); the pieces themselves (and so what the parts
// give, errors included) are the stream's.
//
// Every thread does everything, in turn: it cuts the next piece (one thread at a time: reading
// and inflating the file, finding the piece's end), parses it part by part, and builds each
// part itself when its piece is the next to build and no other thread is building, while the
// part is still in its processor's caches; else the part waits for whichever thread builds
// next. So a part is built where it was parsed, most of the time, and the building (one thread
// at a time, in file order) moves between the threads instead of waiting on one. At most
// threads + 2 pieces are cut and not yet built, so memory holds a few pieces whatever the
// file's size. On a stop request no more pieces are cut.
class PiecePipeline {
public:
    // Builds one part; false stops the pipeline (no part is built after it).
    using Build = std::function<bool(EventBatch&)>;

    PiecePipeline(JsonEventStream& stream, BlockReader& reader, unsigned threads, std::stop_token stop);
    PiecePipeline(const PiecePipeline&) = delete;
    PiecePipeline& operator=(const PiecePipeline&) = delete;

    // Parses the stream on this thread and threads - 1 more, and calls `build` with every part
    // of every piece in order, one call at a time, on any of them. Returns once every piece cut
    // is built, or `build` returned false, memory ran out, or a stop was requested.
    void run(const Build& build);

    static constexpr size_t kPartBytes = 512u << 10;
    // After run(): how the stream's last next() ended (End when whole).
    JsonEventStream::Status endStatus() const { return endStatus_; }
    // After run(): cutting or parsing a piece ran out of memory.
    bool outOfMemory() const { return outOfMemory_; }

private:
    // A piece cut: its number in file order, the buffer that holds it (JsonEventStream::
    // takePiece), the piece with simdjson's padding after it, and the bytes of the file read
    // when it was cut.
    struct Job {
        uint64_t index = 0;
        std::vector<char> text;
        std::string_view piece;
        uint64_t fileBytes = 0;
    };
    // A piece cut and not yet built: its parts parsed so far, in order (`taken` of them built),
    // whether the last is among them, the buffer that holds it and the piece.
    struct Slot {
        std::vector<std::unique_ptr<EventBatch>> parts;  // capacity for a piece's parts at most
        size_t taken = 0;
        bool done = false;
        std::vector<char> text;
        std::string_view piece;
    };
    void work(const Build& build);
    // Cuts the next piece into `job` when there is room for it; false when none is left (the
    // stream ended, endStatus_ says how; a stop; no memory) or the pipeline stops.
    bool takePiece(Job& job);
    enum class Cut { Piece, Ended, OutOfMemory };
    Cut cut(Job& job);  // the stream's next piece (under cutMutex_)
    // Parses `job`'s piece part by part, each part queued and then built where it can be.
    void parse(Job& job, simdjson::ondemand::parser& parser, std::unique_ptr<EventBatch>& reserve, const Build& build);
    // A batch for the next part: a spare one, a new one, else `reserve` (nullptr when none is left).
    std::unique_ptr<EventBatch> batchForPart(std::unique_ptr<EventBatch>& reserve);
    // Builds the parts that are next in order while no other thread builds (`lock` on mutex_,
    // held again on return).
    void buildReady(std::unique_lock<std::mutex>& lock, const Build& build);
    void stopAll();  // under mutex_

    JsonEventStream& stream_;
    BlockReader& reader_;
    std::stop_token stop_;
    const unsigned threads_;
    const size_t window_;  // pieces cut and not yet built, at most
    JsonEventStream::Status endStatus_ = JsonEventStream::Status::End;
    bool outOfMemory_ = false;

    std::mutex cutMutex_;  // the stream: one thread cuts at a time
    // Under mutex_: the pieces cut and built so far, the parts parsed (piece i's at
    // i % window_), whether a thread is building, whether the stream ended or the pipeline
    // stops, and spare buffers and batches for reuse.
    std::mutex mutex_;
    std::condition_variable roomToCut_;  // a piece was built, or the pipeline stops
    uint64_t cut_ = 0, built_ = 0;
    std::vector<Slot> slots_;
    bool building_ = false, ended_ = false, stopping_ = false;
    std::vector<std::vector<char>> spareTexts_;
    std::vector<std::unique_ptr<EventBatch>> spareBatches_;
};

}  // namespace lanescope::kineto
