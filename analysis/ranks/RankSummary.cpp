#include "analysis/ranks/RankSummary.h"

#include <simdjson.h>

#include <fstream>
#include <system_error>

#include "analysis/GpuGaps.h"
#include "analysis/JsonWriter.h"
#include "analysis/Registry.h"

namespace lanescope {
namespace {

// A column as one compact JSON array: "[1,2,3]".
template <typename T, typename F>
std::string column(const std::vector<T>& values, F number) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(number(values[i]));
    }
    return out + ']';
}
template <typename T>
std::string column(const std::vector<T>& values) {
    return column(values, [](T v) { return v; });
}

void writeCollectives(JsonWriter& j, std::string_view key, const CollectiveColumns& c) {
    j.beginObject(key);
    j.beginArray("kinds");
    for (const std::string& k : c.kind_names) j.value("", k);
    j.endArray();
    j.raw("kind", column(c.kind, [](uint16_t k) { return int(k); }));
    std::vector<uint32_t> ordinal(c.size()), seen(c.kind_names.size(), 0);
    for (size_t i = 0; i < c.size(); ++i) ordinal[i] = seen[c.kind[i]]++;
    j.raw("ordinal", column(ordinal));
    j.raw("gpu", column(c.gpu));
    j.raw("start_ns", column(c.start_ns));
    j.raw("end_ns", column(c.end_ns));
    j.raw("block_start_ns", column(c.block_start_ns));
    j.raw("lane", column(c.ref, [](const EventRef& r) { return r.lane; }));
    j.raw("event", column(c.ref, [](const EventRef& r) { return r.index; }));
    j.endObject();
}

std::string summaryJson(const Report& report, const RankInput& in) {
    JsonWriter j;
    j.beginObject();
    j.value("format", kRankSummaryFormat);
    j.value("version", kRankSummaryVersion);
    j.value("written_by", "lanescope " LANESCOPE_VERSION);
    j.beginObject("source");
    j.value("path", in.source_path);
    j.value("file", in.file_name);
    j.value("format", report.meta.format);
    j.value("producer", report.meta.producer);
    j.value("version", report.meta.version);
    j.endObject();
    j.value("label", in.label);
    j.value("rank", in.rank);
    j.value("rank_from", in.rank_from);
    j.value("start_utc_ns", in.start_utc_ns);
    j.value("begin_ns", report.meta.begin_ns);
    j.value("end_ns", report.meta.end_ns);

    j.beginObject("steps");
    j.raw("number", column(in.steps, [](const StepRange& s) { return s.number; }));
    j.raw("start_ns", column(in.steps, [](const StepRange& s) { return s.start_ns; }));
    j.raw("end_ns", column(in.steps, [](const StepRange& s) { return s.end_ns; }));
    j.raw("lane", column(in.steps, [](const StepRange& s) { return s.range.lane; }));
    j.raw("event", column(in.steps, [](const StepRange& s) { return s.range.index; }));
    j.endObject();

    j.beginObject("gpu_shares");
    j.value("window_ns", in.shares.window_ns);
    j.value("compute_ns", in.shares.compute_ns);
    j.value("communication_ns", in.shares.communication_ns);
    j.value("overlap_ns", in.shares.overlap_ns);
    j.value("idle_ns", in.shares.idle_ns);
    j.endObject();

    writeCollectives(j, "nccl", in.nccl);
    writeCollectives(j, "mpi", in.mpi);
    j.beginObject("point_to_point");
    for (const auto& [name, t] : in.point_to_point) {
        j.beginObject(name);
        j.value("count", uint64_t{t.count});
        j.value("blocked_ns", t.blocked_ns);
        j.endObject();
    }
    j.endObject();

    GapOptions options;
    options.gap_ms = kRankSummaryGapMs;
    options.rows = -1;
    const std::vector<GpuGap> gaps = findGpuGaps(report, options);  // longest first
    int64_t total = 0;
    for (const GpuGap& g : gaps) total += g.duration_ns;
    j.beginObject("gpu_gaps");
    j.value("longer_than_ms", kRankSummaryGapMs, 3);
    j.value("count", uint64_t{gaps.size()});
    j.value("total_ns", total);
    j.beginArray("longest");
    for (size_t i = 0; i < gaps.size() && i < kRankSummaryLongestGaps; ++i) {
        j.beginObject();
        j.value("start_ns", gaps[i].start_ns);
        j.value("duration_ns", gaps[i].duration_ns);
        j.value("device_id", gaps[i].device_id);
        j.value("cause", gaps[i].cause_text);
        j.endObject();
    }
    j.endArray();
    j.endObject();

    j.beginObject("stats");
    for (std::string_view name : kRankSummaryStats) j.value(name, std::string(name) + ".csv");
    j.endObject();
    j.endObject();
    return j.str();
}

