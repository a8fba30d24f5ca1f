#pragma once
#include <simdjson.h>

#include <cstdint>
#include <memory>
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
// once); their strings live in `text`, so the batch outlives the piece and the parser.
struct EventBatch {
    std::vector<Event> events;
    TextArena text;
    uint64_t notObjects = 0;                         // elements of the piece that were not objects
    simdjson::error_code error = simdjson::SUCCESS;  // the JSON is invalid after `events`
    bool outOfMemory = false;                        // parsing ran out of memory after `events`
    uint64_t fileBytes = 0;                          // of the file read when the piece was cut

    void clear();
};

// Parses a piece ("[event, ...]" with simdjson's padding readable after it) into `batch`,
// as the events are read in file order; an invalid document stops it with `error` set.
void parsePiece(simdjson::ondemand::parser& parser, std::string_view piece, EventBatch& batch);

}  // namespace lanescope::kineto
