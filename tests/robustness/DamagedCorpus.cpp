// Assembles the damaged-file corpus from tests/data: byte damage to every format, SQL edits,
// hostile JSON, and files whose extension lies about their content (importFile sniffs the
// content first, so a real report under a wrong name must still open with the same counts).
#include "DamagedCorpus.h"

#include <zlib.h>

#include <fstream>
#include <stdexcept>

#include "TestPaths.h"

namespace lanescope::test {

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string gzipBytes(const std::string& bytes) {
    z_stream z{};
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    std::string out(deflateBound(&z, bytes.size()) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
    return out;
}

namespace {

// A real 1x1 PNG.
constexpr char kPngBytes[] =
    "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9c"
    "c\xf8\x0f\x04\0\x09\xfb\x03\xfd\xe3U\xf2\x9c\0\0\0\0IEND\xae"
    "B`\x82";
const std::string kPng(kPngBytes, sizeof kPngBytes - 1);

}  // namespace

std::vector<DamagedCase> makeDamagedCorpus(const std::filesystem::path& dir, const std::filesystem::path& pftrace) {
    const auto sqlite = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto sqlite2022 = dataFile("nsys-2022.4/cpu_nvtx_threads.sqlite");
    const auto json = dataFile("kineto/train_1gpu_rank0.pt.trace.json");
    const auto gz = dataFile("kineto/ddp_rank0.pt.trace.json.gz");

    std::vector<DamagedCase> cases;
    // A truncated or damaged JSON, gzip or SQLite file is refused when cut (never shown as a
    // whole report); a Perfetto trace is a stream of packets, so a cut one may open with a
    // diagnostic.
    addByteDamage(cases, dir, sqlite, "nsys2025", true);
    addByteDamage(cases, dir, sqlite2022, "nsys2022", true);
    addByteDamage(cases, dir, json, "kineto", true);
    addByteDamage(cases, dir, gz, "kinetogz", true);
    addByteDamage(cases, dir, pftrace, "perfetto", false);
    addSqliteEdits(cases, dir, sqlite);
    addJsonCases(cases, dir, json, gz);

    auto renamed = [&](const std::filesystem::path& original, const std::string& name) {
        std::filesystem::copy_file(original, dir / name);
        cases.push_back(
            {"renamed " + original.filename().string() + " to " + name, dir / name, Expect::Opens, {}, original});
    };
    renamed(json, "json-named.sqlite");
    renamed(json, "json-named.pftrace");
    renamed(sqlite, "sqlite-named.json");
    renamed(sqlite, "sqlite-named.json.gz");
    renamed(sqlite, "sqlite-named.pftrace");
    renamed(sqlite, "sqlite-named.nsys-rep");
    renamed(pftrace, "perfetto-named.json");
    renamed(pftrace, "perfetto-named.sqlite");
    renamed(gz, "gzip-named.sqlite");

    auto refused = [&](const std::string& name, const std::string& bytes) {
        writeBytes(dir / name, bytes);
        cases.push_back({name, dir / name, Expect::Refused, {}, {}});
    };
    refused("png-named.pftrace", kPng);
    refused("png-named.sqlite", kPng);
    refused("png-named.json", kPng);
    // Trace.packet with a length of 2^63: a reader must not trust it.
    refused("huge-length.pftrace", std::string("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x08\x01", 12));
    refused("empty.nsys-rep", "");
    return cases;
}

}  // namespace lanescope::test
