#pragma once
#include <memory>
#include <mutex>
#include <string_view>

#include "model/Report.h"
#include "query/ReportSql.h"

namespace lanescope::python {

// One report opened from Python (the object behind lanescope.Report): the finished model,
// never changed again, whose columns numpy arrays view in place (each such array keeps its
// Python Report object, and so this, alive), and the SQL session over it, made on first use.
class OpenedReport {
public:
    OpenedReport(std::unique_ptr<Report> report, bool fromCache) : report_(std::move(report)), fromCache_(fromCache) {}
    OpenedReport(const OpenedReport&) = delete;
    OpenedReport& operator=(const OpenedReport&) = delete;

    const Report& model() const { return *report_; }
    bool fromCache() const { return fromCache_; }  // read back from a saved model, not imported
    // The last statement's result of `sql`; throws Error with SQLite's one-line message. One
    // query at a time (ReportSql is for one thread); call without the GIL.
    sql::SqlResult query(std::string_view sql);

private:
    std::unique_ptr<const Report> report_;
    bool fromCache_ = false;
    std::mutex sqlMutex_;
    std::unique_ptr<sql::ReportSql> sql_;  // after report_, so destroyed before it
};

}  // namespace lanescope::python
