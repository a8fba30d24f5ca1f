#pragma once
#include <simdjson.h>

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

}  // namespace lanescope::kineto
