#pragma once
#include <simdjson.h>

#include <cstddef>
#include <string_view>

#include "importers/kineto/EventBatch.h"

namespace lanescope::kineto {

// Reads a piece ("[event, ...]", simdjson's padding readable after it) into `batch` with a
// one-pass reader of our own, giving exactly the Events, notObjects and error that the simdjson
// reader (parsePieceWithSimdjson) gives, several times faster: the events as PyTorch writes
// them, plain ASCII or UTF-8 text without escapes in what is read.
//
// It reads only what it can read exactly and validates the whole piece as it goes (the JSON
// grammar, strictly; escapes; UTF-8, with simdjson's validator once a byte >= 0x80 shows).
// An event it does not read exactly (an escape in a key or in a string it reads, a number form
// other than plain decimals where a number is read, ...) is read by simdjson on its own, once
// the event is known to be valid JSON; the valid JSON of a piece gives the same Event whether
// simdjson reads it alone or in the piece. Anything invalid or doubtful (a control character in
// a string, invalid UTF-8, nesting deeper than 64, a trailing comma, ...) returns false, with
// nothing trusted: the caller reads the whole piece with simdjson, whose errors on invalid
// input stay what they were.
//
// The events' strings are views into the piece where they are its bytes, else kept in
// batch.text; the piece must live as long as the batch (EventBatch::source).
bool parsePieceFast(simdjson::ondemand::parser& parser, std::string_view piece, EventBatch& batch);

// The fast reader over a piece in parts (of about `bytes` of the piece each, in whole elements),
// so that the events of a large piece can be built while the rest is read. More: the part is in
// the batch, another follows; Done: the piece's last part (or its error) is; Declined: the fast
// reader leaves the piece to simdjson, as parsePieceFast's false (the batch holds nothing to
// trust: the earlier parts, identical to the first events simdjson gives when it reads the piece
// without error, stand).
class FastPieceReader {
public:
    enum class Result { More, Done, Declined };
    FastPieceReader(simdjson::ondemand::parser& parser, std::string_view piece) : parser_(&parser), piece_(piece) {}
    Result readPart(EventBatch& batch, size_t bytes);

private:
    simdjson::ondemand::parser* parser_;
    std::string_view piece_;
    const char* next_ = nullptr;  // where the next part begins; nullptr before the first
    int utf8_ = -1;               // the piece's UTF-8 as checked so far (-1 unknown, 0 invalid, 1 valid)
};

}  // namespace lanescope::kineto
