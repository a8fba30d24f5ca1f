#include <fstream>
#include <new>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

#include "importers/FinishReport.h"
#include "importers/Importer.h"
#include "importers/MemoryEstimate.h"
#include "importers/kineto/KinetoImporter.h"
#include "importers/nsys/NsysRepImporter.h"
#include "importers/nsys/NsysSqliteImporter.h"
#include "importers/perfetto/PerfettoImporter.h"

namespace lanescope {
namespace {

const std::vector<const Importer*>& importers() {
    static const KinetoImporter kineto;
    static const NsysSqliteImporter sqlite;
    static const NsysRepImporter rep;
    static const PerfettoImporter perfetto;  // after the SQLite and nsys-rep importers
    static const std::vector<const Importer*> all = {&kineto, &sqlite, &rep, &perfetto};
    return all;
}

// Errors are one line: whitespace runs (a SQLite message may quote a whole CREATE TABLE)
// fold into one space, and very long messages are cut.
ImportError oneLine(ImportError error) {
    std::string folded;
    bool space = false;
    for (char c : error.message) {
        const bool blank = c == '\n' || c == '\r' || c == '\t' || c == ' ';
        if (blank) {
            space = !folded.empty();
            continue;
        }
        if (space) folded += ' ';
        space = false;
        folded += c;
    }
    constexpr size_t kMaxLength = 400;
    if (folded.size() > kMaxLength) folded = folded.substr(0, kMaxLength - 3) + "...";
    error.message = std::move(folded);
    return error;
}

// The archive or compressor whose magic bytes start `head`, for a file no importer reads (a
// gzip-compressed trace is read as such): "xz", "zstd", "bzip2", "zip", "7z"; empty for none.
std::string_view compressedWith(std::string_view head) {
    using namespace std::string_view_literals;
    static constexpr std::pair<std::string_view, std::string_view> kMagic[] = {{"\xFD\x37zXZ\0"sv, "xz"},
                                                                               {"\x28\xB5\x2F\xFD"sv, "zstd"},
                                                                               {"BZh"sv, "bzip2"},
                                                                               {"PK\x03\x04"sv, "zip"},
                                                                               {"7z\xBC\xAF\x27\x1C"sv, "7z"}};
    for (const auto& [magic, name] : kMagic)
        if (head.starts_with(magic)) return name;
    return {};
}

ImportResult importOne(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                       std::stop_token stop) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return ImportError{ImportError::Kind::NotFound, path.string() + ": no such file"};
    if (!std::filesystem::is_regular_file(status))
        return ImportError{ImportError::Kind::NotFound, path.string() + ": not a regular file"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return ImportError{ImportError::Kind::Unreadable, path.string() + ": cannot be read (permission denied?)"};
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (head.empty()) return ImportError{ImportError::Kind::Empty, path.string() + ": empty file"};

    for (const Importer* importer : importers()) {
        if (!importer->canRead(head, path)) continue;
        if (auto tooBig = refuseIfTooBig(importer->estimateMemory(path), options, path)) return *tooBig;
        return importer->import(path, options, progress, stop);
    }
    if (const std::string_view archive = compressedWith(head); !archive.empty())
        return ImportError{ImportError::Kind::UnknownFormat, path.string() + ": compressed with " +
                                                                 std::string(archive) +
                                                                 ": decompress it first, then open the report inside"};
    return ImportError{ImportError::Kind::UnknownFormat,
                       path.string() +
                           ": unknown format (expected an Nsight Systems report or SQLite export, a PyTorch profiler / "
                           "Chrome trace JSON, or a Perfetto trace)"};
}

}  // namespace

MemoryEstimate estimateImportMemory(const std::filesystem::path& path, std::string_view format) {
    for (const Importer* importer : importers())
        if (importer->formatName() == format) return importer->estimateMemory(path);
    return {};
}

ImportResult importFile(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                        std::stop_token stop) {
    // Whatever an importer throws ends this import, not the program: running out of memory
    // part-way (the estimate is an estimate) or a length beyond what a container can hold.
    try {
        ImportResult result = importOne(path, options, progress, stop);
        if (!result.ok()) return oneLine(result.error());
        if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
        progress.progress("building lanes", 0, 0);
        finishReport(*result.report(), options.threads, options.add_view_lanes);
        if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
        return result;
    } catch (const std::bad_alloc&) {
        return ImportError{ImportError::Kind::TooBig, path.string() + ": ran out of memory while opening it (" +
                                                          humanBytes(availableMemory(options)) +
                                                          " was available at the start)"};
    } catch (const std::length_error&) {
        return ImportError{ImportError::Kind::TooBig,
                           path.string() + ": too big to open (a size beyond what memory can hold)"};
    } catch (const std::exception& e) {
        return oneLine({ImportError::Kind::Corrupt, path.string() + ": cannot be opened: " + e.what()});
    }
}

}  // namespace lanescope
