#pragma once
#include <simdjson.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string_view>
#include <thread>
#include <vector>

#include "importers/kineto/BlockReader.h"
#include "importers/kineto/EventBatch.h"
#include "importers/kineto/FastEventReader.h"
#include "importers/kineto/JsonEventStream.h"

namespace lanescope::kineto {

// Parses a JsonEventStream's pieces into EventBatches and hands them out in piece order, each
// piece's in parts of about kPartBytes (readPart), so that a large piece's events are built
// while they are still in the caches and while the rest is read; the pieces themselves (and so
// what the parts give, errors included) are the stream's.
// With no workers everything runs in next(), on the caller's thread. With workers, a reader
// thread cuts the pieces (reading and inflating the file), takes each with the buffer that
// holds it and queues it; the workers parse the queued pieces, any order, part by part; next()
// waits for the next part of the next piece. At most workers + 2 pieces are cut and not yet
// released (a piece is released once the part after its last is asked for), so memory holds a
// few pieces whatever the file's size. On a stop request the reader cuts no more pieces.
class PiecePipeline {
public:
    PiecePipeline(JsonEventStream& stream, BlockReader& reader, unsigned workers, std::stop_token stop);
    PiecePipeline(const PiecePipeline&) = delete;
    PiecePipeline& operator=(const PiecePipeline&) = delete;
    ~PiecePipeline();  // ends the threads

    // The next part of a piece, valid until the next call; nullptr when no piece is left: the
    // stream ended (endStatus() says how), ran out of memory, or a stop was requested.
    EventBatch* next();

    static constexpr size_t kPartBytes = 512u << 10;
    // After next() returned nullptr: how the stream's last next() ended (End when whole).
    JsonEventStream::Status endStatus() const { return endStatus_; }
    // After next() returned nullptr: cutting a piece ran out of memory.
    bool outOfMemory() const { return outOfMemory_; }

private:
    // A piece cut and waiting to be parsed: its number in file order, the piece, with
    // simdjson's padding after it, in the stream's buffer that holds it (`text`,
    // JsonEventStream::takePiece) or in the file's mapping, and the bytes of the file read when
    // it was cut.
    struct Job {
        uint64_t index = 0;
        std::vector<char> text;
        std::string_view piece;
        uint64_t fileBytes = 0;
    };
    // A piece being parsed or handed out: its parts so far, in order (`taken` of them handed
    // out), whether the last is among them, the buffer that holds it and the piece.
    struct Slot {
        std::vector<std::unique_ptr<EventBatch>> parts;  // capacity for a piece's parts at most
        size_t taken = 0;
        bool done = false;
        std::vector<char> text;
        std::string_view piece;
    };
    void endThreads();
    void readPieces();
    void parsePieces(std::unique_ptr<EventBatch> reserve);
    // A batch for the next part: a spare one, a new one, else `reserve` (nullptr when none is left).
    std::unique_ptr<EventBatch> batchForPart(std::unique_ptr<EventBatch>& reserve);
    // Cuts the next piece into `job` (false at the end, endStatus_ / outOfMemory_ set).
    bool cut(Job& job);

    JsonEventStream& stream_;
    BlockReader& reader_;  // its mapping's pages are given back as batches are released
    std::stop_token stop_;
    const size_t window_;  // pieces cut and not yet released, at most
    JsonEventStream::Status endStatus_ = JsonEventStream::Status::End;
    bool outOfMemory_ = false;

    // The part handed out (released by the next call), and whether it is its piece's last.
    std::unique_ptr<EventBatch> current_;
    bool currentLast_ = false;

    // No workers: next() reads the stream's current piece part by part.
    simdjson::ondemand::parser parser_;
    std::unique_ptr<FastPieceReader> reading_;
    PartsRead partsRead_;

    // With workers, under mutex_: the queued pieces, the parts parsed, pieces cut and released
    // so far, spare buffers and batches for reuse (a worker makes a batch when none is spare,
    // and has one in reserve for running out of memory).
    std::mutex mutex_;
    // Each waiting thread has its own: the reader waits for room in the window, the workers
    // for a piece, next() for a batch (or the end), so that a change wakes only who needs it.
    std::condition_variable readerCanCut_, workersCanParse_, batchParsed_;
    std::deque<Job> queued_;   // in cutting order; workers take the first
    std::vector<Slot> slots_;  // piece i's parts at i % window_
    uint64_t cut_ = 0, released_ = 0;
    const char* releasedEnd_ = nullptr;  // the end of the last piece released; the reader gives its pages back
    bool ended_ = false, closing_ = false;
    std::vector<std::vector<char>> spareTexts_;
    std::vector<std::unique_ptr<EventBatch>> spareBatches_;
    std::vector<std::jthread> threads_;  // the workers, then the reader; none: next() does it all
};

}  // namespace lanescope::kineto