bool writeFile(const std::filesystem::path& path, const std::string& text, std::string& error) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) error = path.string() + ": cannot write";
    return bool(out);
}

// Reading: a small cursor over simdjson's DOM that remembers the first problem.
class Fields {
public:
    Fields(simdjson::dom::element e, std::string& error) : e_(e), error_(error) {}

    simdjson::dom::element at(std::string_view key) {
        simdjson::dom::element v;
        if (e_[key].get(v) != simdjson::SUCCESS) fail("no field '" + std::string(key) + "'");
        return v;
    }
    int64_t integer(std::string_view key) {
        int64_t v = 0;
        if (ok() && at(key).get_int64().get(v) != simdjson::SUCCESS)
            fail("'" + std::string(key) + "' is not an integer");
        return v;
    }
    std::string text(std::string_view key) {
        std::string_view v;
        if (ok() && at(key).get_string().get(v) != simdjson::SUCCESS) fail("'" + std::string(key) + "' is not text");
        return std::string(v);
    }
    template <typename T>
    std::vector<T> ints(std::string_view key, int64_t lo, int64_t hi) {
        std::vector<T> out;
        simdjson::dom::array a;
        if (!ok() || at(key).get_array().get(a) != simdjson::SUCCESS) {
            fail("'" + std::string(key) + "' is not an array");
            return out;
        }
        out.reserve(a.size());
        for (simdjson::dom::element v : a) {
            int64_t n = 0;
            if (v.get_int64().get(n) != simdjson::SUCCESS || n < lo || n > hi) {
                fail("'" + std::string(key) + "' holds a value that is not an integer in range");
                return {};
            }
            out.push_back(static_cast<T>(n));
        }
        return out;
    }
    Fields object(std::string_view key) {
        simdjson::dom::element v = ok() ? at(key) : e_;
        if (ok() && !v.is_object()) fail("'" + std::string(key) + "' is not an object");
        return Fields(ok() ? v : e_, error_);
    }
    bool ok() const { return error_.empty(); }
    void fail(const std::string& why) {
        if (error_.empty()) error_ = why;
    }
    simdjson::dom::element element() const { return e_; }

private:
    simdjson::dom::element e_;
    std::string& error_;
};

constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;

CollectiveColumns readCollectives(Fields f) {
    CollectiveColumns c;
    simdjson::dom::array kinds;
    if (!f.ok() || f.at("kinds").get_array().get(kinds) != simdjson::SUCCESS) {
        f.fail("'kinds' is not an array");
        return c;
    }
    for (simdjson::dom::element k : kinds) {
        std::string_view name;
        if (k.get_string().get(name) != simdjson::SUCCESS || name.empty()) return f.fail("a kind is not a name"), c;
        if (std::find(c.kind_names.begin(), c.kind_names.end(), name) != c.kind_names.end())
            return f.fail("kind '" + std::string(name) + "' listed twice"), c;
        c.kind_names.emplace_back(name);
    }
    if (c.kind_names.size() > UINT16_MAX) return f.fail("too many kinds"), c;
    c.kind = f.ints<uint16_t>("kind", 0, int64_t(c.kind_names.size()) - 1);
    c.gpu = f.ints<int32_t>("gpu", -1, INT32_MAX);
    c.start_ns = f.ints<int64_t>("start_ns", kMin, kMax);
    c.end_ns = f.ints<int64_t>("end_ns", kMin, kMax);
    c.block_start_ns = f.ints<int64_t>("block_start_ns", kMin, kMax);
    const auto lanes = f.ints<uint32_t>("lane", 0, UINT32_MAX), events = f.ints<uint32_t>("event", 0, UINT32_MAX);
    const size_t n = c.start_ns.size();
    if (!f.ok()) return c;
    if (c.kind.size() != n || c.gpu.size() != n || c.end_ns.size() != n || c.block_start_ns.size() != n ||
        lanes.size() != n || events.size() != n)
        return f.fail("columns of different lengths"), c;
    for (size_t i = 0; i < n; ++i) {
        if (!(c.start_ns[i] <= c.block_start_ns[i] && c.block_start_ns[i] <= c.end_ns[i]))
            return f.fail("a collective that does not run start <= block_start <= end"), c;
        if (i > 0 && (c.start_ns[i] < c.start_ns[i - 1] ||
                      (c.start_ns[i] == c.start_ns[i - 1] && c.end_ns[i] < c.end_ns[i - 1])))
            return f.fail("collectives not sorted by start"), c;
        c.ref.push_back({lanes[i], events[i]});
    }
    return c;
}

}  // namespace

