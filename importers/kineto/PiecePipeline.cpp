// Cutting a Kineto trace's events into pieces on one thread and parsing them on others.
#include "importers/kineto/PiecePipeline.h"

#include <new>
#include <system_error>

namespace lanescope::kineto {

PiecePipeline::PiecePipeline(JsonEventStream& stream, BlockReader& reader, unsigned workers, std::stop_token stop)
    : stream_(stream), reader_(reader), stop_(std::move(stop)), window_(workers + 2) {
    if (workers == 0) {
        current_ = std::make_unique<EventBatch>();  // next() does it all
        return;
    }
    parsed_.resize(window_);
    spareTexts_.reserve(window_ + 1);  // the texts in use: those of pieces not parsed, and the reader's
    spareBatches_.reserve(window_);
    for (size_t i = 0; i < window_; ++i) spareBatches_.push_back(std::make_unique<EventBatch>());
    // The workers first, then the reader: when the system gives fewer threads, fewer workers
    // parse; when it gives no worker or no reader, next() does it all (the stream untouched).
    threads_.reserve(workers + 1);
    try {
        for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { parsePieces(); });
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
        {
            std::unique_lock lock(mutex_);
            readerCanCut_.wait(lock, [&] { return closing_ || cut_ - released_ < window_; });
            if (closing_) return;
            if (!spareTexts_.empty()) {
                job.text = std::move(spareTexts_.back());
                spareTexts_.pop_back();
            }
        }
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

void PiecePipeline::parsePieces() {
    simdjson::ondemand::parser parser;
    while (true) {
        Job job;
        std::unique_ptr<EventBatch> batch;
        {
            std::unique_lock lock(mutex_);
            workersCanParse_.wait(lock, [&] { return closing_ || !queued_.empty(); });
            if (closing_) return;
            job = std::move(queued_.front());
            queued_.pop_front();
            batch = std::move(spareBatches_.back());  // one is spare for each piece cut and not released
            spareBatches_.pop_back();
        }
        parsePiece(parser, job.piece, *batch);
        batch->fileBytes = job.fileBytes;
        batch->piece = job.piece;
        batch->source = std::move(job.text);  // the events' strings may be views into it
        {
            const std::lock_guard lock(mutex_);
            parsed_[job.index % window_] = std::move(batch);
        }
        batchParsed_.notify_one();  // one thread waits for batches: next()'s
    }
}

EventBatch* PiecePipeline::next() {
    if (threads_.empty()) {
        // The batch handed out last is done with: the mapping's pages before its piece's end too.
        reader_.releaseMapped(current_->piece.data() + current_->piece.size());
        try {
            const JsonEventStream::Status status = stream_.next();
            if (status != JsonEventStream::Status::Piece) {
                endStatus_ = status;
                return nullptr;
            }
        } catch (const std::bad_alloc&) {
            outOfMemory_ = true;
            return nullptr;
        }
        parsePiece(parser_, stream_.piece(), *current_);
        current_->fileBytes = reader_.fileBytesRead();
        current_->piece = stream_.piece();
        return current_.get();
    }
    std::unique_lock lock(mutex_);
    if (current_) {
        reader_.releaseMapped(current_->piece.data() + current_->piece.size());  // pieces are released in order
        spareTexts_.push_back(std::move(current_->source));                      // reserved
        spareBatches_.push_back(std::move(current_));
        ++released_;
        readerCanCut_.notify_one();
    }
    std::unique_ptr<EventBatch>& slot = parsed_[released_ % window_];
    batchParsed_.wait(lock, [&] { return slot || (ended_ && released_ == cut_); });
    if (!slot) return nullptr;
    current_ = std::move(slot);
    return current_.get();
}

}  // namespace lanescope::kineto
