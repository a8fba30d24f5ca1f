#include "importers/kineto/JsonEventStream.h"

#include <algorithm>
#include <cstring>

#include "importers/kineto/EventScan.h"

namespace lanescope::kineto {
namespace {

constexpr size_t npos = std::string_view::npos;

// Index just past the closing quote of the JSON string whose opening quote is p[open],
// searching from p[from]; npos when it does not close before p[n]. A quote after an odd
// number of backslashes (counted back to the opening quote) is escaped.
size_t stringEnd(const char* p, size_t open, size_t from, size_t n) {
    while (from < n) {
        const void* q = std::memchr(p + from, '"', n - from);
        if (!q) return npos;
        const auto j = static_cast<size_t>(static_cast<const char*>(q) - p);
        size_t k = j;
        while (k > open + 1 && p[k - 1] == '\\') --k;
        if (((j - k) & 1) == 0) return j + 1;
        from = j + 1;
    }
    return npos;
}

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

JsonEventStream::JsonEventStream(BlockReader& reader, StreamSizes sizes, size_t padding)
    : reader_(reader), sizes_(sizes), padding_(padding) {
    sizes_.block = std::max<size_t>(sizes_.block, 1);
}

void JsonEventStream::dropBefore(size_t n) {
    std::memmove(buf_.data(), buf_.data() + n, end_ - n);
    end_ -= n;
    scan_ -= n;
    start_ -= n;
}

bool JsonEventStream::fill() {
    if (phase_ == Phase::Events && start_ > 0) dropBefore(start_);  // drop the pieces handed out
    const size_t needed = end_ + sizes_.block + padding_;
    if (buf_.size() < needed) buf_.resize(std::max(needed, buf_.size() + buf_.size() / 2));
    const std::optional<size_t> got = reader_.read(buf_.data() + end_, sizes_.block);
    if (!got) {
        status_ = Status::ReadError;
        return false;
    }
    end_ += *got;
    bytesRead_ += *got;
    status_ = Status::End;
    return *got > 0;
}

// Scans the header from scan_ until the events array opens (then the Events phase starts);
// a failure when the document is no object or its object closes first; nullopt otherwise.
std::optional<JsonEventStream::Status> JsonEventStream::scanHeader() {
    const char* p = buf_.data();
    size_t i = scan_;
    if (!begun_) {
        if (i == 0 && end_ > 0 && p[0] == '\xEF') {  // a UTF-8 byte order mark
            if (end_ < 3) return std::nullopt;
            if (std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) i = bom_ = 3;
        }
        while (i < end_ && isSpace(p[i])) ++i;
        scan_ = i;
        if (i == end_) return std::nullopt;
        if (p[i] == '[') {  // the JSON Array Format: the document is the events array
            arrayDocument_ = true;
            begun_ = true;
            header_ = "{\"traceEvents\": ";
            phase_ = Phase::Events;
            start_ = i;
            scan_ = i + 1;
            depth_ = 0;
            return std::nullopt;
        }
        if (p[i] != '{') return Status::NotObject;
        begun_ = true;
        depth_ = 1;
        ++i;
    }
    if (inString_) {
        const size_t e = stringEnd(p, stringOpen_, i, end_);
        if (e == npos) {
            scan_ = end_;
            return std::nullopt;
        }
        inString_ = false;
        if (depth_ == 1) lastString_[0] = stringOpen_ + 1, lastString_[1] = e - 1;
        i = e;
    }
    for (; i < end_; ++i) {
        switch (p[i]) {
            case '"': {
                const size_t e = stringEnd(p, i, i + 1, end_);
                if (e == npos) {
                    inString_ = true;
                    stringOpen_ = i;
                    scan_ = end_;
                    return std::nullopt;
                }
                if (depth_ == 1) lastString_[0] = i + 1, lastString_[1] = e - 1;
                i = e - 1;
                break;
            }
            case ':':
                if (depth_ == 1) key_[0] = lastString_[0], key_[1] = lastString_[1];
                break;
            case ',':
                if (depth_ == 1) key_[0] = key_[1] = 0;
                break;
            case '[':
                if (depth_ == 1 && std::string_view(p + key_[0], key_[1] - key_[0]) == "traceEvents") {
                    header_.assign(p + bom_, i - bom_);
                    phase_ = Phase::Events;
                    start_ = i;
                    scan_ = i + 1;
                    depth_ = 0;
                    return std::nullopt;
                }
                ++depth_;
                break;
            case '{':
                ++depth_;
                break;
            case '}':
            case ']':
                if (--depth_ <= 0) return Status::NoEvents;
                break;
            default:
                break;
        }
    }
    scan_ = end_;
    return std::nullopt;
}

// Scans the events array from scan_ (EventScan.h): the index of the comma that ends a piece,
// of the array's closing ']', or of a '}' that unbalances it; npos when the buffered bytes end
// first.
size_t JsonEventStream::scanEvents() {
    EventScan scan{buf_.data(), scan_, end_, start_, sizes_.piece, fileEnded_, depth_, inString_, escapeCarry_};
    const size_t at = kineto::scanEvents(scan);
    scan_ = scan.scan;
    depth_ = scan.depth;
    inString_ = scan.inString;
    escapeCarry_ = scan.escapeCarry;
    return at == SIZE_MAX ? npos : at;
}

// The JSON Array Format may leave out the closing ']' (a trace written by a process that
// died): at the end of the file, outside any event and string, the events read so far are the
// last piece (a trailing comma dropped), and the array ends there.
JsonEventStream::Status JsonEventStream::lastPieceWithoutBracket() {
    if (depth_ != 0 || inString_) return Status::Unterminated;
    size_t last = end_;
    while (last > start_ + 1 && isSpace(buf_[last - 1])) --last;
    if (last > start_ + 1 && buf_[last - 1] == ',') --last;
    buf_[start_] = '[';
    buf_[last] = ']';  // within the buffer: a block and the padding lie past end_
    piece_ = std::string_view(buf_.data() + start_, last - start_ + 1);
    header_ += "[]}";
    phase_ = Phase::Done;
    return Status::Piece;
}

void JsonEventStream::takePiece(std::vector<char>& buffer) {
    const size_t kept = end_ - start_;  // from the piece's last byte (the next one's '[')
    if (buffer.size() < kept + sizes_.block + padding_) buffer.resize(kept + sizes_.block + padding_);
    std::memcpy(buffer.data(), buf_.data() + start_, kept);
    buf_.swap(buffer);
    end_ = kept;
    scan_ -= start_;
    start_ = 0;
}

JsonEventStream::Status JsonEventStream::next() {
    while (true) {
        switch (phase_) {
            case Phase::Header:
                if (const std::optional<Status> failure = scanHeader()) return *failure;
                if (phase_ != Phase::Header) break;
                if (end_ > sizes_.text_limit) return Status::TooLarge;
                if (!fill())
                    return status_ == Status::ReadError ? status_ : begun_ ? Status::NoEvents : Status::NotObject;
                break;
            case Phase::Events: {
                const size_t at = scanEvents();
                if (at == npos) {
                    if (fileEnded_) return arrayDocument_ ? lastPieceWithoutBracket() : Status::Unterminated;
                    if (end_ - start_ > sizes_.piece + sizes_.text_limit) return Status::TooLarge;
                    if (!fill()) {
                        if (status_ == Status::ReadError) return status_;
                        fileEnded_ = true;  // scan what is left, less than a chunk
                    }
                    break;
                }
                if (buf_[at] == '}') return Status::Unbalanced;
                if (buf_[at] == ']') {
                    header_ += "[]";
                    phase_ = Phase::Trailer;  // the bytes after `at` are moved to the header next time
                }
                buf_[start_] = '[';
                buf_[at] = ']';
                piece_ = std::string_view(buf_.data() + start_, at - start_ + 1);
                start_ = at;
                return Status::Piece;
            }
            case Phase::Trailer:
                header_.append(buf_.data() + scan_, end_ - scan_);
                start_ = scan_ = end_ = 0;
                if (header_.size() > sizes_.text_limit) return Status::TooLarge;
                if (!fill()) {
                    if (status_ == Status::ReadError) return status_;
                    if (arrayDocument_) header_ += '}';  // closes {"traceEvents": [] and what followed
                    phase_ = Phase::Done;
                }
                break;
            case Phase::Done:
                piece_ = {};
                std::vector<char>().swap(buf_);  // free the rolling buffer
                return Status::End;
        }
    }
}

}  // namespace lanescope::kineto
