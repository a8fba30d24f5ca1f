// The collectives' CSV and JSON (CLI.md, nccl; docs/analyses.md, "Communication").
#include <cmath>
#include <cstdio>
#include <string>

#include "analysis/JsonWriter.h"
#include "analysis/StatsTable.h"
#include "analysis/communication/CollectiveInstances.h"

namespace lanescope {
namespace {

std::string bandwidthText(double gbps) {
    if (std::isnan(gbps)) return {};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", gbps);
    return buf;
}

// A number, or null when NaN (unknown).
void jsonNumber(JsonWriter& j, std::string_view key, double v, int decimals) {
    if (std::isnan(v))
        j.raw(key, "null");
    else
        j.value(key, v, decimals);
}

}  // namespace

CellTable collectiveRowCells(const CommunicationAnalysis& analysis) {
    const CollectiveRows& r = analysis.rows;
    CellTable t;
    t.header = {"Rank",       "Operation",     "Communicator", "Ranks",        "Size (bytes)",
                "Start (ns)", "Duration (ns)", "AlgBW (GB/s)", "BusBW (GB/s)", "Wait (ns)"};
    for (size_t i = 0; i < r.size(); ++i)
        t.rows.push_back({std::to_string(r.rank[i]), std::string(collectiveOpName(r.op[i])), r.communicator[i],
                          r.ranks[i] >= 0 ? std::to_string(r.ranks[i]) : "",
                          r.size_bytes[i] >= 0 ? std::to_string(r.size_bytes[i]) : "", std::to_string(r.start_ns[i]),
                          std::to_string(r.duration_ns[i]), bandwidthText(r.algbw_gbps[i]),
                          bandwidthText(r.busbw_gbps[i]), r.wait_ns[i] >= 0 ? std::to_string(r.wait_ns[i]) : ""});
    return t;
}

CellTable collectiveSummaryCells(const std::vector<CollectiveSummaryRow>& rows) {
    auto number = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return std::string(buf);
    };
    CellTable t;
    t.header = {"Operation", "Size bucket (bytes)", "Count", "Total (ns)", "Median (ns)",
                "P90 (ns)",  "Median BusBW (GB/s)"};
    for (const CollectiveSummaryRow& s : rows)
        t.rows.push_back({std::string(collectiveOpName(s.op)),
                          s.bucket_bytes >= 0 ? std::to_string(s.bucket_bytes) : "", std::to_string(s.count),
                          std::to_string(s.total_ns), number(s.median_ns), number(s.p90_ns),
                          bandwidthText(s.median_busbw_gbps)});
    return t;
}

std::string cellTableCsv(const CellTable& table) {
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        for (size_t c = 0; c < cells.size(); ++c) out += (c ? "," : "") + csvField(cells[c]);
        out += '\n';
    };
    line(table.header);
    for (const auto& row : table.rows) line(row);
    return out;
}

std::string communicationJson(const CommunicationAnalysis& analysis) {
    const CollectiveRows& r = analysis.rows;
    JsonWriter j;
    j.beginObject();
    j.beginArray("collectives");
    for (size_t i = 0; i < r.size(); ++i) {
        j.beginObject();
        j.value("rank", int64_t{r.rank[i]});
        j.value("operation", collectiveOpName(r.op[i]));
        j.value("communicator", r.communicator[i]);
        if (r.ranks[i] >= 0)
            j.value("ranks", int64_t{r.ranks[i]});
        else
            j.raw("ranks", "null");
        if (r.size_bytes[i] >= 0)
            j.value("size_bytes", r.size_bytes[i]);
        else
            j.raw("size_bytes", "null");
        j.value("start_ns", r.start_ns[i]);
        j.value("duration_ns", r.duration_ns[i]);
        jsonNumber(j, "algbw_gbps", r.algbw_gbps[i], 3);
        jsonNumber(j, "busbw_gbps", r.busbw_gbps[i], 3);
        if (r.wait_ns[i] >= 0)
            j.value("wait_ns", r.wait_ns[i]);
        else
            j.raw("wait_ns", "null");
        j.endObject();
    }
    j.endArray();
    j.beginArray("summary");
    for (const CollectiveSummaryRow& s : summarizeCollectives(r)) {
        j.beginObject();
        j.value("operation", collectiveOpName(s.op));
        if (s.bucket_bytes >= 0)
            j.value("size_bucket_bytes", s.bucket_bytes);
        else
            j.raw("size_bucket_bytes", "null");
        j.value("count", s.count);
        j.value("total_ns", s.total_ns);
        j.value("median_ns", s.median_ns, 1);
        j.value("p90_ns", s.p90_ns, 1);
        jsonNumber(j, "median_busbw_gbps", s.median_busbw_gbps, 3);
        j.endObject();
    }
    j.endArray();
    j.beginArray("ranks");
    for (size_t k = 0; k < analysis.ranks.size(); ++k) {
        const RankCommunication& rc = analysis.ranks[k];
        j.beginObject();
        j.value("rank", int64_t(k));
        j.value("offset_ns", analysis.offsets_ns[k]);
        j.value("comm_ns", rc.comm_ns);
        j.value("overlapped_ns", rc.overlapped_ns);
        jsonNumber(j, "overlap_pct", rc.comm_ns > 0 ? 100.0 * double(rc.overlapped_ns) / double(rc.comm_ns) : NAN, 2);
        j.value("wait_ns", rc.wait_ns);
        j.value("times_last", int64_t{rc.times_last});
        j.endObject();
    }
    j.endArray();
    j.beginArray("instances");
    for (const CollectiveInstance& in : analysis.instances) {
        j.beginObject();
        j.value("operation", collectiveOpName(r.op[in.rows.front()]));
        j.value("skew_ns", in.skew_ns);
        j.value("last_rank", int64_t{in.last_rank});
        j.endObject();
    }
    j.endArray();
    if (analysis.most_often_last >= 0)
        j.value("most_often_last", int64_t{analysis.most_often_last});
    else
        j.raw("most_often_last", "null");
    j.beginArray("notes");
    for (const std::string& note : analysis.notes) j.value({}, note);
    j.endArray();
    j.endObject();
    return j.str() + "\n";
}

}  // namespace lanescope
