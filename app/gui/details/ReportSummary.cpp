#include "app/gui/details/ReportSummary.h"

#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QTimeZone>

#include "model/SystemProperties.h"
#include "timeline/QtText.h"

namespace lanescope {
namespace {

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:palette(mid);padding-right:16px'>%1</td><td>%2</td></tr>")
        .arg(key, value);
}

QString duration(int64_t ns) {
    if (ns >= 1'000'000'000) return QString::number(ns / 1e9, 'f', 3) + " s";
    if (ns >= 1'000'000) return QString::number(ns / 1e6, 'f', 3) + " ms";
    return QString::number(ns / 1e3, 'f', 3) + " µs";
}

}  // namespace

QString reportSummaryHtml(const Report& r) {
    const QLocale locale;
    const EventCounts& c = finishedCounts(r);
    QString html =
        "<h2>" + QFileInfo(QString::fromStdString(r.meta.source_path)).fileName().toHtmlEscaped() + "</h2><table>";
    html += row("File", qs(r.meta.source_path));
    html += row("Producer", qs(r.meta.producer + " " + r.meta.version));
    if (r.meta.start_utc_ns)
        html += row("Session start", QDateTime::fromMSecsSinceEpoch(r.meta.start_utc_ns / 1000000, QTimeZone::utc())
                                             .toString(Qt::ISODateWithMs) +
                                         " UTC");
    html += row("Duration", duration(r.meta.end_ns - r.meta.begin_ns));
    if (const std::string machine = describeMachine(r); !machine.empty()) html += row("Machine", qs(machine));
    for (const Gpu& g : r.gpus) html += row("GPU " + QString::number(g.device_id), qs(r.str(g.name_id)));
    html += row("Processes / threads", QString("%1 / %2").arg(r.processes.size()).arg(r.threads.size()));
    html += "</table><h3>Events</h3><table>";
    const std::pair<const char*, uint64_t> counts[] = {{"Kernels", c.kernels},
                                                       {"CUDA graph executions", c.graph_executions},
                                                       {"Memory copies", c.memcpy},
                                                       {"Memsets", c.memset},
                                                       {"CUDA API calls", c.cuda_api},
                                                       {"NVTX ranges", c.nvtx},
                                                       {"OS runtime calls", c.osrt},
                                                       {"NCCL", c.nccl},
                                                       {"Synchronizations", c.sync},
                                                       {"MPI calls", c.mpi},
                                                       {"OpenMP events", c.openmp},
                                                       {"CUDA event records", c.cuda_events},
                                                       {"UM CPU page faults", c.um_cpu_page_faults},
                                                       {"UM GPU page fault groups", c.um_gpu_page_faults},
                                                       {"Markers", c.instants - c.cuda_events - c.um_cpu_page_faults},
                                                       {"Counter samples", c.counter_samples},
                                                       {"CPU samples", c.cpu_samples},
                                                       {"Context switches", c.context_switches}};
    for (const auto& [label, n] : counts)
        if (n) html += row(label, locale.toString(static_cast<qulonglong>(n)));
    html += "</table>";
    if (!r.nsys_messages.empty())
        html += "<p>" + QString::number(r.nsys_messages.size()) +
                " messages from Nsight Systems: the Diagnostics panel lists them.</p>";
    if (!r.diagnostics.empty()) {
        html += "<h3>Diagnostics</h3><table>";
        for (const auto& [name, n] : r.diagnostics) html += row(qs(name), locale.toString(static_cast<qulonglong>(n)));
        html += "</table>";
    }
    return html;
}

// The Details panel with rank summaries open: what they are, and where their reports are.
QString rankSummariesHtml(const SummarySet& set) {
    constexpr qsizetype kListed = 64;
    QString html = QString(
                       "<h3>%1 rank summaries</h3><p>Compared in the Ranks panel. A summary holds no timeline: "
                       "double-click a rank there to open its full report.</p><table cellspacing=4>"
                       "<tr><th align=left>Rank</th><th align=left>Report</th></tr>")
                       .arg(set.size());
    for (qsizetype i = 0; i < qsizetype(set.size()) && i < kListed; ++i) {
        const RankInput& in = set.inputs[size_t(i)];
        html += QString("<tr><td>%1</td><td>%2</td></tr>")
                    .arg(QString::fromStdString(in.label).toHtmlEscaped(),
                         set.reports[i].isEmpty()
                             ? QString::fromStdString(in.source_path).toHtmlEscaped() + " <i>(not on this machine)</i>"
                             : set.reports[i].toHtmlEscaped());
    }
    html += "</table>";
    if (qsizetype(set.size()) > kListed) html += QString("<p>… and %1 more</p>").arg(qsizetype(set.size()) - kListed);
    return html;
}

}  // namespace lanescope
