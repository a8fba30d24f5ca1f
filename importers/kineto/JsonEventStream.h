#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importers/kineto/BlockReader.h"

namespace lanescope::kineto {

// Block sizes of a JsonEventStream, in bytes. Tests make them tiny so that events, strings
// and header keys straddle block edges.
struct StreamSizes {
    // Read (or inflated) at a time, and scanned at once while it is in the processor's nearest
    // caches. Small beside a piece, as the bytes read past a piece's end are copied to the next
    // piece's buffer (JsonEventStream::takePiece). 64 KiB with 256 KiB pieces imported a plain
    // trace on 2 threads 3 to 9 % faster than 512 KiB blocks with 1 MiB pieces on a machine of
    // 512 KiB of L2 cache a core (docs/performance.md, "Smaller blocks and pieces").
    size_t block = 64u << 10;
    // A piece of events holds at least this much, in whole events: small enough that a piece's
    // text is still in the processor's caches when the thread that cut it parses it (8 MiB
    // pieces made the import on 2 threads 1.25 times slower; 1 MiB ones, 3 to 9 %).
    size_t piece = 256u << 10;
    size_t text_limit = 64u << 20;  // the header (the document outside the events), and one event, at most
    // A gzip trace on 2 threads or more is inflated ahead in chunks of this size
    // (BlockReader::inflateAhead): chunks of 64 KiB handed between the threads made it slower.
    size_t inflate_chunk = 512u << 10;
};

// Reads a Chrome-trace JSON document block by block (BlockReader) and hands out its
// "traceEvents" array in pieces of whole events, so that memory holds a piece and the header,
// never the file. A resumable scanner (in a string or not, after a backslash or not, the
// nesting depth) finds the array, then the top-level commas between events and the array's end
// across block edges (the events 64 bytes at a time with bit masks, as simdjson's stage 1).
// Each piece is handed out as a JSON array "[event, event, ...]" of its own, in the rolling
// buffer itself (the comma before it and the one after it are overwritten by '[' and ']'),
// with simdjson's padding readable after it. The header is the document with an empty events
// array, kept as text for the caller to parse at the end (keys may come after the array).
// A document that is itself the events array (Chrome's JSON Array Format, its closing ']'
// optional) is read the same way, with the header {"traceEvents": []}.
class JsonEventStream {
public:
    enum class Status {
        Piece,         // piece() holds the next events
        End,           // the array ended and the document was read to its end: header() is whole
        NotObject,     // the document is not a JSON object
        NoEvents,      // the object has no traceEvents array
        Unterminated,  // the file ended inside the events array
        Unbalanced,    // a '}' closes the events array
        TooLarge,      // the header, or one event, is over StreamSizes::text_limit
        ReadError,     // the reader failed: reader.error() says why
    };

    JsonEventStream(BlockReader& reader, StreamSizes sizes, size_t padding);

    Status next();
    // The current piece, "[...]"; `padding` readable bytes follow it. Valid until next().
    std::string_view piece() const { return piece_; }
    // Hands the rolling buffer, which holds the current piece, to the caller in `buffer`
    // (piece() then points into it, valid while the caller keeps it) and goes on in the
    // storage `buffer` had, where the bytes after the piece are copied: a piece changes hands
    // without being copied.
    void takePiece(std::vector<char>& buffer);
    // After End: the document with "traceEvents": [] (without a byte order mark).
    const std::string& header() const { return header_; }
    // Bytes of the document read so far (inflated when gzip).
    uint64_t bytesRead() const { return bytesRead_; }

private:
    enum class Phase { Header, Events, Trailer, Done };
    bool fill();                // reads a block; false at the end of the file or on a read error (status_ set)
    void dropBefore(size_t n);  // bytes [0, n) are done with: the buffer starts at n
    std::optional<Status> scanHeader();
    size_t scanEvents();
    Status lastPieceWithoutBracket();

    BlockReader& reader_;
    StreamSizes sizes_;
    size_t padding_;
    Phase phase_ = Phase::Header;
    Status status_ = Status::End;  // why fill() returned false

    // The rolling buffer: bytes [0, end_) of buf_ hold the document from some offset on; its
    // size is end_ + a block + padding at least. In the Header phase it holds the document from
    // its first byte; in the Events phase from start_, the byte before the next piece (the
    // array's '[' or the comma ending the previous piece).
    std::vector<char> buf_;
    size_t end_ = 0, start_ = 0;
    size_t scan_ = 0;  // the next byte to scan

    // Scanner state across blocks: nesting depth inside the document (Header) or inside the
    // events array (Events), whether the scan stopped inside a string, where that string opened
    // (Header), whether it stopped after an odd run of backslashes (Events, 0 or 1), and
    // whether the file has ended (Events: the last bytes are scanned).
    int depth_ = 0;
    bool inString_ = false;
    size_t stringOpen_ = 0;
    uint64_t escapeCarry_ = 0;
    bool fileEnded_ = false;
    // Header phase: the last string at depth 1 and the key before the last ':' at depth 1,
    // as [begin, end) indices into buf_.
    size_t lastString_[2] = {0, 0}, key_[2] = {0, 0};
    bool begun_ = false;          // the first byte was checked to open an object (or an array)
    bool arrayDocument_ = false;  // the JSON Array Format: the document is the events array
    size_t bom_ = 0;              // bytes of the UTF-8 byte order mark before it, left out of the header

    std::string_view piece_;
    std::string header_;
    uint64_t bytesRead_ = 0;
};

}  // namespace lanescope::kineto
