#pragma once
#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

#include "query/TableSpec.h"

namespace lanescope::sql {

// Registers the "lanescope" virtual-table module on a connection and creates one virtual table
// per spec in its main schema, named after the spec. The connection owns the specs from then
// on. Each table tells SQLite what a query on it costs (xBestIndex): a range on its sorted
// column is found by binary search, an equality on its key column through an index, an
// equality on a segment column skips the other segments; rows come in the sorted column's
// order, so an ORDER BY on it costs nothing. False with SQLite's message in `error` on failure.
bool createVirtualTables(sqlite3* db, std::vector<std::unique_ptr<TableSpec>> specs, std::string& error);

}  // namespace lanescope::sql
