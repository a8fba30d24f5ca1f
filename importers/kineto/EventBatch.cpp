// Parsing one piece of a Kineto trace's events into a batch that owns its strings.
#include "importers/kineto/EventBatch.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>

#include "importers/kineto/FastEventReader.h"

namespace lanescope::kineto {

namespace od = simdjson::ondemand;

std::string_view TextArena::keep(std::string_view text) {
    if (text.empty()) return {};
    if (text.size() > kBlockBytes) {
        large_.push_back(std::make_unique_for_overwrite<char[]>(text.size()));
        std::memcpy(large_.back().get(), text.data(), text.size());
        return {large_.back().get(), text.size()};
    }
    if (inUse_ == 0 || used_ + text.size() > kBlockBytes) {
        if (inUse_ == blocks_.size()) blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockBytes));
        ++inUse_;
        used_ = 0;
    }
    char* at = blocks_[inUse_ - 1].get() + used_;
    std::memcpy(at, text.data(), text.size());
    used_ += text.size();
    return {at, text.size()};
}

void TextArena::clear() {
    large_.clear();
    inUse_ = 0;
    used_ = 0;
}

void EventBatch::clear() {
    events.clear();
    text.clear();
    notObjects = 0;
    error = simdjson::SUCCESS;
    outOfMemory = false;
    fileBytes = 0;
    eventsBySimdjson = 0;
    pieceBySimdjson = false;
    lastPart = true;
    overCounted = 0;
}

void keepEvent(Event& e, EventBatch& batch, std::string_view piece, std::string& scratch) {
    if (!e.inputDims.empty()) e.inputDims = canonicalJson(e.inputDims, scratch);
    // Kept unless empty or the piece's own bytes.
    const auto begin = reinterpret_cast<uintptr_t>(piece.data()), end = begin + piece.size();
    const auto keep = [&](std::string_view& s) {
        const auto at = reinterpret_cast<uintptr_t>(s.data());
        if (!s.empty() && (at < begin || at + s.size() > end)) s = batch.text.keep(s);
    };
    for (std::string_view* s : {&e.cat, &e.name, &e.pidText, &e.tidText, &e.argName, &e.inputDims, &e.comms.name,
                                &e.comms.dtype, &e.comms.groupName, &e.comms.groupRanks})
        keep(*s);
    for (auto& [series, value] : e.counterValues) keep(series);
}

void parsePiece(od::parser& parser, std::string_view piece, EventBatch& batch) {
    if (parsePieceFast(parser, piece, batch)) return;
    parsePieceWithSimdjson(parser, piece, batch);
    batch.pieceBySimdjson = true;
}

void parsePieceWithSimdjson(od::parser& parser, std::string_view piece, EventBatch& batch) {
    batch.clear();
    try {
        std::string canonical;  // scratch for canonicalJson
        od::document doc = parser.iterate(piece.data(), piece.size(), piece.size() + simdjson::SIMDJSON_PADDING);
        for (auto element : doc.get_array()) {
            od::value ev = element.value();
            if (ev.type() != od::json_type::object) {
                ++batch.notObjects;
                continue;
            }
            const size_t read = batch.events.size();
            try {
                readEvent(ev.get_object(), batch.events.emplace_back());
            } catch (...) {
                batch.events.resize(read);  // the event read in part
                throw;
            }
            keepEvent(batch.events.back(), batch, piece, canonical);
        }
    } catch (const simdjson::simdjson_error& e) {
        batch.error = e.error();
    } catch (const std::bad_alloc&) {
        batch.outOfMemory = true;
    }
}

void readPart(FastPieceReader& reader, od::parser& parser, std::string_view piece, EventBatch& batch, PartsRead& read,
              size_t bytes) {
    if (!read.declined) {
        const FastPieceReader::Result result = reader.readPart(batch, bytes);
        if (result != FastPieceReader::Result::Declined) {
            batch.lastPart = result == FastPieceReader::Result::Done;
            read.events += batch.events.size();
            read.notObjects += batch.notObjects;
            return;
        }
        read.declined = true;
    }
    parsePieceWithSimdjson(parser, piece, batch);
    batch.pieceBySimdjson = true;
    batch.lastPart = true;
    try {
        // The parts handed over hold simdjson's first events and non-objects (or, with an
        // error, perhaps more than it gave).
        if (batch.events.size() >= read.events) {
            batch.events.erase(batch.events.begin(), batch.events.begin() + static_cast<ptrdiff_t>(read.events));
        } else {
            batch.overCounted = read.events - batch.events.size();
            batch.events.clear();
        }
    } catch (const std::bad_alloc&) {
        batch.outOfMemory = true;
    }
    batch.notObjects -= std::min(batch.notObjects, read.notObjects);
}

}  // namespace lanescope::kineto
