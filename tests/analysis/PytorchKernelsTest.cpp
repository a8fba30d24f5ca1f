// The PyTorch kernels view against the raw JSON of the corpus traces, read here with simdjson
// independently of the importer.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <charconv>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "TestPaths.h"
#include "analysis/pytorch/KernelsView.h"
#include "importers/ImportHelpers.h"
#include "importers/Inflater.h"

namespace lanescope {
namespace {

namespace od = simdjson::ondemand;

// Kineto's microseconds as JSON number text -> ns: the whole part and the first three
// fraction digits exactly, the fourth rounding half up (as docs/analyses.md says).
int64_t microsTextToNs(std::string_view text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) text.remove_prefix(1);
    const size_t dot = text.find('.');
    int64_t ns = std::stoll(std::string(text.substr(0, dot))) * 1000;
    if (dot != std::string_view::npos) {
        const std::string fraction = std::string(text.substr(dot + 1)) + "0000";
        REQUIRE(fraction.find_first_not_of("0123456789") == std::string::npos);  // no exponents in the corpus
        ns += std::stoll(fraction.substr(0, 3)) + (fraction[3] >= '5' ? 1 : 0);
    }
    return negative ? -ns : ns;
}

// A cpu_op or CUDA runtime/driver call of the raw trace. Times in ns.
struct RawCall {
    int64_t pid = 0, tid = 0, start = 0, end = 0;
    std::string name;
};

// One kernel name's figures from the raw trace. Times in ns.
struct RawKernels {
    int64_t calls = 0, total = 0, min = std::numeric_limits<int64_t>::max(), max = 0;
    std::map<std::array<int64_t, 8>, int64_t> configs;  // (grid, block, registers, shared) -> launches
    std::map<std::string, int64_t> operators;           // operator name -> launches
    // Of the launches recording "est. achieved occupancy %": their count, the sums of
    // occupancy x duration (%·ns), of durations (ns) and of occupancies (%).
    int64_t occupancyCalls = 0;
    double occupancyTimesDuration = 0, occupancyDuration = 0, occupancySum = 0;
};

// A kernel's occupancy args as the trace records them; -1 where absent.
struct RawOccupancy {
    double blocksPerSm = -1, warpsPerSm = -1, occupancyPct = -1;
};

std::string traceText(const std::filesystem::path& path) {
    const std::string raw = test::readFile(path);
    if (path.extension() != ".gz") return raw;
    std::string text;
    REQUIRE(inflateAll(raw, text, size_t{1} << 31));
    return text;
}

// An integer, or a string of digits; -1 for other strings (the metadata's "Spans" pids).
int64_t intOf(od::value v) {
    if (v.type() != od::json_type::string) return v.get_int64();
    const std::string_view text = v.get_string();
    int64_t n = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    return error == std::errc() && end == text.data() + text.size() ? n : -1;
}

// The kernels view computed from the raw events: kernels by name; the operator of a kernel is
// the shortest cpu_op on the pid/tid of the runtime call with the kernel's correlation that
// contains the call.
std::map<std::string, RawKernels> rawKernels(const std::filesystem::path& path,
                                             std::unordered_map<int64_t, RawOccupancy>& occupancyByCorrelation) {
    const simdjson::padded_string json(traceText(path));
    od::parser parser;
    od::document doc = parser.iterate(json);
    // A kernel event of the raw trace, in file order; duration in ns.
    struct Kernel {
        std::string name;
        int64_t duration = 0, correlation = 0;
        std::array<int64_t, 8> config{};
        RawOccupancy occupancy;
    };
    std::vector<Kernel> kernels;
    std::unordered_map<int64_t, RawCall> calls;                       // by correlation id: the first call with it
    std::map<std::pair<int64_t, int64_t>, std::vector<RawCall>> ops;  // by (pid, tid), each in file order
    for (od::object event : doc["traceEvents"].get_array()) {
        std::string ph, cat, name;
        int64_t pid = 0, tid = 0, ts = 0, dur = 0, correlation = 0, registers = 0, shared = 0;
        std::array<int64_t, 6> dims{};
        RawOccupancy occupancy;
        for (auto field : event) {
            const std::string_view key = field.unescaped_key();
            od::value v = field.value();
            if (key == "ph" || key == "cat" || key == "name") {
                if (v.type() != od::json_type::string) continue;
                (key == "ph" ? ph : key == "cat" ? cat : name) = std::string(std::string_view(v.get_string()));
            } else if (key == "pid" || key == "tid") {
                (key == "pid" ? pid : tid) = intOf(v);
            } else if (key == "ts" || key == "dur") {
                (key == "ts" ? ts : dur) = microsTextToNs(v.raw_json_token());
            } else if (key == "args" && v.type() == od::json_type::object) {
                for (auto arg : v.get_object()) {
                    const std::string_view k = arg.unescaped_key();
                    od::value a = arg.value();
                    if (k == "correlation")
                        correlation = intOf(a);
                    else if (k == "registers per thread")
                        registers = intOf(a);
                    else if (k == "shared memory")
                        shared = intOf(a);
                    else if (k == "blocks per SM")
                        occupancy.blocksPerSm = a.get_double();
                    else if (k == "warps per SM")
                        occupancy.warpsPerSm = a.get_double();
                    else if (k == "est. achieved occupancy %")
                        occupancy.occupancyPct = a.get_double();
                    else if (k == "grid" || k == "block") {
                        size_t at = k == "grid" ? 0 : 3;
                        for (auto n : a.get_array()) dims[at++] = intOf(n.value());
                    }
                }
            }
        }
        if (ph != "X") continue;
        if (cat == "kernel") {
            kernels.push_back({name,
                               dur,
                               correlation,
                               {dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], registers, shared},
                               occupancy});
            occupancyByCorrelation[correlation] = occupancy;
        } else if (cat == "cuda_runtime" || cat == "cuda_driver")
            calls.try_emplace(correlation, RawCall{pid, tid, ts, ts + dur, name});
        else if (cat == "cpu_op")
            ops[{pid, tid}].push_back({pid, tid, ts, ts + dur, name});
    }
    std::map<std::string, RawKernels> byName;
    for (const Kernel& k : kernels) {
        RawKernels& r = byName[k.name];
        ++r.calls;
        r.total += k.duration;
        r.min = std::min(r.min, k.duration);
        r.max = std::max(r.max, k.duration);
        ++r.configs[k.config];
        if (k.occupancy.occupancyPct >= 0) {
            ++r.occupancyCalls;
            r.occupancyTimesDuration += k.occupancy.occupancyPct * static_cast<double>(k.duration);
            r.occupancyDuration += static_cast<double>(k.duration);
            r.occupancySum += k.occupancy.occupancyPct;
        }
        const auto call = calls.find(k.correlation);
        if (k.correlation == 0 || call == calls.end()) continue;
        const RawCall* innermost = nullptr;
        for (const RawCall& op : ops[{call->second.pid, call->second.tid}])
            if (op.start <= call->second.start && call->second.end <= op.end &&
                (!innermost || op.end - op.start < innermost->end - innermost->start))
                innermost = &op;
        if (innermost) ++r.operators[innermost->name];
    }
    return byName;
}

