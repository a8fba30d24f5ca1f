#include "app/gui/EventDetailsHtml.h"

#include "model/EventDetails.h"

namespace lanescope {

QString eventDetailsHtml(const Report& report, EventRef event) {
    const auto fields = eventDetails(report, event);
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
    html += "</table>";
    // The call stack of a CUDA API or OS runtime call recorded with a backtrace, innermost first.
    const std::vector<StackFrameText> frames = stackFrames(report, backtraceOf(report, event));
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

}  // namespace lanescope
