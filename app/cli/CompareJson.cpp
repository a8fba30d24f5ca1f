#include "app/cli/CompareJson.h"

#include <limits>

#include "analysis/JsonWriter.h"
#include "analysis/ranks/RankSpread.h"

namespace lanescope::cli {
namespace {

constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();

void stragglerJson(JsonWriter& j, const RankComparison& c) {
    const Straggler& s = c.straggler;
    if (s.report < 0) {
        j.raw("straggler", "null");
        return;
    }
    j.beginObject("straggler");
    j.value("report", s.report);
    j.value("label", c.ranks[size_t(s.report)].label);
    j.value("basis", s.basis);
    j.value("caused_wait_ns", s.caused_wait_ns);
    j.value("times_last", uint64_t{s.times_last});
    j.value("contested_collectives", uint64_t{s.collectives});
    j.value("excess_ns", s.excess_ns);
    j.endObject();
}

void skewJson(JsonWriter& j, std::string_view key, const SkewPercentiles& p) {
    j.beginObject(key);
    j.value("count", p.count);
    j.value("p50", p.p50_ns);
    j.value("p90", p.p90_ns);
    j.value("p99", p.p99_ns);
    j.value("max", p.max_ns);
    j.endObject();
}

// The job at a glance (many ranks): slowest and fastest rank per step, skew percentiles.
void spreadJson(JsonWriter& j, const RankComparison& c, const RankSpread& spread) {
    j.beginObject("summary");
    skewJson(j, "step_end_skew_ns", spread.step_end_skew);
    skewJson(j, "arrival_skew_ns", spread.arrival_skew);
    j.beginArray("steps");
    for (const StepSpread& s : spread.steps) {
        j.beginObject();
        j.value("number", s.number);
        j.value("ranks", uint64_t{s.ranks});
        j.value("slowest", s.slowest);
        j.value("slowest_label", c.ranks[size_t(s.slowest)].label);
        j.value("slowest_ns", s.slowest_ns);
        j.value("fastest", s.fastest);
        j.value("fastest_label", c.ranks[size_t(s.fastest)].label);
        j.value("fastest_ns", s.fastest_ns);
        j.value("end_skew_ns", s.end_skew_ns);
        j.endObject();
    }
    j.endArray();
    j.endObject();
}

}  // namespace

std::string compareJson(const std::vector<RankInput>& inputs, const RankComparison& c) {
    const RankAlignment& a = c.alignment;
    JsonWriter j;
    j.beginObject();
    j.value("align", alignModeName(a.mode));
    j.value("collectives_from", c.collectives_from);
    j.beginArray("files");
    for (const RankInput& in : inputs) j.value("", in.source_path);
    j.endArray();
    j.beginArray("offsets_ns");
    for (int64_t o : a.offsets_ns) j.value("", o);
    j.endArray();
    j.value("reference", a.reference);
    j.beginArray("residual_skew_median_ns");
    for (int64_t v : a.residual_median_ns) j.value("", v);
    j.endArray();
    j.beginArray("residual_skew_max_ns");
    for (int64_t v : a.residual_max_ns) j.value("", v);
    j.endArray();
    j.beginArray("notes");
    for (const auto& n : a.notes) j.value("", n);
    j.endArray();

    j.beginArray("ranks");
    for (size_t i = 0; i < c.ranks.size(); ++i) {
        const RankMetrics& m = c.ranks[i];
        j.beginObject();
        j.value("file", inputs[i].file_name);
        j.value("label", m.label);
        j.value("rank", m.rank);
        j.value("rank_from", inputs[i].rank_from);
        j.value("offset_ns", m.offset_ns);
        j.beginObject("steps");
        j.value("count", m.step_ns.count);
        j.value("total_ns", m.step_ns.total);
        j.value("mean_ns", m.step_ns.mean, 1);
        j.value("median_ns", m.step_ns.median, 1);
        j.value("min_ns", m.step_ns.min);
        j.value("max_ns", m.step_ns.max);
        j.beginArray("durations_ns");
        for (const StepRange& s : m.steps) j.value("", s.end_ns - s.start_ns);
        j.endArray();
        j.endObject();
        const GpuShares& g = m.shares;
        j.beginObject("gpu");
        j.value("window_ns", g.window_ns);
        j.value("compute_ns", g.compute_ns);
        j.value("communication_ns", g.communication_ns);
        j.value("overlap_ns", g.overlap_ns);
        j.value("idle_ns", g.idle_ns);
        j.value("compute_share", g.share(g.compute_ns), 4);
        j.value("communication_share", g.share(g.communication_ns), 4);
        j.value("idle_share", g.share(g.idle_ns), 4);
        j.value("communication_hidden_share", g.hiddenCommunication(), 4);
        j.endObject();
        j.value("wait_ns", m.wait_ns);
        j.value("caused_wait_ns", m.caused_wait_ns);
        j.value("times_last", uint64_t{m.times_last});
        j.beginObject("collectives");
        for (const auto& [kind, t] : m.collectives) {
            j.beginObject(kind);
            j.value("count", uint64_t{t.count});
            j.value("kernel_ns", t.kernel_ns);
            j.value("wait_ns", t.wait_ns);
            j.endObject();
        }
        j.endObject();
        j.value("point_to_point_ns", m.point_to_point_ns);
        j.beginObject("point_to_point");
        for (const auto& [name, t] : m.point_to_point) {
            j.beginObject(name);
            j.value("count", uint64_t{t.count});
            j.value("blocked_ns", t.blocked_ns);
            j.endObject();
        }
        j.endObject();
        j.endObject();
    }
    j.endArray();

    j.beginArray("collectives");
    for (const MatchedCollective& mc : c.collectives) {
        j.beginObject();
        j.value("name", mc.kind);
        j.value("ordinal", uint64_t{mc.ordinal});
        j.value("present", mc.present);
        j.value("last", mc.last);
        auto times = [&j](const char* key, const std::vector<int64_t>& v) {
            j.beginArray(key);
            for (int64_t t : v) t == kMissing ? j.raw("", "null") : j.value("", t);
            j.endArray();
        };
        times("arrival_ns", mc.arrival_ns);
        times("end_ns", mc.end_ns);
        times("wait_ns", mc.wait_ns);
        j.endObject();
    }
    j.endArray();
    stragglerJson(j, c);
    spreadJson(j, c, rankSpread(c));
    j.endObject();
    return j.str();
}

}  // namespace lanescope::cli
