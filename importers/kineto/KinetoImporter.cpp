#include "importers/kineto/KinetoImporter.h"

#include <simdjson.h>

#include <algorithm>
#include <new>
#include <string>
#include <thread>

#include "importers/kineto/BlockReader.h"
#include "importers/kineto/JsonEventStream.h"
#include "importers/kineto/KinetoBuilder.h"
#include "importers/kineto/PiecePipeline.h"
#include "model/DiagnosticKinds.h"

namespace lanescope {
namespace {

namespace od = simdjson::ondemand;

ImportError fail(ImportError::Kind kind, const std::filesystem::path& path, const std::string& why) {
    return {kind, path.string() + ": " + why};
}

using kineto::Builder;
using kineto::Event;
using kineto::toInt;

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Reads the keys of the header (the document outside the events array, with "traceEvents": [])
// that the report keeps: schemaVersion, baseTimeNanoseconds, distributedInfo.rank and the GPU
// names of deviceProperties.
void readHeader(od::document& doc, Report& report, Builder& builder) {
    for (auto field : doc.get_object()) {
        const std::string_view key = field.unescaped_key();
        od::value v = field.value();
        if (key == "schemaVersion") {
            std::string_view raw = v.raw_json_token();
            while (!raw.empty() && isSpace(raw.back())) raw.remove_suffix(1);
            if (!raw.empty() && raw.front() == '"') raw = raw.substr(1, raw.size() >= 2 ? raw.size() - 2 : 0);
            report.meta.version = std::string(raw);
        } else if (key == "baseTimeNanoseconds") {
            report.meta.start_utc_ns = toInt(v);
        } else if (key == "distributedInfo" && v.type() == od::json_type::object) {
            for (auto f : v.get_object())
                if (f.unescaped_key().value() == "rank") report.meta.rank = static_cast<int>(toInt(f.value()));
        } else if (key == "deviceProperties" && v.type() == od::json_type::array) {
            for (auto d : v.get_array()) {
                od::value dv = d.value();
                if (dv.type() != od::json_type::object) continue;
                int64_t id = -1;
                std::string name;
                for (auto f : dv.get_object()) {
                    const std::string_view k = f.unescaped_key();
                    if (k == "id")
                        id = toInt(f.value());
                    else if (k == "name" && f.value().type() == od::json_type::string)
                        name = std::string(std::string_view(f.value().get_string()));
                }
                if (id >= 0 && !name.empty()) builder.nameGpu(id, report.strings.intern(name));
            }
        }
    }
}

// The one-line error of a stream that stopped before its end.
ImportError streamError(kineto::JsonEventStream::Status status, const std::filesystem::path& path,
                        const kineto::BlockReader& reader, const kineto::JsonEventStream& stream, uint64_t events,
                        const kineto::StreamSizes& sizes) {
    using Status = kineto::JsonEventStream::Status;
    const std::string json = reader.compressed() ? "inflated JSON" : "JSON";
    switch (status) {
        case Status::NotObject:
            return fail(ImportError::Kind::UnknownFormat, path,
                        "not a Chrome/Kineto trace: the JSON is neither an object nor an array");
        case Status::NoEvents:  // either no such key or a document cut short before it
            return fail(ImportError::Kind::UnknownFormat, path, "not a Chrome/Kineto trace: no traceEvents array");
        case Status::Unterminated:
            return fail(ImportError::Kind::Corrupt, path,
                        json +
                            " ends inside the traceEvents array: the file is cut short, or a quote or bracket in it "
                            "is damaged (" +
                            std::to_string(stream.bytesRead()) + " bytes, " + std::to_string(events) + " events read)");
        case Status::Unbalanced:
            return fail(
                ImportError::Kind::Corrupt, path,
                json + " is invalid (a '}' closes the traceEvents array) after " + std::to_string(events) + " events");
        case Status::TooLarge:
            return fail(ImportError::Kind::Corrupt, path,
                        json + " has over " + std::to_string(sizes.text_limit >> 20) +
                            " MiB outside the traceEvents array, or in one event");
        case Status::ReadError:
        default:
            return fail(reader.compressed() ? ImportError::Kind::Corrupt : ImportError::Kind::Unreadable, path,
                        reader.error());
    }
}

ImportError cancelled() { return {ImportError::Kind::Cancelled, "import cancelled"}; }

}  // namespace

bool KinetoImporter::canRead(std::string_view head, const std::filesystem::path&) const {
    if (kineto::isGzip(head)) return true;
    size_t i = 0;
    if (head.starts_with("\xEF\xBB\xBF")) i = 3;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
    if (i >= head.size()) return false;
    if (head[i] == '[') {  // the JSON Array Format: an array of events, each with a phase
        ++i;
        while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
        return i < head.size() && head[i] == '{' && head.find("\"ph\"") != std::string_view::npos;
    }
    if (head[i] != '{') return false;
    return head.find("\"traceEvents\"") != std::string_view::npos ||
           head.find("\"schemaVersion\"") != std::string_view::npos ||
           head.find("\"displayTimeUnit\"") != std::string_view::npos;
}

namespace {

// The report (of format `format`) of the trace that `reader` opened.
ImportResult readTrace(const std::filesystem::path& path, std::string_view format, kineto::BlockReader& reader,
                       const kineto::StreamSizes& sizes, const ImportOptions& options, ProgressSink& progress,
                       std::stop_token stop) {
    using Status = kineto::JsonEventStream::Status;
    auto report = std::make_unique<Report>();
    report->meta.format = std::string(format);
    report->meta.producer = "PyTorch Profiler (Kineto)";
    report->meta.source_path = path.string();
    Builder builder(*report);

    // The events come in pieces of whole events ("[...]" documents of about 1 MiB), so that
    // simdjson's index stays small and memory holds a few pieces; they are parsed and built in
    // file order on options.threads threads (this one among them); the header is parsed last.
    kineto::JsonEventStream stream(reader, sizes, simdjson::SIMDJSON_PADDING);
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    if (threads > 1) reader.inflateAhead(sizes.inflate_chunk);  // gzip: inflated beside the parsing
    od::parser parser;
    // How the building stopped early, but for a stop: out of memory, or at invalid JSON after
    // `overCounted` events more than simdjson, reading the piece whole, gave.
    bool outOfMemory = false;
    simdjson::error_code invalid = simdjson::SUCCESS;
    uint64_t overCounted = 0;
    // One part at a time, in file order, on whichever of the threads; false stops the import.
    auto build = [&](kineto::EventBatch& batch) {
        if (stop.stop_requested()) return false;
        try {
            for (Event& e : batch.events) {
                builder.add(e);
                if ((builder.events & 0xFFFF) == 0 && stop.stop_requested()) return false;
            }
            if (batch.notObjects) countDiagnostic(report->diagnostics, Diag::JsonEventNotAnObject, batch.notObjects);
        } catch (const std::bad_alloc&) {
            outOfMemory = true;
            return false;
        }
        if (batch.error) {
            invalid = batch.error;
            overCounted = batch.overCounted;
            return false;
        }
        if (batch.outOfMemory) {
            outOfMemory = true;
            return false;
        }
        progress.progress("events", batch.fileBytes, reader.fileSize());
        return true;
    };
    try {
        kineto::PiecePipeline pieces(stream, reader, threads, stop);
        pieces.run(build);
        if (stop.stop_requested()) return cancelled();
        if (invalid) throw simdjson::simdjson_error(invalid);
        if (outOfMemory || pieces.outOfMemory()) throw std::bad_alloc();
        if (pieces.endStatus() != Status::End)
            return streamError(pieces.endStatus(), path, reader, stream, builder.events, sizes);
        simdjson::padded_string header(stream.header());
        od::document doc = parser.iterate(header);
        readHeader(doc, *report, builder);
    } catch (const simdjson::simdjson_error& e) {
        return fail(ImportError::Kind::Corrupt, path,
                    std::string(reader.compressed() ? "inflated " : "") + "JSON is invalid (" +
                        simdjson::error_message(e.error()) + ") after " + std::to_string(builder.events - overCounted) +
                        " events");
    } catch (const std::bad_alloc&) {
        return fail(ImportError::Kind::Unreadable, path, "not enough memory to read the file");
    }

    if (stop.stop_requested()) return cancelled();
    progress.progress("building lanes", 0, 0);
    builder.finish();
    return ImportResult(std::move(report));
}

}  // namespace

ImportResult KinetoImporter::import(const std::filesystem::path& path, const ImportOptions& options,
                                    ProgressSink& progress, std::stop_token stop) const {
    progress.progress("reading", 0, 0);
    kineto::BlockReader reader;
    if (!reader.open(path)) return fail(ImportError::Kind::Unreadable, path, reader.error());
    ImportResult result = readTrace(path, formatName(), reader, sizes_, options, progress, stop);
    // Cut short on disk while it was read (the profiler writing it again, say): what was read
    // past the cut was zeros, so whatever the read gave is not the file's.
    if (reader.cutShort() && (result.ok() || result.error().kind != ImportError::Kind::Cancelled))
        return fail(ImportError::Kind::Unreadable, path,
                    "the file was cut short on disk while it was being read (it had " +
                        std::to_string(reader.fileSize()) + " bytes when opened)");
    return result;
}

}  // namespace lanescope
