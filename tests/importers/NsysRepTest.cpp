#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <stop_token>
#include <thread>

#include "Absent.h"
#include "ImportHelpers.h"
#include "importers/nsys/NsysLocator.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::filesystem::path script(const std::filesystem::path& dir, const std::string& name, const std::string& body) {
    const auto path = dir / name;
    std::ofstream(path) << "#!/bin/sh\n" << body;
    ::chmod(path.c_str(), 0755);
    return path;
}

long lineCount(const std::filesystem::path& file) {
    const std::string text = readFile(file);
    return std::count(text.begin(), text.end(), '\n');
}

size_t filesIn(const std::filesystem::path& dir) {
    size_t n = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(dir);
         it != std::filesystem::recursive_directory_iterator(); ++it)
        n += it->is_regular_file();
    return n;
}

// Processes of a process group still running (zombies waiting for a parent do not count).
int liveInGroup(long group) {
    int live = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        const size_t close = line.rfind(')');  // the name in parentheses may hold spaces
        if (close == std::string::npos) continue;
        std::istringstream fields(line.substr(close + 2));
        char state = 0;
        long parent = 0, pgrp = 0;
        fields >> state >> parent >> pgrp;
        live += pgrp == group && state != 'Z';
    }
    return live;
}

long readPid(const std::filesystem::path& file) {
    long pid = 0;
    std::ifstream(file) >> pid;
    return pid;
}

}  // namespace

