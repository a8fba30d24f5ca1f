#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "Absent.h"
#include "TestPaths.h"

using namespace lanescope::test;

namespace {

struct Run {
    int status;
    std::string out;
    std::string err;
};

// Runs lanescope-cli with the given arguments (each single-quoted for sh).
Run cli(const std::string& args) {
    const auto errFile = tempDir("cli") / "stderr.txt";
    const std::string command = std::string("'") + LANESCOPE_CLI + "' " + args + " 2>'" + errFile.string() + "'";
    FILE* pipe = ::popen(command.c_str(), "r");
    std::string out;
    std::array<char, 65536> buf{};
    for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), n);
    const int status = ::pclose(pipe);
    return {WEXITSTATUS(status), out, readFile(errFile)};
}

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace

TEST_CASE("lanescope-cli info --format json has the keys CLI.md lists") {
    const auto r = cli("info " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --format json");
    REQUIRE(r.status == 0);
    for (const char* key :
         {"\"format\": \"nsys-sqlite\"", "\"producer\": \"NVIDIA Nsight Systems\"", "\"version\": \"2025.3.2.0\"",
          "\"start_utc_ns\": 1795316027191150611", "\"duration_ns\": ", "\"processes\": [", "\"gpus\": [",
          "\"diagnostics\": {", "\"kernels\": 1950", "\"memcpy\": 90", "\"memset\": 135", "\"cuda_api\": 4067",
          "\"nvtx\": 120", "\"osrt\": 73", "\"nccl\": 0", "\"slices\": ", "\"instants\": 1", "\"counter_samples\": 0",
          "\"name\": \"NVIDIA H200\""})
        CHECK(r.out.find(key) != std::string::npos);
}

TEST_CASE("lanescope-cli info counts today's kinds and lists Nsight's own messages, natively and from the export") {
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        const auto graphs =
            cli("info " + quoted(dataFile(std::string("nsys-2025.3/cuda_graphs") + ext)) + " --format json");
        REQUIRE(graphs.status == 0);
        CHECK(graphs.out.find("\"graph_executions\": 40") != std::string::npos);
        CHECK(graphs.out.find("\"cuda_events\": 12") != std::string::npos);
        CHECK(graphs.out.find("\"nsys_messages\": [") != std::string::npos);
        CHECK(graphs.out.find("\"text\": \"Profiling has started.\"") != std::string::npos);
        CHECK(graphs.out.find("\"severity\": \"warning\"") != std::string::npos);
        const auto um =
            cli("info " + quoted(dataFile(std::string("nsys-2025.3/unified_memory") + ext)) + " --format json");
        REQUIRE(um.status == 0);
        CHECK(um.out.find("\"um_cpu_page_faults\": 960") != std::string::npos);
        CHECK(um.out.find("\"um_gpu_page_faults\": 421") != std::string::npos);
        const auto table = cli("info " + quoted(dataFile(std::string("nsys-2025.3/cuda_graphs") + ext)));
        CHECK(table.out.find("Nsight Systems messages") != std::string::npos);
        CHECK(table.out.find("Not all CUDA events might have been collected.") != std::string::npos);
    }
}

TEST_CASE("lanescope-cli --verbose says how an .nsys-rep was read") {
    const auto r = cli("--verbose info " + quoted(dataFile("nsys-2025.3/train_1gpu.nsys-rep")) + " --format json");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"reader\": \"native\"") != std::string::npos);
    CHECK(r.err.find("read natively") != std::string::npos);
    CHECK(r.err.find("converted through nsys export") == std::string::npos);
}

