#include "app/python/OpenedReport.h"

#include <string>

#include "app/python/Errors.h"

namespace lanescope::python {

sql::SqlResult OpenedReport::query(std::string_view sql) {
    std::lock_guard lock(sqlMutex_);
    std::string error;
    if (!sql_) sql_ = sql::ReportSql::open(*report_, error);
    if (!sql_) throw Error(error);
    sql::SqlResult result;
    error = sql_->query(sql, result);
    if (!error.empty()) throw Error(error);
    return result;
}

}  // namespace lanescope::python
