// The declared diagnostics (model/DiagnosticKinds.h): unique names, well-formed families,
// explanations a user can read, and the lookup by name that `info` and the viewer use.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "model/DiagnosticKinds.h"
#include "model/LaneFreezer.h"

using namespace lanescope;

TEST_CASE("every diagnostic is declared once, with a unique name, a severity and an explanation") {
    const auto declared = declaredDiagnostics();
    REQUIRE(declared.size() >= 40);
    std::set<std::string_view> names;
    for (size_t i = 0; i < declared.size(); ++i) {
        const DiagnosticKind& k = declared[i];
        INFO(k.name);
        CHECK(static_cast<size_t>(k.id) == i);
        CHECK(&diagnosticKind(k.id) == &k);
        CHECK(names.insert(k.name).second);
        CHECK(!k.name.empty());
        // Names are lower-case snake case (a family's fixed text too); the table names of
        // <table>_lacks_<column> and the lane kind nvtx_start/end are the only other characters.
        for (char c : k.name)
            CHECK((std::islower(static_cast<unsigned char>(c)) || std::isdigit(c) ||
                   std::string_view("_<>:/").find(c) != std::string_view::npos));
        // One line for a person: a sentence that ends with a full stop, no line break.
        CHECK(k.explanation.size() > 20);
        CHECK(k.explanation.size() < 200);
        CHECK(k.explanation.find('\n') == std::string_view::npos);
        CHECK(k.explanation.ends_with('.'));
        CHECK(std::isupper(static_cast<unsigned char>(k.explanation.front())));
        // A family's explanation names each of its variable parts.
        if (k.isFamily())
            for (size_t open = k.name.find('<'); open != std::string_view::npos; open = k.name.find('<', open + 1)) {
                const std::string_view part = k.name.substr(open, k.name.find('>', open) - open + 1);
                CHECK(k.explanation.find(part) != std::string_view::npos);
            }
        // Each name, a family's filled in, describes as its declaration.
        const size_t parts = static_cast<size_t>(std::count(k.name.begin(), k.name.end(), '<'));
        const std::string name = parts == 0   ? diagnosticName(k.id)
                                 : parts == 1 ? diagnosticName(k.id, {"x"})
                                              : diagnosticName(k.id, {"x", "y"});
        CHECK(parts <= 2);
        CHECK(describeDiagnostic(name).kind == &k);
    }
    // No fixed name is also a name of some family: describeDiagnostic would be ambiguous.
    for (const DiagnosticKind& fixed : declared)
        for (const DiagnosticKind& family : declared)
            if (!fixed.isFamily() && family.isFamily()) CHECK_FALSE(family.matches(fixed.name));
}

TEST_CASE("families are named with their variable parts and described by their pattern") {
    CHECK(diagnosticName(Diag::TableLacksColumn, {"GPU_METRICS", "value"}) == "GPU_METRICS_lacks_value");
    CHECK(diagnosticName(Diag::JsonUnknownCategory, {"Trace"}) == "json_unknown_category:Trace");
    CHECK(diagnosticName(Diag::JsonUnsupportedPhase, {""}) == "json_unsupported_phase:");
    CHECK_THROWS(diagnosticName(Diag::TableLacksColumn, {"GPU_METRICS"}));

    const DiagnosticDescription lacks = describeDiagnostic("CUPTI_ACTIVITY_KIND_KERNEL_lacks_start");
    CHECK(lacks.declared());
    CHECK(lacks.kind->id == Diag::TableLacksColumn);
    CHECK(lacks.severity == DiagnosticSeverity::Error);
    // The explanation names the table and the column.
    CHECK(lacks.explanation.starts_with("The table CUPTI_ACTIVITY_KIND_KERNEL lacks its required column start "));
    CHECK(diagnosticKind(Diag::TableLacksColumn).variableParts("A_B_lacks_c") ==
          std::vector<std::string_view>{"A_B", "c"});
    CHECK(diagnosticKind(Diag::TableLacksColumn).variableParts("A_B_lack_c").empty());
    CHECK(describeDiagnostic("json_unknown_category:Trace").explanation.starts_with("Events of the category Trace, "));
    CHECK(describeDiagnostic("json_unsupported_phase:").explanation.starts_with("Events of the phase (ph) \"\", "));

    CHECK(describeDiagnostic("json_unknown_category:Trace").kind->id == Diag::JsonUnknownCategory);
    CHECK(describeDiagnostic("json_unsupported_phase:").kind->id == Diag::JsonUnsupportedPhase);
    // A category that itself looks like another family: the pattern with more fixed text wins.
    CHECK(describeDiagnostic("json_unknown_category:a_lacks_b").kind->id == Diag::JsonUnknownCategory);
    CHECK_FALSE(describeDiagnostic("json_unknown_category").declared());
    CHECK_FALSE(describeDiagnostic("GPU_METRICS_lack_value").declared());
}