std::string cellText(const StatsTable::Cell& cell) { return formatCell(cell); }

void checkAgainstRaw(const std::filesystem::path& path) {
    INFO(path.string());
    const auto report = test::importOk(path);
    const KernelsView view = pytorchKernels(*report);
    std::unordered_map<int64_t, RawOccupancy> occupancyByCorrelation;
    const std::map<std::string, RawKernels> raw = rawKernels(path, occupancyByCorrelation);
    REQUIRE_FALSE(raw.empty());
    // Each launch's configuration holds its kernel event's occupancy args (as floats).
    size_t recorded = 0;
    for (const KernelInfo& k : report->kernels) {
        INFO("correlation " << k.correlation_id);
        REQUIRE(occupancyByCorrelation.count(k.correlation_id) == 1);
        const RawOccupancy& o = occupancyByCorrelation.at(k.correlation_id);
        const KernelConfig& c = report->kernel_configs.at(k.config);
        CHECK(c.blocks_per_sm == static_cast<float>(o.blocksPerSm));
        CHECK(c.warps_per_sm == static_cast<float>(o.warpsPerSm));
        CHECK(c.est_achieved_occupancy_pct == static_cast<float>(o.occupancyPct));
        recorded += o.occupancyPct >= 0 ? 1 : 0;
    }
    CHECK(recorded > 0);
    CHECK(view.missing.empty());
    REQUIRE(view.table.rows.size() == raw.size());
    REQUIRE(view.table.header.size() == 13);
    int64_t previousTotal = std::numeric_limits<int64_t>::max();
    std::string previousName;
    for (const std::vector<StatsTable::Cell>& row : view.table.rows) {
        const std::string name = std::get<std::string>(row[0]);
        INFO(name);
        REQUIRE(raw.count(name) == 1);
        const RawKernels& r = raw.at(name);
        CHECK(std::get<int64_t>(row[1]) == r.calls);
        CHECK(std::get<int64_t>(row[2]) == r.total);
        CHECK(std::get<StatsTable::Real>(row[3]).value == static_cast<double>(r.total) / static_cast<double>(r.calls));
        CHECK(std::get<int64_t>(row[4]) == r.min);
        CHECK(std::get<int64_t>(row[5]) == r.max);
        // The most frequent configuration, ties by the smaller.
        auto common = r.configs.begin();
        for (auto it = r.configs.begin(); it != r.configs.end(); ++it)
            if (it->second > common->second) common = it;
        const auto& c = common->first;
        std::string grid = std::to_string(c[0]) + "x" + std::to_string(c[1]) + "x" + std::to_string(c[2]);
        if (r.configs.size() > 1) grid += " (most of " + std::to_string(r.configs.size()) + " configs)";
        CHECK(cellText(row[6]) == grid);
        CHECK(cellText(row[7]) == std::to_string(c[3]) + "x" + std::to_string(c[4]) + "x" + std::to_string(c[5]));
        CHECK(std::get<int64_t>(row[8]) == c[6]);
        CHECK(std::get<int64_t>(row[9]) == c[7]);
        // The duration-weighted mean occupancy of the launches recording one (all integers here,
        // so the sums are exact in any order); the plain mean when they all last 0 ns.
        if (r.occupancyCalls == 0)
            CHECK(cellText(row[10]) == "unknown");
        else {
            const StatsTable::Real occupancy = std::get<StatsTable::Real>(row[10]);
            CHECK(occupancy.decimals == 2);
            CHECK(occupancy.value == (r.occupancyDuration > 0
                                          ? r.occupancyTimesDuration / r.occupancyDuration
                                          : r.occupancySum / static_cast<double>(r.occupancyCalls)));
        }
        CHECK(cellText(row[11]) == std::string(tensorCoresByName(name)));
        // The operator launching most, ties by name, with its count.
        std::string op = "unknown";
        int64_t most = 0;
        for (const auto& [opName, launches] : r.operators)
            if (launches > most) most = launches, op = opName + " (" + std::to_string(launches) + ")";
        CHECK(cellText(row[12]) == op);
        // Sorted by total descending, ties by name.
        const int64_t total = std::get<int64_t>(row[2]);
        CHECK((total < previousTotal || (total == previousTotal && previousName < name)));
        previousTotal = total;
        previousName = name;
    }
}

}  // namespace

