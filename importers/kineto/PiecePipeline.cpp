// Cutting a Kineto trace's events into pieces on one thread and parsing them on others.
#include "importers/kineto/PiecePipeline.h"

#include <new>
#include <system_error>

namespace lanescope::kineto {
namespace {

// Parts a slot has room for without growing (under the lock): a piece of up to 80 MiB in parts
// of 512 KiB; a larger one is read in fewer, larger parts.
constexpr size_t kSlotParts = 160;

}  // namespace

PiecePipeline::PiecePipeline(JsonEventStream& stream, BlockReader& reader, unsigned workers, std::stop_token stop)
    : stream_(stream), reader_(reader), stop_(std::move(stop)), window_(workers + 2) {
    if (workers == 0) {
        current_ = std::make_unique<EventBatch>();  // next() does it all
        return;
    }
    slots_.resize(window_);
    for (Slot& slot : slots_) slot.parts.reserve(kSlotParts);
    spareTexts_.reserve(window_ + 1);  // the texts in use: those of pieces not released, and the reader's
    spareBatches_.reserve(window_ * kSlotParts);
    for (size_t i = 0; i < window_; ++i) spareBatches_.push_back(std::make_unique<EventBatch>());
    // The workers first, then the reader: when the system gives fewer threads, fewer workers
    // parse; when it gives no worker or no reader, next() does it all (the stream untouched).
    threads_.reserve(workers + 1);
    try {
        for (unsigned i = 0; i < workers; ++i) {
            auto reserve = std::make_unique<EventBatch>();
            threads_.emplace_back([this, r = std::move(reserve)]() mutable { parsePieces(std::move(r)); });
        }
    } catch (const std::system_error&) {  // fewer workers
    }
    try {
        if (!threads_.empty()) threads_.emplace_back([this] { readPieces(); });
    } catch (const std::system_error&) {
        endThreads();
    }
    if (threads_.empty()) current_ = std::make_unique<EventBatch>();
}

PiecePipeline::~PiecePipeline() { endThreads(); }

void PiecePipeline::endThreads() {
    {
        const std::lock_guard lock(mutex_);
        closing_ = true;
    }
    readerCanCut_.notify_all();
    workersCanParse_.notify_all();
    batchParsed_.notify_all();
    threads_.clear();
}

bool PiecePipeline::cut(Job& job) {
    try {
        const JsonEventStream::Status status = stream_.next();
        if (status != JsonEventStream::Status::Piece) {
            endStatus_ = status;
            return false;
        }
        stream_.takePiece(job.text);
        job.piece = stream_.piece();
        job.fileBytes = reader_.fileBytesRead();
        return true;
    } catch (const std::bad_alloc&) {
        outOfMemory_ = true;
        return false;
    }
}

void PiecePipeline::readPieces() {
    while (true) {
        Job job;
        const char* releasedEnd = nullptr;
        {
            std::unique_lock lock(mutex_);
            readerCanCut_.wait(lock, [&] { return closing_ || cut_ - released_ < window_; });
            if (closing_) return;
            if (!spareTexts_.empty()) {
                job.text = std::move(spareTexts_.back());
                spareTexts_.pop_back();
            }
            releasedEnd = releasedEnd_;
        }
        // The mapping's pages of the pieces released: given back here, not on next()'s thread,
        // which builds the model and so sets the pace.
        reader_.releaseMapped(releasedEnd);
        bool more = !stop_.stop_requested() && cut(job);
        {
            const std::lock_guard lock(mutex_);
            if (more) try {
                    job.index = cut_;
                    queued_.push_back(std::move(job));
                    ++cut_;
                } catch (const std::bad_alloc&) {
                    outOfMemory_ = true;
                    more = false;
                }
            ended_ = !more;
        }
        if (more)
            workersCanParse_.notify_one();
        else
            batchParsed_.notify_all();  // next() may wait for the end
        if (!more) return;
    }
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

void PiecePipeline::parsePieces(std::unique_ptr<EventBatch> reserve) {
    simdjson::ondemand::parser parser;
    while (true) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            workersCanParse_.wait(lock, [&] { return closing_ || !queued_.empty(); });
            if (closing_) return;
            job = std::move(queued_.front());
            queued_.pop_front();
        }
        // The piece in parts: as many as its slot has room for.
        const size_t partBytes = std::max(kPartBytes, job.piece.size() / (kSlotParts - 1) + 1);
        FastPieceReader reader(parser, job.piece);
        PartsRead read;
        bool last = false;
        while (!last) {
            std::unique_ptr<EventBatch> batch = batchForPart(reserve);
            if (!batch) {  // no memory for a batch, and the reserve is used: the pipeline ends
                const std::lock_guard lock(mutex_);
                outOfMemory_ = true;
                closing_ = true;
                batchParsed_.notify_all();
                return;
            }
            readPart(reader, parser, job.piece, *batch, read, partBytes);
            last = batch->lastPart;
            batch->fileBytes = job.fileBytes;
            batch->piece = job.piece;
            {
                const std::lock_guard lock(mutex_);
                Slot& slot = slots_[job.index % window_];
                slot.parts.push_back(std::move(batch));  // within its capacity
                if (last) {
                    slot.done = true;
                    slot.text = std::move(job.text);  // the events' strings may be views into it
                    slot.piece = job.piece;
                }
            }
            batchParsed_.notify_one();  // one thread waits for parts: next()'s
        }
    }
}

EventBatch* PiecePipeline::next() {
    if (threads_.empty()) {
        // The part handed out last is done with; after a piece's last, the mapping's pages
        // before its end too, and the next piece is cut.
        if (!reading_ || currentLast_) {
            reader_.releaseMapped(current_->piece.data() + current_->piece.size());
            reading_.reset();
            try {
                const JsonEventStream::Status status = stream_.next();
                if (status != JsonEventStream::Status::Piece) {
                    endStatus_ = status;
                    return nullptr;
                }
                reading_ = std::make_unique<FastPieceReader>(parser_, stream_.piece());
            } catch (const std::bad_alloc&) {
                outOfMemory_ = true;
                return nullptr;
            }
            partsRead_ = {};
        }
        readPart(*reading_, parser_, stream_.piece(), *current_, partsRead_, kPartBytes);
        currentLast_ = current_->lastPart;
        current_->fileBytes = reader_.fileBytesRead();
        current_->piece = stream_.piece();
        return current_.get();
    }
    std::unique_lock lock(mutex_);
    if (current_) {
        spareBatches_.push_back(std::move(current_));  // within its capacity
        if (currentLast_) {                            // its piece is done with
            Slot& slot = slots_[released_ % window_];
            releasedEnd_ = slot.piece.data() + slot.piece.size();  // pieces are released in order
            spareTexts_.push_back(std::move(slot.text));                   // reserved
            slot.parts.clear();
            slot.taken = 0;
            slot.done = false;
            slot.piece = {};
            ++released_;
            readerCanCut_.notify_one();
        }
    }
    Slot& slot = slots_[released_ % window_];
    batchParsed_.wait(lock,
                      [&] { return slot.taken < slot.parts.size() || (ended_ && released_ == cut_) || closing_; });
    if (slot.taken == slot.parts.size()) return nullptr;
    current_ = std::move(slot.parts[slot.taken++]);
    currentLast_ = slot.done && slot.taken == slot.parts.size();
    return current_.get();
}

}  // namespace lanescope::kineto
