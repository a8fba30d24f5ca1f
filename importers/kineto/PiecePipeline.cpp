// Cutting a Kineto trace's events into pieces, parsing them and building them in order, on
// every thread.
#include "importers/kineto/PiecePipeline.h"

#include <algorithm>
#include <new>
#include <system_error>
#include <thread>

#include "importers/kineto/FastEventReader.h"

namespace lanescope::kineto {
namespace {

// Parts a slot has room for without growing (under the lock): a piece of up to 80 MiB in parts
// of 512 KiB; a larger one is read in fewer, larger parts.
constexpr size_t kSlotParts = 160;

}  // namespace

PiecePipeline::PiecePipeline(JsonEventStream& stream, BlockReader& reader, unsigned threads, std::stop_token stop)
    : stream_(stream), reader_(reader), stop_(std::move(stop)), threads_(std::max(1u, threads)), window_(threads_ + 2) {
    slots_.resize(window_);
    for (Slot& slot : slots_) slot.parts.reserve(kSlotParts);
    // Room for every buffer and batch there can be, so that giving one back never allocates:
    // the texts of the pieces not built and the threads' own; the parts of those pieces, the one
    // each thread fills and each thread's reserve.
    spareTexts_.reserve(window_ + threads_ + 2);
    spareBatches_.reserve(window_ * kSlotParts + 2 * threads_);
}

void PiecePipeline::run(const Build& build) {
    std::vector<std::jthread> helpers;
    helpers.reserve(threads_ - 1);
    try {
        for (unsigned i = 1; i < threads_; ++i) helpers.emplace_back([this, &build] { work(build); });
    } catch (const std::system_error&) {  // fewer threads
    }
    work(build);
}  // the helpers are joined

void PiecePipeline::work(const Build& build) {
    simdjson::ondemand::parser parser;
    std::unique_ptr<EventBatch> reserve(new (std::nothrow) EventBatch());  // for running out of memory
    Job job;
    while (takePiece(job)) parse(job, parser, reserve, build);
}

PiecePipeline::Cut PiecePipeline::cut(Job& job) {
    try {
        const JsonEventStream::Status status = stream_.next();
        if (status != JsonEventStream::Status::Piece) {
            endStatus_ = status;
            return Cut::Ended;
        }
        stream_.takePiece(job.text);
        job.piece = stream_.piece();
        job.fileBytes = reader_.fileBytesRead();
        return Cut::Piece;
    } catch (const std::bad_alloc&) {
        return Cut::OutOfMemory;
    }
}

bool PiecePipeline::takePiece(Job& job) {
    const std::lock_guard cutting(cutMutex_);
    {
        std::unique_lock lock(mutex_);
        roomToCut_.wait(lock, [&] { return stopping_ || ended_ || cut_ - built_ < window_; });
        if (stopping_ || ended_) return false;
        if (!spareTexts_.empty()) {
            job.text = std::move(spareTexts_.back());
            spareTexts_.pop_back();
        }
    }
    const Cut result = stop_.stop_requested() ? Cut::Ended : cut(job);
    const std::lock_guard lock(mutex_);
    if (result == Cut::OutOfMemory) {
        outOfMemory_ = true;
        stopAll();
    }
    if (result != Cut::Piece) {
        ended_ = true;
        roomToCut_.notify_all();
        return false;
    }
    job.index = cut_++;
    return true;
}

std::unique_ptr<EventBatch> PiecePipeline::batchForPart(std::unique_ptr<EventBatch>& reserve) {
    {
        const std::lock_guard lock(mutex_);
        if (!spareBatches_.empty()) {
            std::unique_ptr<EventBatch> batch = std::move(spareBatches_.back());
            spareBatches_.pop_back();
            return batch;
        }
    }
    std::unique_ptr<EventBatch> batch(new (std::nothrow) EventBatch());
    return batch ? std::move(batch) : std::move(reserve);
}

void PiecePipeline::parse(Job& job, simdjson::ondemand::parser& parser, std::unique_ptr<EventBatch>& reserve,
                          const Build& build) {
    // The piece in parts: as many as its slot has room for.
    const size_t partBytes = std::max(kPartBytes, job.piece.size() / (kSlotParts - 1) + 1);
    FastPieceReader pieceReader(parser, job.piece);
    PartsRead read;
    bool last = false;
    while (!last) {
        std::unique_ptr<EventBatch> batch = batchForPart(reserve);
        if (!batch) {  // no memory for a batch, and the reserve is used: the pipeline ends
            const std::lock_guard lock(mutex_);
            outOfMemory_ = true;
            stopAll();
            return;
        }
        readPart(pieceReader, parser, job.piece, *batch, read, partBytes);
        last = batch->lastPart;
        batch->fileBytes = job.fileBytes;
        batch->piece = job.piece;
        std::unique_lock lock(mutex_);
        if (stopping_) {
            spareBatches_.push_back(std::move(batch));  // within its capacity
            return;
        }
        Slot& slot = slots_[job.index % window_];
        slot.parts.push_back(std::move(batch));  // within its capacity
        if (last) {
            slot.done = true;
            slot.text = std::move(job.text);  // the events' strings may be views into it
            slot.piece = job.piece;
        }
        buildReady(lock, build);
    }
}

void PiecePipeline::buildReady(std::unique_lock<std::mutex>& lock, const Build& build) {
    if (building_) return;  // the thread building takes this part too
    building_ = true;
    while (!stopping_) {
        Slot& slot = slots_[built_ % window_];
        if (slot.taken < slot.parts.size()) {
            std::unique_ptr<EventBatch> part = std::move(slot.parts[slot.taken++]);
            lock.unlock();
            const bool go = build(*part);
            lock.lock();
            spareBatches_.push_back(std::move(part));  // within its capacity
            if (!go) stopAll();
        } else if (slot.done) {
            // The piece is built: its slot and buffer are free.
            spareTexts_.push_back(std::move(slot.text));  // within its capacity
            slot.parts.clear();
            slot.taken = 0;
            slot.done = false;
            slot.piece = {};
            ++built_;
            roomToCut_.notify_one();  // the one thread cutting may wait for room
        } else {
            break;  // the next part is still being parsed
        }
    }
    building_ = false;
}

void PiecePipeline::stopAll() {
    stopping_ = true;
    roomToCut_.notify_all();
}

}  // namespace lanescope::kineto
