#pragma once
#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "importers/kineto/KinetoEvent.h"

namespace lanescope::kineto {

// Characters that stay put: blocks of 64 KiB that never move, so views into them stay valid
// until clear(), which keeps the blocks for the next use.
class TextArena {
public:
    std::string_view keep(std::string_view text);
    void clear();

private:
    static constexpr size_t kBlockBytes = 64 * 1024;
    std::vector<std::unique_ptr<char[]>> blocks_;  // full-size blocks, reused after clear()
    std::vector<std::unique_ptr<char[]>> large_;   // one per string longer than a block
    size_t inUse_ = 0, used_ = 0;                  // blocks in use, bytes used of the last one
};

// The events of one piece of a trace, parsed: what a parsing thread hands to the builder.
// Events in file order, one whole Event each (the builder reads every field of an event at
// once); their strings are views into the piece where they are its bytes (the piece's buffer
// goes with the batch: `source`), else kept in `text` (unescaped strings), so the batch
// outlives the parser.
struct EventBatch {
    std::vector<Event> events;
    TextArena text;
    std::vector<char> source;                        // the buffer holding the piece, when the batch owns it
    std::string_view piece;                          // the piece read (PiecePipeline)
    uint64_t notObjects = 0;                         // elements of the piece that were not objects
    simdjson::error_code error = simdjson::SUCCESS;  // the JSON is invalid after `events`
    bool outOfMemory = false;                        // parsing ran out of memory after `events`
    uint64_t fileBytes = 0;                          // of the file read when the piece was cut
    // How the piece was read (parsePiece): events that the fast reader handed to simdjson one by
    // one, and whether simdjson read the whole piece (invalid or doubtful JSON).
    uint64_t eventsBySimdjson = 0;
    bool pieceBySimdjson = false;
    // When the batch is a part of its piece (readPart): whether the piece's last, and, when
    // simdjson had to read the whole piece after earlier parts were handed over and gave fewer
    // events than those parts (an error), how many of theirs it did not give: an error's count
    // of events leaves them out.
    bool lastPart = true;
    uint64_t overCounted = 0;

    void clear();  // all but `source`
};

// Parses a piece ("[event, ...]" with simdjson's padding readable after it) into `batch`, as
// the events are read in file order; an invalid document stops it with `error` set. The piece
// must outlive the batch's use (its strings may be views into it). The fast reader
// (FastEventReader.h) reads it, or simdjson when the fast reader declines.
void parsePiece(simdjson::ondemand::parser& parser, std::string_view piece, EventBatch& batch);
// The same with simdjson alone (readEvent on each element): what parsePiece gives.
void parsePieceWithSimdjson(simdjson::ondemand::parser& parser, std::string_view piece, EventBatch& batch);

class FastPieceReader;

// What the parts of a piece handed over so far held (readPart).
struct PartsRead {
    uint64_t events = 0, notObjects = 0;
    bool declined = false;  // the fast reader left the piece to simdjson
};

// Reads the next part of `reader`'s piece (about `bytes` of it) into `batch` (batch.lastPart
// set when it is the piece's last), so that the parts, handed over in order, give the events,
// non-objects and error that parsePiece gives for the whole piece: where the fast reader leaves
// the piece to simdjson after parts were handed over, simdjson reads it whole and the batch holds
// what it gave past those parts (their events are its first ones when it reads the piece without
// error; with an error, overCounted says how many of theirs it did not give).
void readPart(FastPieceReader& reader, simdjson::ondemand::parser& parser, std::string_view piece, EventBatch& batch,
              PartsRead& read, size_t bytes);

// An event just read from `piece` into batch.events: its Input Dims made canonical
// (canonicalJson, `scratch` its buffer) and its strings that are not the piece's bytes kept in
// batch.text.
void keepEvent(Event& e, EventBatch& batch, std::string_view piece, std::string& scratch);

}  // namespace lanescope::kineto
