// Hostile Chrome-trace / Kineto JSON: edits of the real trace (negative durations, huge
// numbers), small hand-made traces (unmatched ends, out of order, duplicate ids, unknown
// phases), a 100 MB string, deep nesting, and broken or odd gzip wrappers.
#include <random>

#include "DamagedCorpus.h"
#include "TestPaths.h"

namespace lanescope::test {
namespace {

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// A small but complete Kineto trace: a CPU op, a runtime call and the kernel it launched.
std::string kinetoTrace(const std::string& extraEvents) {
    return R"({"schemaVersion": 1, "displayTimeUnit": "ms", "traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 100.0, "dur": 50.0},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 110.0, "dur": 5.0, "args": {"correlation": 7}},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 120.0, "dur": 30.0, "args": {"device": 0, "stream": 7, "correlation": 7}})" +
           extraEvents + "\n]}\n";
}

std::string randomBytes(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    return bytes;
}

}  // namespace

void addJsonCases(std::vector<DamagedCase>& cases, const std::filesystem::path& dir, const std::filesystem::path& json,
                  const std::filesystem::path& gz) {
    auto add = [&](const std::string& name, const std::string& file, const std::string& content, Expect expect,
                   const std::string& diagnostic = {}) {
        writeBytes(dir / file, content);
        cases.push_back({"json " + name, dir / file, expect, diagnostic, {}});
    };
    const std::string real = readFile(json);

    add("negative durations", "negative-dur.json", replaceAll(real, "\"dur\": ", "\"dur\": -"), Expect::Opens,
        "json_negative_duration");
    add("timestamps near 2^63", "ts-2^63.json", replaceAll(real, "\"ts\": ", "\"ts\": 9223372036854775"),
        Expect::OpensOrRefused);
    add("ts and dur of 2^63 and -2^63", "int64-limits.json", kinetoTrace(R"(,
{"ph": "X", "cat": "cpu_op", "name": "huge", "pid": 10, "tid": 11, "ts": 9223372036854775807, "dur": 9223372036854775807},
{"ph": "X", "cat": "cpu_op", "name": "tiny", "pid": 10, "tid": 11, "ts": -9223372036854775808, "dur": 18446744073709551615},
{"ph": "X", "cat": "kernel", "name": "far", "pid": 0, "tid": 7, "ts": 1e300, "dur": 1e300, "args": {"device": 9223372036854775807, "stream": -1}})"),
        Expect::OpensOrRefused);
    add("end without begin", "unmatched-end.json", kinetoTrace(R"(,
{"ph": "E", "pid": 10, "tid": 12, "ts": 130.0},
{"ph": "B", "name": "open", "pid": 10, "tid": 13, "ts": 131.0})"),
        Expect::Opens, "json_unmatched_end");
    add("events out of order", "out-of-order.json", kinetoTrace(R"(,
{"ph": "X", "cat": "cpu_op", "name": "late", "pid": 10, "tid": 11, "ts": 900.0, "dur": 10.0},
{"ph": "E", "pid": 10, "tid": 11, "ts": 800.0},
{"ph": "B", "name": "range", "pid": 10, "tid": 11, "ts": 700.0},
{"ph": "X", "cat": "cpu_op", "name": "early", "pid": 10, "tid": 11, "ts": 1.0, "dur": 10.0})"),
        Expect::Opens);
    add("duplicate ids", "duplicate-ids.json", kinetoTrace(R"(,
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 112.0, "dur": 5.0, "args": {"correlation": 7}},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 120.0, "dur": 30.0, "args": {"device": 0, "stream": 7, "correlation": 7}},
{"ph": "M", "name": "thread_name", "pid": 10, "tid": 11, "args": {"name": "one"}},
{"ph": "M", "name": "thread_name", "pid": 10, "tid": 11, "args": {"name": "two"}},
{"ph": "s", "id": 7, "pid": 10, "tid": 11, "ts": 110.0, "cat": "ac2g", "name": "ac2g"},
{"ph": "s", "id": 7, "pid": 10, "tid": 11, "ts": 110.0, "cat": "ac2g", "name": "ac2g"},
{"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 120.0, "cat": "ac2g", "name": "ac2g", "bp": "e"})"),
        Expect::Opens);
    add("unknown phases, categories and field types", "unknown-fields.json", kinetoTrace(R"(,
{"ph": "Q", "cat": "cpu_op", "name": "what", "pid": 10, "tid": 11, "ts": 1.0, "dur": 1.0},
{"ph": "X", "cat": "no_such_category", "name": "x", "pid": "ten", "tid": {"a": 1}, "ts": "soon", "dur": [1]},
{"ph": "X", "name": "no time", "pid": 10, "tid": 11},
17, null, "text", [])"),
        Expect::Opens, "json_event_not_an_object");
    add("traceEvents not an array", "events-not-array.json", R"({"traceEvents": {"ph": "X"}})", Expect::OpensOrRefused);
    add("deep nesting", "deep-nesting.json",
        "{\"traceEvents\":" + std::string(100000, '[') + std::string(100000, ']') + "}", Expect::OpensOrRefused);
    add("a 100 MB string", "string-100MB.json",
        kinetoTrace(",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + std::string(100 << 20, 'n') +
                    "\", \"pid\": 10, \"tid\": 11, \"ts\": 1.0, \"dur\": 1.0}"),
        Expect::OpensOrRefused);  // a reader may set a limit on one event and say so
    add("unterminated string", "unterminated-string.json", kinetoTrace(",\n{\"name\": \"abc"), Expect::Refused);
    add("Chrome JSON array format", "array-format.json",
        R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}])", Expect::Opens);
    add("JSON that is no trace", "not-a-trace.json", R"({"recipes": [{"name": "soup"}]})", Expect::Refused);

    // gzip: garbage named .json.gz, a valid gzip of garbage, a header alone, a gzip of a
    // valid trace under .json, and a trace split over two gzip members (RFC 1952 allows it).
    add("random bytes named .json.gz", "random.json.gz", randomBytes(4096, 7), Expect::Refused);
    add("gzip of random bytes", "gzip-of-random.json.gz", gzipBytes(randomBytes(100000, 8)), Expect::Refused);
    add("gzip header only", "gzip-header.json.gz", gzipBytes(real).substr(0, 10), Expect::Refused);
    const std::string gzReal = readFile(gz);
    add("gzip trace named .json", "gzip-named.json", gzReal, Expect::Opens);
    const std::string small = kinetoTrace("");
    add("trace in two gzip members", "two-members.json.gz",
        gzipBytes(small.substr(0, small.size() / 2)) + gzipBytes(small.substr(small.size() / 2)),
        Expect::OpensOrRefused);
}

}  // namespace lanescope::test