TEST_CASE("severities say what a diagnostic means for the report") {
    CHECK(describeDiagnostic("nvtx_range_without_end").severity == DiagnosticSeverity::Warning);
    CHECK(describeDiagnostic("json_fwdbwd_flows_not_shown").severity == DiagnosticSeverity::Info);
    CHECK(describeDiagnostic("perfetto_truncated_packet").severity == DiagnosticSeverity::Error);
    CHECK(describeDiagnostic("nsys_rep_version_unverified").severity == DiagnosticSeverity::Warning);
    CHECK(describeDiagnostic("nsys_rep_unknown_event_type").declared());
    CHECK(describeDiagnostic("nsys_rep_unknown_field").severity == DiagnosticSeverity::Info);
    CHECK(severityName(DiagnosticSeverity::Info) == "info");
    CHECK(severityName(DiagnosticSeverity::Warning) == "warning");
    CHECK(severityName(DiagnosticSeverity::Error) == "error");

    // A name this Lanescope does not know (from a newer one, say): a warning, explained generically.
    const DiagnosticDescription unknown = describeDiagnostic("frobnicated_events");
    CHECK_FALSE(unknown.declared());
    CHECK(unknown.severity == DiagnosticSeverity::Warning);
    CHECK(!unknown.explanation.empty());

    Diagnostics d;
    CHECK_FALSE(worstSeverity(d).has_value());
    countDiagnostic(d, Diag::JsonFlowIgnored);
    CHECK(worstSeverity(d) == DiagnosticSeverity::Info);
    countDiagnostic(d, Diag::JsonUnmatchedEnd, 3);
    CHECK(worstSeverity(d) == DiagnosticSeverity::Warning);
    countDiagnostic(d, Diag::TableLacksColumn, {"T", "c"});
    CHECK(worstSeverity(d) == DiagnosticSeverity::Error);
    CHECK(d == Diagnostics{{"json_flow_ignored", 1}, {"json_unmatched_end", 3}, {"T_lacks_c", 1}});
    Diagnostics more{{"json_unmatched_end", 2}, {"perfetto_unmatched_end", 1}};
    mergeDiagnostics(d, more);
    CHECK(d["json_unmatched_end"] == 5);
    CHECK(d["perfetto_unmatched_end"] == 1);
}

TEST_CASE("every lane kind's freezing diagnostics are declared with the names freezeLane used") {
    for (LaneKind kind : {LaneKind::OsRuntime, LaneKind::CudaApi, LaneKind::Nvtx, LaneKind::NvtxStartEnd,
                          LaneKind::GpuStream, LaneKind::CudaSync, LaneKind::Nccl, LaneKind::NvtxGpuProjection}) {
        // The names were "<lane kind name, lower case, spaces as _>_deeper_than_254".
        std::string prefix(laneKindName(kind));
        for (char& c : prefix) c = c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        CHECK(diagnosticName(deeperThan254Of(kind)) == prefix + "_deeper_than_254");
        if (const auto overlap = overlapWithoutNestingOf(kind))
            CHECK(diagnosticName(*overlap) == prefix + "_overlap_without_nesting");
    }
    CHECK_FALSE(overlapWithoutNestingOf(LaneKind::GpuStream).has_value());
}
