#pragma once
#include <string_view>
#include <vector>

namespace lanescope::sql {

// How Nsight Systems 2025.3's SQLite export declares one table beyond its columns' types:
// the columns it declares NOT NULL and its primary key, names separated by spaces ("" none).
// Learnt from the corpus's exports by scripts/learn-nsys-declarations.py (NsysDeclarations.inc).
struct NsysDeclaration {
    std::string_view table;
    std::string_view notNull;
    std::string_view primaryKey;
};

// nsys's declaration of a table, nullptr for a table no nsys export of the corpus has: the
// export writes a table only when it is nsys's or Lanescope's own tables are asked for.
const NsysDeclaration* nsysDeclaration(std::string_view table);

// Whether `column` is one of the names in `names` (space separated).
bool namesHold(std::string_view names, std::string_view column);

}  // namespace lanescope::sql
