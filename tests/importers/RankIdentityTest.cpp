// Which rank a report belongs to, in the documented order (model/Report.h rankOf): the MPI rank
// it records, a rank variable of the captured environment (OMPI_COMM_WORLD_RANK, PMI_RANK,
// PMIX_RANK, RANK, SLURM_PROCID), Kineto distributedInfo, "rank<N>" in the file name; on the
// corpus's torchrun and Open MPI captures, read from the export and natively.
#include <sqlite3.h>

#include "Absent.h"
#include "ImportHelpers.h"
#include "importers/nsysrep/RepFile.h"
#include "importers/nsysrep/SystemEnvironment.h"
#include "model/MpiRank.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// A copy of `source` in `dir` with `sql` run on it (the original is never touched).
std::filesystem::path editedCopy(const std::filesystem::path& source, const std::filesystem::path& dir,
                                 const std::string& name, const std::string& sql) {
    const auto out = dir / name;
    std::filesystem::copy_file(source, out, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(out.string().c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    INFO((error ? error : ""));
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
    return out;
}

// The DeviceEnvironment text of an export.
std::string exportedEnvironment(const std::filesystem::path& path) {
    sqlite3* db = nullptr;
    std::string value;
    if (sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'DeviceEnvironment'", -1,
                               &stmt, nullptr) == SQLITE_OK &&
            sqlite3_step(stmt) == SQLITE_ROW)
            value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return value;
}

}  // namespace

TEST_CASE("rank identity: the environment's rank variables, in order") {
    auto found = [](std::string_view env) {
        const EnvironmentRank r = rankInEnvironment(env);
        return std::to_string(r.rank) + " " + std::string(r.variable);
    };
    // Open MPI under Slurm (the corpus's jacobi job): SLURM_PROCID numbers the launcher's task.
    CHECK(found("SLURM_PROCID=0;PMIX_RANK=4;OMPI_COMM_WORLD_RANK=4") == "4 OMPI_COMM_WORLD_RANK");
    CHECK(found("PMIX_RANK=3;PMI_RANK=2") == "2 PMI_RANK");
    CHECK(found("SLURM_PROCID=1;PMIX_RANK=3") == "3 PMIX_RANK");
    CHECK(found("SLURM_PROCID=1;RANK=9;LOCAL_RANK=1") == "9 RANK");  // srun torchrun: RANK is global
    CHECK(found("SLURM_PROCID=5") == "5 SLURM_PROCID");
    CHECK(found(std::string_view("A=1\0PMI_RANK=7\0B=2", 19)) == "7 PMI_RANK");  // the .nsys-rep's separator
    // Only whole names with a decimal value count.
    CHECK(found("LOCAL_RANK=1;MY_RANK=3;GROUP_RANK=0") == "-1 ");
    CHECK(found("OMPI_COMM_WORLD_RANK=;PMI_RANK=x1;RANK=-2;SLURM_PROCID=6") == "6 SLURM_PROCID");
    CHECK(found("RANK=99999999999;SLURM_PROCID=6") == "6 SLURM_PROCID");
    CHECK(found("") == "-1 ");
}

TEST_CASE("rank identity: torchrun's RANK in the DDP captures, from the export and natively") {
    for (const char* rank : {"0", "1"}) {
        for (const char* ext : {".sqlite", ".nsys-rep"}) {
            const auto report = importOk(dataFile(std::string("nsys-2025.3/ddp_rank") + rank + ext));
            INFO(report->meta.source_path);
            CHECK(report->meta.rank == std::stoi(rank));
            CHECK(rankSource(*report) == "environment");
        }
    }
    // No rank variable (a single-GPU run): the file name alone, and no rank at all without one.
    const auto single = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    CHECK(single->meta.rank == -1);
    CHECK(rankSource(*single) == "");
    CHECK(rankOf(*single) == -1);
}

TEST_CASE("rank identity: the recorded MPI rank, then the environment, then the file name") {
    const auto dir = tempDir("rank-identity");
    const auto rank1 = dataFile("nsys-2025.3/ddp_rank1.sqlite");
    // Launched by Open MPI under Slurm: OMPI_COMM_WORLD_RANK wins over SLURM_PROCID and the
    // file name's rank1.
    const auto ompi = importOk(editedCopy(rank1, dir, "ddp_rank1.sqlite",
                                          "UPDATE TARGET_INFO_SYSTEM_ENV SET value = 'SLURM_PROCID=0;' || value || "
                                          "';OMPI_COMM_WORLD_RANK=5' WHERE name = 'DeviceEnvironment'"));
    CHECK(rankOf(*ompi) == 5);
    CHECK(rankSource(*ompi) == "environment");
    // A thread named "MPI Rank 7" wins over the environment (its main thread is "python3").
    const auto named = importOk(editedCopy(rank1, dir, "ddp_rank1_named.sqlite",
                                           "UPDATE StringIds SET value = 'MPI Rank 7' WHERE value = 'python3'"));
    CHECK(rankOf(*named) == 7);
    CHECK(rankSource(*named) == "recorded");
    // Without the environment, the file name.
    const auto bare = importOk(editedCopy(rank1, dir, "ddp_rank1_bare.sqlite", "DELETE FROM TARGET_INFO_SYSTEM_ENV"));
    CHECK(bare->meta.rank == -1);
    CHECK(rankOf(*bare) == 1);
    CHECK(rankSource(*bare) == "file name");
    std::filesystem::remove_all(dir);
}

TEST_CASE("rank identity: Kineto distributedInfo") {
    const auto report = importOk(dataFile("kineto/ddp_rank1.pt.trace.json.gz"));
    CHECK(report->meta.rank == 1);
    CHECK(rankSource(*report) == "distributedInfo");
}

// The jacobi job of ../shared/corpus ran Open MPI under Slurm: every rank's SLURM_PROCID is 0,
// OMPI_COMM_WORLD_RANK and PMIX_RANK are 4, 2 and 6. The 2020.5 .qdrep holds the same
// environment as nsys 2025.3's export of it (the 2022.4 export beside it cut it short).
TEST_CASE("rank identity: the jacobi ranks' environment, natively and from the 2025.3 export") {
    const auto dir = tempDir("rank-identity-jacobi");
    const std::pair<const char*, int> ranks[] = {{"3", 4}, {"4", 2}, {"6", 6}};
    for (const auto& [report, rank] : ranks) {
        const auto qdrep =
            sharedFile(std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + report + ".qdrep");
        const auto xz = sharedFile(std::string("nsys-2025.3-exports/openhackathons-org__gpubootcamp__report") + report +
                                   ".sqlite.xz");
        if (qdrep.empty() || xz.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus jacobi reports");
        INFO(qdrep.string());
        std::string native(nsysrep::deviceEnvironment(nsysrep::readLayout(qdrep).summary));
        std::replace(native.begin(), native.end(), '\0', ';');
        const std::string exported = exportedEnvironment(inflatedXz(xz, dir));
        CHECK(native.size() > 10'000);
        CHECK(native == exported);
        CHECK(exported.find("SLURM_PROCID=0;") != std::string::npos);
        const EnvironmentRank found = rankInEnvironment(exported);
        CHECK(found.rank == rank);
        CHECK(found.variable == "OMPI_COMM_WORLD_RANK");
        // Each also records "MPI Rank N", which comes first and agrees.
        const auto imported = importOk(qdrep);
        CHECK(imported->meta.rank == rank);
        CHECK(rankSource(*imported) == "recorded");
    }
    std::filesystem::remove_all(dir);
}