TEST_CASE("lanescope-cli stats --format csv is byte-identical to nsys stats") {
    for (const char* report : {"cuda_gpu_kern_sum", "cuda_api_sum", "nvtx_sum", "cuda_gpu_mem_time_sum",
                               "cuda_gpu_mem_size_sum", "osrt_sum"}) {
        const auto r =
            cli("stats " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --report " + report + " --format csv");
        CHECK(r.status == 0);
        CHECK(r.out == readFile(dataFile(std::string("expected/train_1gpu/") + report + ".csv")));
    }
}

TEST_CASE("lanescope-cli stats with several reports prefixes each with # NAME; json and table work") {
    const auto file = quoted(dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const auto csv = cli("stats " + file + " --report osrt_sum,nvtx_sum --format csv");
    CHECK(csv.status == 0);
    CHECK(csv.out.starts_with("# osrt_sum\nTime (%),"));
    CHECK(csv.out.find("\n# nvtx_sum\nTime (%),") != std::string::npos);
    const auto json = cli("stats " + file + " --report cuda_api_sum --format json");
    CHECK(json.status == 0);
    CHECK(json.out.find("\"report\": \"cuda_api_sum\"") != std::string::npos);
    CHECK(json.out.find("\"Name\": \"cudaLaunchKernel\"") != std::string::npos);
    const auto table = cli("stats " + file + " --report nvtx_sum --range 0:9000000000000");
    CHECK(table.status == 0);
    CHECK(table.out.find("NCCL:ncclAllReduce") != std::string::npos);
}

TEST_CASE("lanescope-cli stats writes a trace as its rows are made: the same rows in csv and json") {
    const auto file = quoted(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const auto csv = cli("stats " + file + " --report cuda_api_trace --format csv");
    const auto json = cli("stats " + file + " --report cuda_api_trace,cuda_api_sum --format json");
    REQUIRE(csv.status == 0);
    REQUIRE(json.status == 0);
    auto count = [](const std::string& text, const std::string& what) {
        size_t n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    const size_t rows = count(csv.out, "\n") - 1;
    CHECK(rows == 4067);  // every CUDA API call of train_1gpu
    CHECK(count(json.out, "\"Thread Name\": ") == rows);
    CHECK(json.out.starts_with("[\n  {\n    \"report\": \"cuda_api_trace\""));
    CHECK(json.out.find("\"report\": \"cuda_api_sum\"") != std::string::npos);
    CHECK(json.out.ends_with("]\n"));
    const auto none = cli("stats " + file + " --report cuda_api_trace --format json --range 0:1");
    CHECK(none.out.find("\"rows\": []") != std::string::npos);
}

TEST_CASE("lanescope-cli exit codes: 1 for usage, 2 with one line for unreadable input") {
    CHECK(cli("").status == 1);
    CHECK(cli("frobnicate").status == 1);
    CHECK(cli("stats " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --report no_such_report").status == 1);
    CHECK(cli("stats " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --report osrt_sum --range 9:3").status ==
          1);
    CHECK(cli("info " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --format xml").status == 1);
    const auto missing = cli("info /nonexistent/report.sqlite");
    CHECK(missing.status == 2);
    CHECK(missing.err == "lanescope-cli: /nonexistent/report.sqlite: no such file\n");
    const auto notReport = cli("info " + quoted(dataFile("expected/train_1gpu/osrt_sum.csv")));
    CHECK(notReport.status == 2);
    CHECK(std::count(notReport.err.begin(), notReport.err.end(), '\n') == 1);
    CHECK(cli("--version").out == std::string("lanescope-cli ") + LANESCOPE_VERSION + "\n");
    // A compressed report (the public MPI exports are kept xz-compressed) says so.
    const auto xz = sharedFile("nsys-2025.3-exports/openhackathons-org__gpubootcamp__report3.sqlite.xz");
    if (xz.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/nsys-2025.3-exports");
    const auto compressed = cli("info " + quoted(xz));
    CHECK(compressed.status == 2);
    CHECK(compressed.err ==
          "lanescope-cli: " + xz.string() + ": compressed with xz: decompress it first, then open the report inside\n");
}

TEST_CASE("lanescope-cli export writes a Perfetto trace that opens as the same report, labels optional") {
    const auto dir = tempDir("cli-export");
    const auto report = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto full = dir / "full.pftrace", bare = dir / "bare.pftrace";
    const Run a = cli("export " + quoted(report) + " --to perfetto --out " + quoted(full));
    REQUIRE(a.status == 0);
    CHECK(a.err.starts_with("wrote "));
    REQUIRE(
        cli("export " + quoted(report) + " --to perfetto --out " + quoted(bare) + " --no-display-annotations").status ==
        0);
    CHECK(std::filesystem::file_size(bare) < std::filesystem::file_size(full));
    // The machine keys carry the details: the statistics are the same without the labels.
    const std::string want = cli("stats " + quoted(report) + " --report cuda_gpu_mem_size_sum --format csv").out;
    CHECK(!want.empty());
    CHECK(cli("stats " + quoted(bare) + " --report cuda_gpu_mem_size_sum --format csv").out == want);
    CHECK(cli("stats " + quoted(full) + " --report cuda_gpu_mem_size_sum --format csv").out == want);
    CHECK(cli("export " + quoted(report) + " --to json --out " + quoted(dir / "x.json")).status == 1);
}

TEST_CASE("lanescope-cli info, stats and analyze never load Qt's GUI libraries") {
    const auto dir = tempDir("libs");
    for (const std::string command : {"info", "stats --report cuda_gpu_kern_sum", "analyze --rule gpu_gaps"}) {
        // The dynamic loader names every library it loads on stderr under LD_DEBUG=files.
        const auto log = dir / "loader.txt";
        const std::string line = "LD_DEBUG=files '" + std::string(LANESCOPE_CLI) + "' " + command + " " +
                                 quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " >/dev/null 2>'" + log.string() +
                                 "'";
        REQUIRE(std::system(line.c_str()) == 0);
        const std::string loaded = readFile(log);
        INFO(command);
        REQUIRE(loaded.find("libsqlite3") != std::string::npos);  // the loader did report its libraries
        CHECK(loaded.find("libQt6Gui") == std::string::npos);
        CHECK(loaded.find("libQt6Widgets") == std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

#ifdef LANESCOPE_HAS_RENDER
TEST_CASE("lanescope-cli render draws the timeline offscreen into a PNG of the asked size") {
    const auto dir = tempDir("render");
    const auto out = dir / "timeline.png";
    const auto r = cli("render " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --out " + quoted(out) +
                       " --size 1000x600 --range 176000000:214000000");
    REQUIRE(r.status == 0);
    const std::string png = readFile(out);
    REQUIRE(png.size() > 5000);
    CHECK(png.substr(1, 3) == "PNG");
    // Width and height from the IHDR chunk (big-endian at bytes 16..23).
    auto be32 = [&](size_t at) {
        return (uint32_t(uint8_t(png[at])) << 24) | (uint32_t(uint8_t(png[at + 1])) << 16) |
               (uint32_t(uint8_t(png[at + 2])) << 8) | uint32_t(uint8_t(png[at + 3]));
    };
    CHECK(be32(16) == 1000);
    CHECK(be32(20) == 600);
    CHECK(cli("render " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite"))).status == 1);  // no --out
    CHECK(cli("render " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --out " + quoted(out) + " --range 5:5")
              .status == 1);
    CHECK(cli("render /nonexistent.sqlite --out " + quoted(out)).status == 2);
    std::filesystem::remove_all(dir);
}
#endif

TEST_CASE("lanescope-cli analyze: every rule's CSV is byte-identical to nsys analyze; gaps carry causes") {
    const std::vector<std::pair<std::string, std::string>> rules = {{"gpu_gaps", "gpu_gaps"},
                                                                    {"gpu_gaps:gap=1", "gpu_gaps_1ms"},
                                                                    {"gpu_time_util", "gpu_time_util"},
                                                                    {"cuda_api_sync", "cuda_api_sync"},
                                                                    {"cuda_memcpy_sync", "cuda_memcpy_sync"},
                                                                    {"cuda_memcpy_async", "cuda_memcpy_async"},
                                                                    {"cuda_memset_sync", "cuda_memset_sync"}};
    for (const char* report : {"train_1gpu", "ddp_rank0", "ddp_rank1"}) {
        const auto file = quoted(dataFile(std::string("nsys-2025.3/") + report + ".sqlite"));
        for (const auto& [rule, expected] : rules) {
            INFO(report << " " << rule);
            const auto r = cli("analyze " + file + " --rule " + rule + " --format csv");
            CHECK(r.status == 0);
            CHECK(r.out == readFile(dataFile(std::string("expected/") + report + "/" + expected + ".csv")));
        }
        const auto proj = cli("stats " + file + " --report nvtx_gpu_proj_sum --format csv");
        CHECK(proj.out == readFile(dataFile(std::string("expected/") + report + "/nvtx_gpu_proj_sum.csv")));
    }
    const auto json =
        cli("analyze " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --rule gpu_gaps:gap=1 --format json");
    CHECK(json.status == 0);
    size_t causes = 0;
    for (size_t at = 0; (at = json.out.find("\"cause\": \"NVTX range\"", at)) != std::string::npos; ++at) ++causes;
    CHECK(causes == 14);
    CHECK(json.out.find("\"cause_nvtx_ranges\": [\n") != std::string::npos);
    CHECK(json.out.find("\"data\"") != std::string::npos);
    CHECK(cli("analyze " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --rule no_such_rule").status == 1);
    CHECK(
        cli("analyze " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --rule gpu_time_util:chunks=x").status ==
        1);
}

TEST_CASE("lanescope-cli compare: offsets, ranks, matched collectives and the straggler") {
    const auto ranks =
        quoted(dataFile("nsys-2025.3/ddp_rank0.sqlite")) + " " + quoted(dataFile("nsys-2025.3/ddp_rank1.sqlite"));
    const auto json = cli("compare " + ranks + " --align nccl --format json");
    REQUIRE(json.status == 0);
    CHECK(json.err.empty());
    for (const char* key : {"\"align\": \"nccl\"", "\"offsets_ns\": [", "\"ranks\": [", "\"label\": \"rank 1\"",
                            "\"compute_share\": ", "\"communication_share\": ", "\"idle_share\": ",
                            "\"name\": \"AllReduce\"", "\"straggler\": {", "\"basis\": \"collectives\""})
        CHECK(json.out.find(key) != std::string::npos);
    // rank 1 moved by about its session start difference (12.94 ms)
    const size_t at = json.out.find("\"offsets_ns\": [");
    REQUIRE(at != std::string::npos);
    const std::string offsets = json.out.substr(at, json.out.find(']', at) - at);
    CHECK(offsets.find("-1293") != std::string::npos);

    const auto table = cli("compare " + ranks + " --align clock");
    CHECK(table.status == 0);
    CHECK(table.out.find("Alignment: clock") != std::string::npos);
    CHECK(table.out.find("Straggler: rank") != std::string::npos);

    CHECK(cli("compare " + quoted(dataFile("nsys-2025.3/ddp_rank0.sqlite"))).status == 1);
    CHECK(cli("compare " + ranks + " --align sideways").status == 1);
    // --nudge moves a rank by hand, as the Ranks panel does: 250 us on top of no alignment.
    const auto nudged = cli("compare " + ranks + " --align none --nudge 0,250 --format json");
    REQUIRE(nudged.status == 0);
    const size_t nudgedAt = nudged.out.find("\"offsets_ns\": [");
    REQUIRE(nudgedAt != std::string::npos);
    const std::string nudgedOffsets = nudged.out.substr(nudgedAt, nudged.out.find(']', nudgedAt) - nudgedAt);
    CHECK(nudgedOffsets.find("250000") != std::string::npos);
    CHECK(cli("compare " + ranks + " --nudge 1,x").status == 1);
    CHECK(cli("compare " + ranks + " --nudge 1,2,3").status == 1);
    const auto missing = cli("compare " + ranks + " /nonexistent/rank7.sqlite");
    CHECK(missing.status == 2);
    CHECK(missing.err.find("rank7.sqlite") != std::string::npos);
    CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
}

TEST_CASE("lanescope-cli compare: one report of both ranks (nsys profile torchrun) compares its processes") {
    const auto file = quoted(dataFile("nsys-2025.3/ddp_both_ranks.nsys-rep"));
    const auto json = cli("compare " + file + " --format json");
    REQUIRE(json.status == 0);
    for (const char* key :
         {"\"align\": \"nccl\"", "\"label\": \"python [791]\"", "\"label\": \"python [792]\"", "\"straggler\": {"})
        CHECK(json.out.find(key) != std::string::npos);
    CHECK(cli("compare " + file + " --nudge 0,5,9").status == 1);  // more nudges than its two ranks
    const auto single = cli("compare " + quoted(dataFile("nsys-2025.3/ddp_rank0.sqlite")));
    CHECK(single.status == 1);
    CHECK(single.err.find("holds one rank") != std::string::npos);
}

TEST_CASE("lanescope-cli compare: the three MPI jacobi ranks align by MPI collectives by default") {
    std::string ranks;
    for (const char* n : {"3", "4", "6"}) {
        const auto path =
            sharedFile(std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + n + ".qdrep");
        if (path.empty()) LANESCOPE_SKIP_ABSENT("public/mpi-jacobi/openhackathons-org__gpubootcamp__report" << n);
        ranks += " " + quoted(path);
    }
    const auto json = cli("compare" + ranks + " --format json");
    REQUIRE(json.status == 0);
    for (const char* key :
         {"\"align\": \"mpi\"", "\"collectives_from\": \"mpi\"", "\"label\": \"rank 4\"", "\"label\": \"rank 2\"",
          "\"label\": \"rank 6\"", "\"rank\": 6", "\"name\": \"MPI_Allreduce\"", "\"MPI_Sendrecv\": {",
          "\"residual_skew_median_ns\": [", "\"straggler\": {", "\"basis\": \"collectives\""})
        CHECK(json.out.find(key) != std::string::npos);
    const size_t straggler = json.out.find("\"straggler\": {");
    REQUIRE(straggler != std::string::npos);
    CHECK(json.out.find("\"label\": \"rank 4\"", straggler) != std::string::npos);

    const auto table = cli("compare" + ranks);
    REQUIRE(table.status == 0);
    CHECK(table.out.find("Alignment: mpi") != std::string::npos);
    CHECK(table.out.find("MPI point-to-point") != std::string::npos);
    CHECK(table.out.find("Straggler: rank 4, last to arrive in") != std::string::npos);
    CHECK(cli("compare" + ranks + " --align clock --format json").out.find("\"align\": \"clock\"") !=
          std::string::npos);
}

TEST_CASE("lanescope-cli summarize, then compare over the summary folders: the same output as from the reports") {
    const auto dir = tempDir("cli-summaries");
    std::vector<std::pair<std::string, std::string>> ranks;  // report, its summary folder
    for (const char* r : {"0", "1"})
        ranks.emplace_back(quoted(dataFile(std::string("nsys-2025.3/ddp_rank") + r + ".sqlite")),
                           quoted(dir / (std::string("rank") + r)));
    for (const char* n : {"3", "4", "6"}) {
        const auto path =
            sharedFile(std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + n + ".qdrep");
        if (path.empty()) LANESCOPE_SKIP_ABSENT("public/mpi-jacobi/openhackathons-org__gpubootcamp__report" << n);
        ranks.emplace_back(quoted(path), quoted(dir / (std::string("jacobi") + n)));
    }
    for (const auto& [report, folder] : ranks) {
        const auto done = cli("summarize " + report + " --out " + folder);
        INFO(done.err);
        REQUIRE(done.status == 0);
        CHECK(done.out.empty());
    }
    auto both = [&](size_t from, size_t to, bool summaries, const std::string& options) {
        std::string args;
        for (size_t i = from; i < to; ++i) args += " " + (summaries ? ranks[i].second : ranks[i].first);
        return cli("compare" + args + options);
    };
    for (const std::string options : {" --format json", "", " --align clock --format json"}) {
        for (auto [from, to] : {std::pair<size_t, size_t>{0, 2}, {2, 5}}) {
            const auto fromReports = both(from, to, false, options), fromSummaries = both(from, to, true, options);
            INFO(options << " " << from << ".." << to << " " << fromSummaries.err);
            REQUIRE(fromSummaries.status == 0);
            CHECK(fromSummaries.out == fromReports.out);
        }
    }
    // Mixed: a report and a summary.
    CHECK(cli("compare " + ranks[0].first + " " + ranks[1].second + " --format json").out ==
          both(0, 2, false, " --format json").out);
    // Many ranks at a glance, with the keys CLI.md requires kept.
    const auto json = both(0, 2, true, " --format json");
    for (const char* key : {"\"summary\": {", "\"step_end_skew_ns\": {", "\"arrival_skew_ns\": {",
                            "\"p99\": ", "\"slowest_label\": \"rank", "\"align\": \"nccl\"",
                            "\"residual_skew_median_ns\": [", "\"rank_from\": \"environment\""})
        CHECK(json.out.find(key) != std::string::npos);
    const auto table = both(2, 5, true, "");
    CHECK(table.out.find("Across ranks") != std::string::npos);
    CHECK(table.out.find("Collective arrival skew (ms, 1002): p50 ") != std::string::npos);

    CHECK(cli("summarize " + ranks[0].first).status == 1);  // no --out
    CHECK(cli("summarize --out " + quoted(dir / "x")).status == 1);
    const auto missing = cli("summarize /nonexistent/rank7.sqlite --out " + quoted(dir / "x"));
    CHECK(missing.status == 2);
    CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
    // A summary from a newer Lanescope: refused in one line.
    const auto json0 = dir / "rank0" / "rank-summary.json";
    std::string text = readFile(json0);
    text.replace(text.find("\"version\": 1,"), 13, "\"version\": 9,");
    std::ofstream(json0, std::ios::binary | std::ios::trunc) << text;
    const auto newer = both(0, 2, true, "");
    CHECK(newer.status == 2);
    CHECK(newer.err.find("rank summary version 9 is newer than this Lanescope reads (1)") != std::string::npos);
    CHECK(std::count(newer.err.begin(), newer.err.end(), '\n') == 1);
    std::filesystem::remove_all(dir);
}

TEST_CASE("lanescope-cli diff: NCCL kernels added from train_1gpu to ddp_rank0, in csv, json and table") {
    const auto pair =
        quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " " + quoted(dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const auto csv = cli("diff " + pair + " --format csv");
    REQUIRE(csv.status == 0);
    CHECK(
        csv.out.starts_with("Category,Name,Base Count,Base Total (ns),Base Avg (ns),Cand Count,Cand Total (ns),"
                            "Cand Avg (ns),Delta (ns),Ratio,Status\n"));
    // nsys's full kernel names; no ratio for a name the baseline lacks
    CHECK(csv.out.find("kernel,ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>),"
                       "0,0,0.0,24,57114640,2379776.7,57114640,,added\n") != std::string::npos);
    const auto json = cli("diff " + pair + " --format json");
    CHECK(json.status == 0);
    CHECK(json.out.find("\"status\": \"added\"") != std::string::npos);
    const auto table = cli("diff " + pair);
    CHECK(table.status == 0);
    CHECK(table.out.find("ncclDevKernel_Broadcast_RING_LL") != std::string::npos);
    CHECK(cli("diff " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite"))).status == 1);
}

TEST_CASE("lanescope-cli reads .nsys-rep natively and says so; --reader nsys asks for nsys export") {
    const auto rep = quoted(dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    const auto r = cli("info " + rep + " --format json");
    REQUIRE(r.status == 0);
    for (const char* key :
         {"\"format\": \"nsys-rep\"", "\"reader\": \"native\"", "\"nsys_version\": \"2025.3.1.0\"",
          "\"start_utc_ns\": 1795316027191150611", "\"kernels\": 1950", "\"cuda_api\": 4067", "\"diagnostics\": {}"})
        CHECK(r.out.find(key) != std::string::npos);
    // The statistics of the report itself are those nsys prints.
    const auto stats = cli("stats " + rep + " --report cuda_gpu_kern_sum --format csv");
    CHECK(stats.status == 0);
    CHECK(stats.out == readFile(dataFile("expected/train_1gpu/cuda_gpu_kern_sum.csv")));
    // The fallback through nsys, forbidden by LANESCOPE_NSYS=off: one line, exit 2.
    const auto off = cli("--reader nsys info " + rep + " 2>&1; LANESCOPE_NSYS=off '" + std::string(LANESCOPE_CLI) +
                         "' info " + rep + " --reader nsys");
    CHECK(off.status == 2);
    CHECK(off.err.find("LANESCOPE_NSYS=off forbids running Nsight Systems") != std::string::npos);
    const auto bad = cli("info " + rep + " --reader fast");
    CHECK(bad.status == 1);
    CHECK(bad.err.find("--reader wants native or nsys") != std::string::npos);
}

namespace {

// A copy of the PyTorch trace with two damaged events first: an end with no begin (json
// unmatched end) and an event without a time.
std::filesystem::path damagedKinetoCopy() {
    std::string text = readFile(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    const std::string events = "\"traceEvents\": [";
    const size_t at = text.find(events);
    REQUIRE(at != std::string::npos);
    text.insert(at + events.size(),
                R"({"ph": "E", "pid": 1, "tid": 1, "ts": 5}, {"ph": "X", "pid": 1, "tid": 1, "dur": 2},)");
    const auto path = tempDir("cli-diagnostics") / "damaged.pt.trace.json";
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace

TEST_CASE("lanescope-cli info explains each diagnostic: severity and explanation in the table and in JSON") {
    const auto trace = quoted(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    const auto json = cli("info " + trace + " --format json");
    REQUIRE(json.status == 0);
    // The contract stays: name -> count.
    CHECK(json.out.find("\"diagnostics\": {\n    \"json_fwdbwd_flows_not_shown\": ") != std::string::npos);
    CHECK(json.out.find("\"json_unknown_category:Trace\": 1") != std::string::npos);
    // And each is explained, its variable part filled in.
    CHECK(json.out.find("\"diagnostic_details\": [") != std::string::npos);
    CHECK(
        json.out.find("\"name\": \"json_unknown_category:Trace\",\n      \"count\": 1,\n      \"severity\": \"info\",\n"
                      "      \"explanation\": \"Events of the category Trace, which Lanescope does not know") !=
        std::string::npos);
    CHECK(json.out.find("\"name\": \"json_fwdbwd_flows_not_shown\"") != std::string::npos);

    const auto damaged = quoted(damagedKinetoCopy());
    const auto table = cli("info " + damaged);
    REQUIRE(table.status == 0);
    // Most severe first, with count, severity and the explanation.
    const size_t header = table.out.find("diagnostic                   ");
    REQUIRE(header != std::string::npos);
    CHECK(table.out.find("count  severity  explanation", header) != std::string::npos);
    const size_t end = table.out.find("json_unmatched_end ", header);
    const size_t ts = table.out.find("json_event_without_ts ", header);
    const size_t trace_ = table.out.find("json_unknown_category:Trace ", header);
    REQUIRE(end != std::string::npos);
    REQUIRE(ts != std::string::npos);
    REQUIRE(trace_ != std::string::npos);
    CHECK(ts < trace_);
    CHECK(end < trace_);
    const std::string endLine = table.out.substr(end, table.out.find('\n', end) - end);
    CHECK(endLine.find(" 1  warning   End events (ph E) with no begin on their thread; they are skipped.") !=
          std::string::npos);
    CHECK(table.out.find("info      Events of the category Trace, which Lanescope does not know") != std::string::npos);

    const auto damagedJson = cli("info " + damaged + " --format json");
    CHECK(damagedJson.out.find("\"json_unmatched_end\": 1") != std::string::npos);
    CHECK(damagedJson.out.find("\"severity\": \"warning\"") != std::string::npos);

    // A report with none says so.
    const auto clean = cli("info " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")));
    CHECK(clean.out.find("no diagnostics") != std::string::npos);
    const auto cleanJson = cli("info " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --format json");
    CHECK(cleanJson.out.find("\"diagnostics\": {},\n  \"diagnostic_details\": [],") != std::string::npos);
}

TEST_CASE("lanescope-cli sql: csv, json and table; the query from stdin; a bad query in one line, exit 1") {
    const std::string file = quoted(dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    const std::string byStream =
        "\"SELECT streamId, count(*) AS kernels FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY streamId\"";
    const auto csv = cli("sql " + file + " " + byStream + " --format csv");
    REQUIRE(csv.status == 0);
    CHECK(csv.out == "streamId,kernels\n7,1950\n");  // train_1gpu's 1,950 kernels, all on stream 7
    const auto json = cli("sql " + file + " " + byStream + " --format json");
    REQUIRE(json.status == 0);
    CHECK(json.out == "[\n  {\"streamId\": 7, \"kernels\": 1950}\n]\n");
    const auto table = cli("sql " + file + " " + byStream);
    REQUIRE(table.status == 0);
    CHECK(table.out.find("kernels") != std::string::npos);
    CHECK(table.out.find("(1 row)") != std::string::npos);
    // From stdin: a text cell with a comma and a quote is quoted as RFC 4180 says; NULL is empty.
    const auto piped = cli("sql " + file + " - --format csv <<'EOF'\nSELECT 'a,\"b' AS t, NULL AS n;\nEOF\n");
    REQUIRE(piped.status == 0);
    CHECK(piped.out == "t,n\n\"a,\"\"b\",\n");
    for (const char* bad : {"\"SELEC 1\"", "\"SELECT nope FROM StringIds\"", "\"DELETE FROM StringIds\"",
                            "\"ATTACH DATABASE '/tmp/x' AS x\""}) {
        const auto r = cli("sql " + file + " " + bad);
        INFO(bad << " -> " << r.err);
        CHECK(r.status == 1);
        CHECK(r.out.empty());
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.err.rfind("lanescope-cli sql: ", 0) == 0);
    }
}

TEST_CASE("lanescope-cli export --to sqlite: nsys's tables in a file, never over one without --force") {
    const auto dir = tempDir("cli-sqlite-export");
    const auto out = dir / "train.sqlite";
    const std::string command =
        "export " + quoted(dataFile("nsys-2025.3/train_1gpu.nsys-rep")) + " --to sqlite --out " + quoted(out);
    REQUIRE(cli(command).status == 0);
    // The export answers as nsys's does: the same kernel summary from `stats` on both.
    const auto ours = cli("stats " + quoted(out) + " --report cuda_gpu_kern_sum --format csv");
    const auto theirs =
        cli("stats " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --report cuda_gpu_kern_sum --format csv");
    REQUIRE(ours.status == 0);
    CHECK(ours.out == theirs.out);
    const auto again = cli(command);
    CHECK(again.status == 2);
    CHECK(again.err.find("exists (use --force") != std::string::npos);
    CHECK(cli(command + " --force").status == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("lanescope-cli pytorch --view operators prints one table in csv, json and table; other views are refused") {
    const std::string trace = quoted(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    const auto csv = cli("pytorch " + trace + " --view operators --format csv");
    REQUIRE(csv.status == 0);
    CHECK(csv.err.empty());
    CHECK(csv.out.rfind("Name,Calls,CPU Total (ns),CPU Self (ns),Device Total (ns),Device Self (ns)\n", 0) == 0);
    CHECK(csv.out.find("\naten::copy_,200,") != std::string::npos);
    const auto json = cli("pytorch " + trace + " --view operators --format json");
    REQUIRE(json.status == 0);
    CHECK(json.out.find("\"report\": \"pytorch_operators\"") != std::string::npos);
    CHECK(json.out.find("\"Device Self (ns)\": ") != std::string::npos);
    const auto table = cli("pytorch " + trace + " --view operators");
    REQUIRE(table.status == 0);
    CHECK(table.out.find("pytorch_operators") != std::string::npos);
    CHECK(table.out.find("aten::copy_") != std::string::npos);

    const auto memory = cli("pytorch " + trace + " --view memory");
    CHECK(memory.status == 0);
    CHECK(memory.out.empty());
    CHECK(memory.err.find("no memory events: the trace records none") != std::string::npos);
    const auto unknown = cli("pytorch " + trace + " --view steps");
    CHECK(unknown.status == 1);
    CHECK(unknown.err.rfind("lanescope-cli pytorch: unknown --view steps\n", 0) == 0);
    CHECK(cli("pytorch " + trace + " --view operators --format xml").status == 1);
}

TEST_CASE("lanescope-cli pytorch --view operators on a report without operators says so and prints no rows") {
    const auto r =
        cli("pytorch " + quoted(dataFile("nsys-2022.4/openmp_loops.sqlite")) + " --view operators --format csv");
    CHECK(r.status == 0);
    CHECK(r.out.empty());
    CHECK(r.err.find("no PyTorch operators: the report records no NVTX ranges") != std::string::npos);
}

TEST_CASE("lanescope-cli pytorch --view operators on an nsys report shows its NVTX ranges as the operators") {
    const auto r =
        cli("pytorch " + quoted(dataFile("nsys-2025.3/train_1gpu.sqlite")) + " --view operators --format csv");
    CHECK(r.status == 0);
    CHECK(r.err.find("the report's NVTX ranges are shown as the operators") != std::string::npos);
    // train.py's ranges: "step N" once each, "forward", "backward", "data"... 15 times.
    CHECK(r.out.rfind("Name,Calls,CPU Total (ns),CPU Self (ns),Device Total (ns),Device Self (ns)\n", 0) == 0);
    CHECK(r.out.find("\nforward,15,") != std::string::npos);
    CHECK(r.out.find("\nstep 0,1,") != std::string::npos);
}

TEST_CASE("lanescope-cli pytorch --view kernels: kernels by name in csv, json and table; none says why") {
    const auto trace = quoted(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    const auto csv = cli("pytorch " + trace + " --view kernels --format csv");
    REQUIRE(csv.status == 0);
    CHECK(csv.err.empty());
    CHECK(
        csv.out.starts_with("Name,Calls,Total (ns),Mean (ns),Min (ns),Max (ns),Grid,Block,Registers Per Thread,"
                            "Shared Memory (B),Est. Achieved Occupancy (%),Tensor Cores,Operator\n"));
    // The fill kernel of train_1gpu: 50 launches, by aten::fill_ (TensorBoard's "zero_" steps).
    CHECK(csv.out.find("\"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                       "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)\",50,") !=
          std::string::npos);
    // Its occupancy: 100 % for the 30 of 12288 blocks, 0 % for the 20 of one, weighted by duration.
    CHECK(csv.out.find(",95.79,unknown,aten::fill_ (50)\n") != std::string::npos);
    const auto json = cli("pytorch " + trace + " --view kernels --format json");
    REQUIRE(json.status == 0);
    CHECK(json.out.find("\"Tensor Cores\"") != std::string::npos);
    const auto table = cli("pytorch " + trace + " --view kernels");
    REQUIRE(table.status == 0);
    CHECK(table.out.find("Est. Achieved Occupancy (%)") != std::string::npos);

    const auto cpuOnly = tempDir("cli-pytorch-kernels") / "cpu_only.pt.trace.json";
    std::ofstream(cpuOnly) << R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,)"
                              R"("ts":1,"dur":2}]})";
    const auto none = cli("pytorch " + quoted(cpuOnly) + " --view kernels --format csv");
    CHECK(none.status == 0);
    CHECK(none.out.empty());
    CHECK(none.err.find("no GPU kernels") != std::string::npos);
}

TEST_CASE("lanescope-cli pytorch --view operators on a CPU-only trace nests operators and says the device is absent") {
    const auto trace = tempDir("cli_pytorch") / "cpu_only.json";
    std::ofstream(trace) << R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "outer", "pid": 1, "tid": 2, "ts": 10.0, "dur": 10.0},
        {"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 1, "tid": 2, "ts": 12.0, "dur": 3.0005},
        {"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 1, "tid": 2, "ts": 16.0, "dur": 2.0}]})";
    const auto r = cli("pytorch " + quoted(trace) + " --view operators --format csv");
    CHECK(r.status == 0);
    CHECK(r.out ==
          "Name,Calls,CPU Total (ns),CPU Self (ns),Device Total (ns),Device Self (ns)\n"
          "outer,1,10000,4999,0,0\n"
          "inner,2,5001,5001,0,0\n");
    CHECK(r.err.find("no GPU work: the trace records no kernels, memcpy or memset, so the device columns are 0") !=
          std::string::npos);
}

TEST_CASE("lanescope-cli critical-path: the hand-built path in csv, json and table; exit codes") {
    const std::string trace = quoted(dataFile("critical_path/gpu_bound.sqlite"));
    const auto csv = cli("critical-path " + trace + " --format csv");
    CHECK(csv.status == 0);
    CHECK(csv.out == readFile(dataFile("critical_path/gpu_bound.expected.csv")));
    const auto json = cli("critical-path " + trace + " --format json --what-if 'kernel_.*=2'");
    CHECK(json.status == 0);
    for (const char* key : {"\"range\": [", "\"length_ns\": 200000", "\"by_category\"", "\"by_name\"", "\"segments\"",
                            "\"what_if_length_ns\"", "\"Sync latency\""})
        CHECK(json.out.find(key) != std::string::npos);
    const auto table = cli("critical-path " + trace + " --nvtx step");
    CHECK(table.status == 0);
    CHECK(table.out.find("Launch latency") != std::string::npos);
    const auto step =
        cli("critical-path " + quoted(dataFile("critical_path/mixed_step.sqlite")) + " --step 0 --format csv");
    CHECK(step.status == 0);
    CHECK(step.out == readFile(dataFile("critical_path/mixed_step.expected.csv")));
    const auto ranks = cli("critical-path " + quoted(dataFile("critical_path/two_ranks_late_rank0.sqlite")) + " " +
                           quoted(dataFile("critical_path/two_ranks_late_rank1.sqlite")) + " --format csv");
    CHECK(ranks.status == 0);
    CHECK(ranks.out == readFile(dataFile("critical_path/two_ranks_late.expected.csv")));
    CHECK(cli("critical-path").status == 1);
    CHECK(cli("critical-path " + trace + " --format xml").status == 1);
    CHECK(cli("critical-path " + trace + " --range 9:3").status == 1);
    CHECK(cli("critical-path " + trace + " --step 0 --nvtx step").status == 1);
    CHECK(cli("critical-path " + trace + " --what-if 'kernel=0'").status == 1);
    const auto missing = cli("critical-path /nonexistent/report.sqlite");
    CHECK(missing.status == 2);
    CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
}

TEST_CASE("lanescope-cli nccl: rows, summary and json; a report without sizes says why; exit codes") {
    const std::string trace = quoted(dataFile("communication/kernel_args.pt.trace.json"));
    const auto csv = cli("nccl " + trace + " --format csv");
    CHECK(csv.status == 0);
    // The sizes and bandwidths worked out by hand in tests/data/communication/README.md (times
    // from the trace's first event, at 1,000 us).
    CHECK(
        csv.out ==
        "Rank,Operation,Communicator,Ranks,Size (bytes),Start (ns),Duration (ns),AlgBW (GB/s),BusBW (GB/s),Wait (ns)\n"
        "0,AllGather,0,2,4194304,100000,100000,41.943,20.972,\n"
        "0,AllReduce,0,2,1048576,1100000,50000,20.972,20.972,\n");
    const auto summary = cli("nccl " + trace + " --summary --format csv");
    CHECK(summary.status == 0);
    CHECK(summary.out ==
          "Operation,Size bucket (bytes),Count,Total (ns),Median (ns),P90 (ns),Median BusBW (GB/s)\n"
          "AllReduce,1048576,1,50000,50000.0,50000.0,20.972\n"
          "AllGather,4194304,1,100000,100000.0,100000.0,20.972\n");
    const auto json = cli("nccl " + trace + " --format json");
    CHECK(json.status == 0);
    for (const char* key : {"\"collectives\"", "\"summary\"", "\"overlapped_ns\": 50000", "\"comm_ns\": 150000",
                            "\"most_often_last\": null", "\"wait_ns\": null"})
        CHECK(json.out.find(key) != std::string::npos);
    const auto table = cli("nccl " + trace);
    CHECK(table.status == 0);
    CHECK(table.out.find("AllGather") != std::string::npos);
    // Two ranks: every collective matched, each with its wait.
    const auto ranks = cli("nccl " + quoted(dataFile("kineto/ddp_rank0.pt.trace.json.gz")) + " " +
                           quoted(dataFile("kineto/ddp_rank1.pt.trace.json.gz")) + " --format csv");
    CHECK(ranks.status == 0);
    CHECK(ranks.out.find("\n1,AllReduce,0,2,4348968,") != std::string::npos);
    CHECK(ranks.out.find(",\n") == std::string::npos);  // no empty wait: all matched
    // A report that records no sizes: the rows with empty sizes, and one line on stderr.
    const auto bare = cli("nccl " + quoted(dataFile("critical_path/two_ranks_late_rank0.sqlite")) + " --format csv");
    CHECK(bare.status == 0);
    CHECK(bare.out.find("\n0,AllReduce,,,,") != std::string::npos);
    CHECK(bare.err.find("no collective sizes") != std::string::npos);
    CHECK(std::count(bare.err.begin(), bare.err.end(), '\n') == 1);
    CHECK(cli("nccl").status == 1);
    CHECK(cli("nccl " + trace + " --format xml").status == 1);
    const auto missing = cli("nccl /nonexistent/report.sqlite");
    CHECK(missing.status == 2);
}
