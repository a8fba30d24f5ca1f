#include "query/TableSpec.h"

namespace lanescope::sql {

size_t TableSpec::rowCount() const {
    size_t rows = 0;
    for (size_t s = 0; s < segmentCount(); ++s) rows += segmentSize(s);
    return rows;
}

std::string createTableSql(const std::string& schemaAndName, const std::vector<ColumnDef>& columns) {
    std::string sql = "CREATE TABLE " + schemaAndName + "(";
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) sql += ", ";
        sql += columns[i].name;
        sql += columns[i].type == ColumnType::Integer ? " INTEGER"
               : columns[i].type == ColumnType::Real  ? " REAL"
                                                      : " TEXT";
    }
    return sql + ")";
}

}  // namespace lanescope::sql
