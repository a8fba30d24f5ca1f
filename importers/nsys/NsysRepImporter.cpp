#include "importers/nsys/NsysRepImporter.h"

#include <unistd.h>

#include <atomic>
#include <system_error>

#include "importers/ContentHash.h"
#include "importers/MemoryEstimate.h"
#include "importers/Subprocess.h"
#include "importers/nsys/NsysLocator.h"
#include "importers/nsys/NsysSqliteImporter.h"
#include "importers/nsysrep/NativeReader.h"

namespace lanescope {
namespace {

ImportError fail(ImportError::Kind kind, const std::filesystem::path& path, const std::string& why) {
    return {kind, path.string() + ": " + why};
}

std::string lastLine(const std::string& text) {
    size_t end = text.find_last_not_of(" \r\n\t");
    if (end == std::string::npos) return "no output";
    size_t begin = text.find_last_of('\n', end);
    return text.substr(begin == std::string::npos ? 0 : begin + 1,
                       end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

// nsys older than the report says "Version not supported", "Version number is invalid" or
// fails to parse the report's protobuf.
bool saysTooOld(const std::string& output) {
    for (const char* sign :
         {"Version not supported", "Version number is invalid", "protobuf", "Failed to parse", "newer version"})
        if (output.find(sign) != std::string::npos) return true;
    return false;
}

ImportResult importConverted(const std::filesystem::path& sqlite, const std::filesystem::path& original,
                             const ImportOptions& options, ProgressSink& progress, std::stop_token stop) {
    if (auto tooBig = refuseIfTooBig(NsysSqliteImporter().estimateMemory(sqlite), options, original)) return *tooBig;
    // The original file, also in the skeletons the viewer draws while it loads.
    return NsysSqliteImporter().import(sqlite, options, progress, stop, [&original](Metadata& meta) {
        meta.format = "nsys-rep";
        meta.source_path = original.string();
        meta.reader = "nsys-export";
        meta.nsys_version = nsysrep::recordedVersion(original);
    });
}

}  // namespace

bool NsysRepImporter::canRead(std::string_view head, const std::filesystem::path& path) const {
    const auto ext = path.extension();
    return head.starts_with("NVIDIA Tegra Profiler Report") || ext == ".nsys-rep" || ext == ".qdrep";
}

// None before the reader is known: each reader refuses by its own estimate (the native one by
// the events the file's index counts, the nsys one by the converted SQLite file).
MemoryEstimate NsysRepImporter::estimateMemory(const std::filesystem::path&) const { return {}; }

ImportResult NsysRepImporter::import(const std::filesystem::path& path, const ImportOptions& options,
                                     ProgressSink& progress, std::stop_token stop) const {
    if (options.nsys_reader == NsysReader::Native) {
        if (auto tooBig = refuseIfTooBig(nsysrep::estimateNative(path), options, path)) return *tooBig;
        return nsysrep::importNative(path, options, progress, stop);
    }
    if (nsysForbidden())
        return fail(ImportError::Kind::NsysMissing, path,
                    "reading it through nsys export was asked for, but LANESCOPE_NSYS=off forbids running Nsight "
                    "Systems; open it with the native reader instead");
    return importThroughNsys(path, options, progress, stop);
}

ImportResult NsysRepImporter::importThroughNsys(const std::filesystem::path& path, const ImportOptions& options,
                                                ProgressSink& progress, std::stop_token stop) const {
    progress.progress("checking the conversion cache", 0, 0);
    const auto key = contentKey(path, stop);
    if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    if (!key) return fail(ImportError::Kind::Unreadable, path, "cannot be read");

    const std::filesystem::path cacheDir =
        (options.cache_dir.empty() ? defaultCacheDir() : options.cache_dir) / "nsys-export";
    const std::filesystem::path cached = cacheDir / (*key + ".sqlite");
    std::error_code ec;
    if (std::filesystem::exists(cached, ec)) {
        ImportResult result = importConverted(cached, path, options, progress, stop);
        const auto kind = result.ok() ? ImportError::Kind::Corrupt : result.error().kind;
        if (result.ok() || kind == ImportError::Kind::Cancelled || kind == ImportError::Kind::TooBig) return result;
        std::filesystem::remove(cached, ec);  // a damaged cache entry: convert again
    }

    const std::filesystem::path nsys = locateNsys(options.nsys_path);
    if (nsys.empty())
        return fail(ImportError::Kind::NsysMissing, path,
                    "opening .nsys-rep needs Nsight Systems' nsys, which was not found; install Nsight Systems "
                    "(or set LANESCOPE_NSYS to its nsys), or run 'nsys export --type=sqlite' where the report "
                    "was made and open the .sqlite");

    std::filesystem::create_directories(cacheDir, ec);
    if (ec)
        return fail(ImportError::Kind::Unreadable, path,
                    "cannot create cache folder " + cacheDir.string() + ": " + ec.message());
    static std::atomic<unsigned> counter{0};
    const std::filesystem::path temp =
        cacheDir / (*key + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".sqlite");

    progress.progress("converting with nsys export", 0, 0);
    const SubprocessResult run = runSubprocess({nsys.string(), "export", "--type=sqlite", "--force-overwrite=true",
                                                "--output=" + temp.string(), std::filesystem::absolute(path).string()},
                                               std::chrono::seconds(options.nsys_timeout_s), stop);
    auto cleanup = [&] { std::filesystem::remove(temp, ec); };

    if (run.cancelled) {
        cleanup();
        return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    }
    if (!run.started) return fail(ImportError::Kind::NsysFailed, path, "cannot run " + nsys.string());
    if (run.timed_out) {
        cleanup();
        return fail(ImportError::Kind::NsysFailed, path,
                    nsys.string() + " export took longer than " + std::to_string(options.nsys_timeout_s) +
                        " s and was stopped");
    }
    if (run.exit_code != 0 || !std::filesystem::exists(temp, ec)) {
        cleanup();
        if (saysTooOld(run.output))
            return fail(ImportError::Kind::NsysTooOld, path,
                        "this report is newer than " + nsys.string() + " can read (" + lastLine(run.output) +
                            "); install a newer Nsight Systems, or export to SQLite where the report was made");
        return fail(ImportError::Kind::NsysFailed, path,
                    nsys.string() + " export failed" +
                        (run.signalled ? std::string(" (crashed)") : " (exit " + std::to_string(run.exit_code) + ")") +
                        ": " + lastLine(run.output));
    }
    std::filesystem::rename(temp, cached, ec);
    if (ec) {
        cleanup();
        return fail(ImportError::Kind::Unreadable, path, "cannot store the converted report: " + ec.message());
    }
    return importConverted(cached, path, options, progress, stop);
}

}  // namespace lanescope
