#pragma once

namespace lanescope::bench {

// CREATE TABLE statements (one SQL script) for the tables of an nsys 2025.3 export that the
// importer reads, as nsys-2025.3-tables.sql holds them.
const char* nsysSchemaSql();

}  // namespace lanescope::bench