TEST_CASE(".nsys-rep through a stand-in nsys: conversion, cache, awkward paths, errors") {
    const auto dir = tempDir("nsysrep");
    const auto cache = dir / "cache";
    const auto inputs = dir / "in put";
    std::filesystem::create_directories(inputs);
    // A path with spaces, quotes, a leading dash and non-ASCII letters.
    const auto report = inputs / "-my 'report' \"ü\".nsys-rep";
    std::filesystem::copy_file(dataFile("nsys-2025.3/train_1gpu.nsys-rep"), report);
    const auto converted = dataFile("nsys-2025.3/train_1gpu.sqlite");
    ImportOptions options;
    options.nsys_reader = NsysReader::NsysExport;  // the fallback through nsys, tested with stand-ins
    options.cache_dir = cache;

    SECTION("nsys missing") {
        options.nsys_path = dir / "no-such-nsys";
        const auto e = importError(report, options);
        CHECK(e.kind == ImportError::Kind::NsysMissing);
        CHECK(e.message.starts_with(report.string() +
                                    ": opening .nsys-rep needs Nsight Systems' nsys, which was not found"));
        CHECK(e.message.find("nsys export --type=sqlite") != std::string::npos);
    }
    SECTION("nsys older than the report") {
        options.nsys_path =
            script(dir, "old-nsys", "echo 'Exportation error: Version not supported: 36398880' >&2\nexit 1\n");
        const auto e = importError(report, options);
        CHECK(e.kind == ImportError::Kind::NsysTooOld);
        CHECK(e.message.find("this report is newer than") != std::string::npos);
        CHECK(e.message.find("install a newer Nsight Systems") != std::string::npos);
        CHECK(e.message.find("Version not supported") != std::string::npos);
    }
    SECTION("nsys crashing") {
        options.nsys_path = script(dir, "crashing-nsys", "kill -SEGV $$\n");
        const auto e = importError(report, options);
        CHECK(e.kind == ImportError::Kind::NsysFailed);
        CHECK(e.message.find("(crashed)") != std::string::npos);
    }
    SECTION("nsys hanging is stopped after the timeout and leaves nothing behind") {
        options.nsys_path = script(dir, "hanging-nsys", "sleep 30\n");
        options.nsys_timeout_s = 1;
        const auto started = std::chrono::steady_clock::now();
        const auto e = importError(report, options);
        CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
        CHECK(e.kind == ImportError::Kind::NsysFailed);
        CHECK(e.message.find("took longer than 1 s") != std::string::npos);
        CHECK(filesIn(cache) == 0);
    }
    SECTION("nsys crashing after writing part of its output leaves no file in the cache") {
        options.nsys_path =
            script(dir, "half-nsys",
                   "for a in \"$@\"; do case \"$a\" in --output=*) out=\"${a#--output=}\";; esac; done\n"
                   "head -c 5000 '" +
                       converted.string() + "' > \"$out\"\nkill -SEGV $$\n");
        const auto e = importError(report, options);
        CHECK(e.kind == ImportError::Kind::NsysFailed);
        CHECK(e.message.find("(crashed)") != std::string::npos);
        CHECK(filesIn(cache) == 0);
    }
    SECTION("a hanging nsys is ended with everything it started, even when it ignores SIGTERM") {
        const auto pidFile = dir / "pid";
        // The ignored SIGTERM is inherited by sleep; only the SIGKILL 2 s later ends them.
        options.nsys_path =
            script(dir, "stubborn-nsys", "trap '' TERM\necho $$ > '" + pidFile.string() + "'\nsleep 1000\n");
        options.nsys_timeout_s = 1;
        const auto started = std::chrono::steady_clock::now();
        const auto e = importError(report, options);
        const auto took = std::chrono::steady_clock::now() - started;
        CHECK(took >= std::chrono::seconds(3));  // 1 s, then SIGTERM ignored for 2 s
        CHECK(took < std::chrono::seconds(8));
        CHECK(e.kind == ImportError::Kind::NsysFailed);
        CHECK(e.message.find("took longer than 1 s and was stopped") != std::string::npos);
        REQUIRE(readPid(pidFile) > 0);
        CHECK(liveInGroup(readPid(pidFile)) == 0);
        CHECK(filesIn(cache) == 0);
    }
    SECTION("Cancel during a hanging nsys ends it within a second and leaves nothing behind") {
        const auto pidFile = dir / "pid";
        options.nsys_path = script(dir, "hanging-nsys", "echo $$ > '" + pidFile.string() + "'\nsleep 1000\n");
        std::stop_source stop;
        std::jthread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            stop.request_stop();
        });
        NullProgress progress;
        const auto started = std::chrono::steady_clock::now();
        ImportResult result = importFile(report, options, progress, stop.get_token());
        CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(1300));
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().kind == ImportError::Kind::Cancelled);
        REQUIRE(readPid(pidFile) > 0);
        CHECK(liveInGroup(readPid(pidFile)) == 0);
        CHECK(filesIn(cache) == 0);
    }
    SECTION("a converted report too big for the memory available is refused under its own name") {
        const auto calls = dir / "calls.txt";
        options.nsys_path =
            script(dir, "copy-nsys",
                   "echo >> '" + calls.string() +
                       "'\n"
                       "for a in \"$@\"; do case \"$a\" in --output=*) out=\"${a#--output=}\";; esac; done\n"
                       "cp '" +
                       converted.string() + "' \"$out\"\n");
        options.memory_limit_bytes = 1 << 20;
        for (int attempt = 0; attempt < 2; ++attempt) {  // converted once, then refused from the cache
            const auto e = importError(report, options);
            CHECK(e.kind == ImportError::Kind::TooBig);
            CHECK(e.message.starts_with(report.string() + ": needs about "));
            CHECK(e.message.find("1.0 MB is available") != std::string::npos);
        }
        CHECK(lineCount(calls) == 1);
        CHECK(filesIn(cache) == 1);
    }
    SECTION("conversion is cached by content and rebuilt when damaged or changed") {
        const auto calls = dir / "calls.txt";
        // Stand-in: records its arguments, then "exports" by copying the real SQLite export.
        options.nsys_path =
            script(dir, "fake-nsys",
                   "for a in \"$@\"; do last=\"$a\"; done\n"
                   "printf '%s|%s\\n' \"$#\" \"$last\" >> '" +
                       calls.string() +
                       "'\n"
                       "for a in \"$@\"; do case \"$a\" in --output=*) out=\"${a#--output=}\";; esac; done\n"
                       "cp '" +
                       converted.string() + "' \"$out\"\n");
        const auto listingBefore = filesIn(inputs);
        const auto hashBefore = fileHash(report);
        auto r = importOk(report, options);
        CHECK(r->meta.format == "nsys-rep");
        CHECK(r->meta.source_path == report.string());
        CHECK(r->counts().kernels == 1950);
        auto log = readFile(calls);
        CHECK(log == "5|" + std::filesystem::absolute(report).string() + "\n");  // one argument, no shell

        importOk(report, options);  // served from the cache
        CHECK(readFile(calls) == log);

        for (const auto& entry : std::filesystem::directory_iterator(cache / "nsys-export"))
            std::filesystem::resize_file(entry.path(), 4096);  // damage the cache entry
        CHECK(importOk(report, options)->counts().kernels == 1950);
        CHECK(lineCount(calls) == 2);

        CHECK(fileHash(report) == hashBefore);
        CHECK(filesIn(inputs) == listingBefore);  // nothing written beside the input

        std::ofstream(report, std::ios::app) << "x";  // a changed report is converted anew
        importOk(report, options);
        CHECK(lineCount(calls) == 3);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("the installed nsys, when there is one, converts its own reports or says it is too old") {
    const auto nsys = locateNsys({});
    if (nsys.empty()) {
        LANESCOPE_SKIP_ABSENT("nsys (LANESCOPE_WITH_NSYS=1 ./test installs it)");
    }
    const auto dir = tempDir("realnsys");
    ImportOptions options;
    options.nsys_reader = NsysReader::NsysExport;
    options.cache_dir = dir;
    const auto fromRep = importOk(dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep"), options);
    const auto fromSqlite = importOk(dataFile("nsys-2022.4/cpu_nvtx_threads.sqlite"));
    CHECK(fromRep->counts().nvtx == fromSqlite->counts().nvtx);
    CHECK(fromRep->counts().osrt == fromSqlite->counts().osrt);
    CHECK(fromRep->meta.reader == "nsys-export");
    CHECK(fromRep->meta.nsys_version.starts_with("2022.4"));

    NullProgress progress;
    ImportResult newer = importFile(dataFile("nsys-2025.3/train_1gpu.nsys-rep"), options, progress);
    if (newer.ok()) {
        CHECK(newer.report()->counts().kernels == 1950);
    } else {
        CHECK(newer.error().kind == ImportError::Kind::NsysTooOld);
        INFO(newer.error().message);
        CHECK(newer.error().message.find("install a newer Nsight Systems") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}
