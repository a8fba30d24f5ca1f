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
    return html + "</table>";
}

}  // namespace lanescope
