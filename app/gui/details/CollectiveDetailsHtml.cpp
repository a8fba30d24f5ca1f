#include "app/gui/details/CollectiveDetailsHtml.h"

#include <QLocale>
#include <cmath>
#include <optional>
#include <string_view>

#include "analysis/ranks/Collectives.h"
#include "app/gui/panels/communication/ReportCollectives.h"
#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr std::string_view kNoSizes = "no collective sizes: ";

QString collectiveDetailRow(const QString& label, const QString& value) {
    return QString("<tr><td style='color:palette(mid);padding-right:12px'>%1</td><td>%2</td></tr>")
        .arg(label.toHtmlEscaped(), value.toHtmlEscaped());
}

}  // namespace

QString collectiveDetailsHtml(const Report& report, EventRef event, const CommunicationAnalysis* across, int rank) {
    // Cheap first: only a kernel NCCL names as a collective is one.
    if (event.lane >= report.lanes.size()) return {};
    const IntervalColumns& ev = report.lanes[event.lane].events;
    if (event.index >= ev.size() || ev.kind[event.index] != EventKind::Kernel ||
        collectiveKind(report.str(ev.name_id[event.index])).empty())
        return {};
    const CommunicationAnalysis& own = reportCollectives(report);
    const std::optional<size_t> row = collectiveRowOf(own.rows, 0, report, event);
    if (!row) return {};
    const CollectiveRows& r = own.rows;
    const size_t i = *row;
    const QLocale english(QLocale::English);
    QString html = "<h4 style='margin-bottom:2px'>NCCL collective</h4><table cellspacing=2>";
    html += collectiveDetailRow("Operation", qs(collectiveOpName(r.op[i])));
    if (r.size_bytes[i] >= 0) {
        html += collectiveDetailRow("Size", QString("%1 (%2 bytes)")
                                                .arg(qs(formatBytes(r.size_bytes[i])))
                                                .arg(english.toString(qlonglong(r.size_bytes[i]))));
    } else {
        // The analysis's note says why: "rank 0: no collective sizes: the report holds no ...".
        QString why = "not recorded";
        for (const std::string& note : own.notes)
            if (const size_t at = note.find(kNoSizes); at != std::string::npos)
                why += ": " + qs(note.substr(at + kNoSizes.size()));
        html += collectiveDetailRow("Size", why);
    }
    if (r.ranks[i] >= 0) html += collectiveDetailRow("Ranks", QString::number(r.ranks[i]));
    if (!r.communicator[i].empty()) html += collectiveDetailRow("Communicator", qs(r.communicator[i]));
    if (std::isfinite(r.algbw_gbps[i]))
        html += collectiveDetailRow("AlgBW", QString("%1 GB/s").arg(r.algbw_gbps[i], 0, 'f', 3));
    if (std::isfinite(r.busbw_gbps[i]))
        html += collectiveDetailRow("BusBW", QString("%1 GB/s").arg(r.busbw_gbps[i], 0, 'f', 3));
    // Across the open ranks: this rank's wait in the matched collective.
    if (across && across->ranks.size() > 1 && rank >= 0 && size_t(rank) < across->ranks.size()) {
        const std::optional<size_t> a = collectiveRowOf(across->rows, uint16_t(rank), report, event);
        if (a && across->rows.instance[*a] >= 0) {
            const CollectiveInstance& instance = across->instances[size_t(across->rows.instance[*a])];
            html += collectiveDetailRow("Wait for the last rank", qs(formatDuration(across->rows.wait_ns[*a])));
            html += collectiveDetailRow("Skew", qs(formatDuration(instance.skew_ns)));
            html += collectiveDetailRow("Last rank", QString::number(instance.last_rank));
        } else if (a) {
            html += collectiveDetailRow("Wait for the last rank", "not matched on every open rank");
        }
    }
    return html + "</table>";
}

}  // namespace lanescope