TEST_CASE("pytorch kernels: every kernel name of train_1gpu against the raw JSON", "[pytorch]") {
    checkAgainstRaw(test::dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
}

TEST_CASE("pytorch kernels: the corpus's traces against the raw JSON", "[pytorch]") {
    for (const char* name : {"kineto/ddp_rank0.pt.trace.json.gz", "kineto/ddp_rank1.pt.trace.json.gz",
                             "kineto/train_1gpu_rank0.pt.trace.json"}) {
        const std::filesystem::path path = test::sharedFile(name);
        if (path.empty()) {
            WARN("../shared/corpus/" << name << " is absent");
            continue;
        }
        checkAgainstRaw(path);
    }
}

TEST_CASE("pytorch kernels: a trace without kernels gives no rows and says why", "[pytorch]") {
    const std::filesystem::path dir = test::tempDir("pytorch_kernels");
    const std::filesystem::path path = dir / "cpu_only.pt.trace.json";
    std::ofstream(path) << R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,)"
                           R"("ts":1.5,"dur":2}]})";
    const auto report = test::importOk(path);
    const KernelsView view = pytorchKernels(*report);
    CHECK(view.table.rows.empty());
    CHECK(view.table.header.size() == 13);
    CHECK(view.missing.find("no GPU kernels") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("pytorch kernels: occupancy weighted by duration, unknown when not recorded", "[pytorch]") {
    const std::filesystem::path dir = test::tempDir("pytorch_kernels_occupancy");
    const std::filesystem::path path = dir / "occupancy.pt.trace.json";
    auto kernel = [](const char* name, int correlation, const char* ts, const char* dur, const char* args) {
        return std::string(R"({"ph":"X","cat":"kernel","name":")") + name + R"(","pid":0,"tid":7,"ts":)" + ts +
               R"(,"dur":)" + dur + R"(,"args":{"device":0,"stream":7,"correlation":)" + std::to_string(correlation) +
               R"(,"grid":[1,1,1],"block":[32,1,1])" + args + "}}";
    };
    std::ofstream(path) << R"({"traceEvents":[)"
                        << kernel("a", 1, "1", "1", R"(,"blocks per SM":0.5,"est. achieved occupancy %":50)") << ','
                        << kernel("a", 2, "3", "3", R"(,"blocks per SM":0.5,"est. achieved occupancy %":100)") << ','
                        << kernel("a", 3, "7", "5", "") << ',' << kernel("b", 4, "13", "1", "") << ','
                        << kernel("c", 5, "15", "0", R"(,"est. achieved occupancy %":20)") << ','
                        << kernel("c", 6, "16", "0", R"(,"est. achieved occupancy %":40)") << "]}";
    const auto report = test::importOk(path);
    CHECK(report->kernel_configs.size() == 5);  // a's three and c's two launches differ by their occupancy args
    const KernelsView view = pytorchKernels(*report);
    REQUIRE(view.table.rows.size() == 3);
    std::map<std::string, std::string> occupancy;
    for (const auto& row : view.table.rows) occupancy[std::get<std::string>(row[0])] = cellText(row[10]);
    CHECK(occupancy["a"] == "87.50");  // (50 x 1 + 100 x 3) / 4; the launch without one left out
    CHECK(occupancy["b"] == "unknown");
    CHECK(occupancy["c"] == "30.00");  // 0 ns launches: the plain mean
    std::filesystem::remove_all(dir);
}

TEST_CASE("pytorch kernels: Tensor Cores from the kernel name", "[pytorch]") {
    CHECK(tensorCoresByName("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw") == "yes");
    CHECK(tensorCoresByName("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn") == "yes");
    CHECK(tensorCoresByName("cutlass_tensorop_h1688gemm_256x128_32x3_tn_align8") == "yes");
    CHECK(tensorCoresByName("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
                            "execute_segment_k_off_kernel__5x_cublas_gmma") == "yes");
    CHECK(tensorCoresByName("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma") ==
          "no");
    CHECK(tensorCoresByName("void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>") == "no");
    CHECK(tensorCoresByName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>") ==
          "unknown");
}

}  // namespace lanescope
