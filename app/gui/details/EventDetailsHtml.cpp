#include "app/gui/details/EventDetailsHtml.h"

#include "model/NvtxPayloadDecoder.h"

namespace lanescope {
namespace {

// An NVTX range's or mark's extended payload (NCCL's communicator, message size, ...): a table of
// its fields, each name beside its value; nothing when it carries none.
QString payloadHtml(const std::vector<NvtxPayloadField>& payload) {
    if (payload.empty()) return {};
    QString html = "<h4 style='margin-bottom:2px'>Payload</h4><table cellspacing=2>";
    for (const NvtxPayloadField& f : payload)
        html +=
            QString("<tr><td style='color:palette(mid);padding-right:12px'>%1</td><td>%2</td></tr>")
                .arg(QString::fromStdString(f.name).toHtmlEscaped(), QString::fromStdString(f.text).toHtmlEscaped());
    return html + "</table>";
}

// The fields as a table under the name as a heading, then the payload and the call stack when
// there are.
QString detailsHtml(const std::vector<DetailField>& fields, const std::vector<NvtxPayloadField>& payload,
                    uint32_t stack, const Report& report) {
    QString html;
    for (const DetailField& f : fields) {
        const QString value = QString::fromStdString(f.value).toHtmlEscaped();
        if (f.label == "Name") {
            html += "<h3 style='margin-bottom:4px'>" + value + "</h3><table cellspacing=2>";
            continue;
        }
        html += QString("<tr><td style='color:palette(mid);padding-right:12px'>%1</td><td>%2</td></tr>")
                    .arg(QString::fromStdString(f.label).toHtmlEscaped(), value);
    }
    html += "</table>" + payloadHtml(payload);
    const std::vector<StackFrameText> frames = stackFrames(report, stack);
    if (!frames.empty()) {
        html += QString("<h4 style='margin-bottom:2px'>Call stack (%1 frames)</h4><table cellspacing=1>")
                    .arg(frames.size());
        for (const StackFrameText& f : frames) {
            const QString module = QString::fromStdString(f.module);
            html += QString("<tr><td>%1</td><td style='color:palette(mid);padding-left:8px'>%2</td></tr>")
                        .arg(QString::fromStdString(f.function).toHtmlEscaped(),
                             module.mid(module.lastIndexOf('/') + 1).toHtmlEscaped());
        }
        html += "</table>";
    }
    return html;
}

}  // namespace

QString eventDetailsHtml(const Report& report, EventRef event) {
    // CUDA API and OS runtime calls recorded with a backtrace have a stack.
    return detailsHtml(eventDetails(report, event), nvtxPayloadFields(report, event.lane, event.index),
                       backtraceOf(report, event), report);
}

QString instantDetailsHtml(const Report& report, InstantRef instant) {
    const auto lane = uint32_t(instant.lane), index = uint32_t(instant.index);
    return detailsHtml(instantDetails(report, instant), nvtxMarkPayloadFields(report, lane, index),
                       sampleStackOf(report, instant), report);
}

}  // namespace lanescope