std::string writeRankSummary(const Report& report, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) return dir.string() + ": cannot create the folder";
    std::string error;
    const RankInput in = extractRankInput(report);
    for (std::string_view name : kRankSummaryStats) {
        const std::optional<StatsTable> table = computeStats(report, name);
        if (!table) return std::string(name) + ": no such statistics report";
        if (!writeFile(dir / (std::string(name) + ".csv"), toCsv(*table), error)) return error;
    }
    // The JSON last: a folder with it is complete.
    if (!writeFile(dir / kRankSummaryFile, summaryJson(report, in), error)) return error;
    return "";
}

bool isRankSummary(const std::filesystem::path& path) {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec) && std::filesystem::is_regular_file(path / kRankSummaryFile, ec);
}

std::optional<RankInput> readRankSummary(const std::filesystem::path& dir, std::string& error) {
    const std::filesystem::path file = dir / kRankSummaryFile;
    error.clear();
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (const auto code = parser.load(file.string()).get(doc); code != simdjson::SUCCESS) {
        error = file.string() + ": " +
                (code == simdjson::IO_ERROR ? std::string("cannot read")
                                            : "not JSON (" + std::string(simdjson::error_message(code)) + ")");
        return std::nullopt;
    }
    std::string why;
    Fields top(doc, why);
    if (!doc.is_object() || top.text("format") != kRankSummaryFormat) {
        error = file.string() + ": not a Lanescope rank summary";
        return std::nullopt;
    }
    const int64_t version = top.integer("version");
    if (top.ok() && version > kRankSummaryVersion) {
        error = file.string() + ": rank summary version " + std::to_string(version) +
                " is newer than this Lanescope reads (" + std::to_string(kRankSummaryVersion) +
                "); summarize the report again or update Lanescope";
        return std::nullopt;
    }
    if (top.ok() && version < 1) why = "version " + std::to_string(version) + " is not one";

    RankInput in;
    Fields source = top.object("source");
    in.source_path = source.text("path");
    in.file_name = source.text("file");
    in.label = top.text("label");
    const int64_t rank = top.integer("rank");
    if (top.ok() && (rank < -1 || rank > INT32_MAX)) why = "'rank' out of range";
    in.rank = static_cast<int>(rank);
    in.rank_from = top.text("rank_from");
    in.start_utc_ns = top.integer("start_utc_ns");

    Fields steps = top.object("steps");
    const auto number = steps.ints<int64_t>("number", 0, kMax), start = steps.ints<int64_t>("start_ns", kMin, kMax),
               end = steps.ints<int64_t>("end_ns", kMin, kMax);
    const auto lanes = steps.ints<uint32_t>("lane", 0, UINT32_MAX),
               events = steps.ints<uint32_t>("event", 0, UINT32_MAX);
    if (steps.ok() && (start.size() != number.size() || end.size() != number.size() || lanes.size() != number.size() ||
                       events.size() != number.size()))
        why = "steps: columns of different lengths";
    for (size_t i = 0; steps.ok() && i < number.size(); ++i) {
        if (end[i] < start[i]) why = "steps: a step that ends before it starts";
        in.steps.push_back({number[i], start[i], end[i], {lanes[i], events[i]}});
    }

    Fields shares = top.object("gpu_shares");
    in.shares.window_ns = shares.integer("window_ns");
    in.shares.compute_ns = shares.integer("compute_ns");
    in.shares.communication_ns = shares.integer("communication_ns");
    in.shares.overlap_ns = shares.integer("overlap_ns");
    in.shares.idle_ns = shares.integer("idle_ns");

    if (top.ok()) in.nccl = readCollectives(top.object("nccl"));
    if (top.ok() && why.empty()) in.mpi = readCollectives(top.object("mpi"));
    Fields p2p = top.object("point_to_point");
    if (p2p.ok() && why.empty()) {
        simdjson::dom::object calls = p2p.element().get_object().value_unsafe();
        for (auto [name, value] : calls) {
            Fields call(value, why);
            if (!value.is_object()) why = "point_to_point: '" + std::string(name) + "' is not an object";
            const int64_t count = call.integer("count");
            if (call.ok() && (count < 0 || count > UINT32_MAX)) why = "point_to_point: a count out of range";
            in.point_to_point[std::string(name)] = {static_cast<uint32_t>(count), call.integer("blocked_ns")};
        }
    }
    if (!why.empty()) {
        error = file.string() + ": damaged rank summary: " + why;
        return std::nullopt;
    }
    return in;
}

}  // namespace lanescope
