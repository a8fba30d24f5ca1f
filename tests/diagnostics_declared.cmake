# Fails when a source raises a diagnostic by indexing a Diagnostics map with a name of its
# own making: every diagnostic is declared in model/DiagnosticKinds.cpp (name, severity,
# explanation) and raised with countDiagnostic(diagnostics, Diag::...), so `lanescope-cli info`
# and the viewer can explain each one. Merge maps with mergeDiagnostics.
file(GLOB_RECURSE files
  "${SOURCE_DIR}/model/*.h" "${SOURCE_DIR}/model/*.cpp"
  "${SOURCE_DIR}/importers/*.h" "${SOURCE_DIR}/importers/*.cpp"
  "${SOURCE_DIR}/analysis/*.h" "${SOURCE_DIR}/analysis/*.cpp"
  "${SOURCE_DIR}/exporters/*.h" "${SOURCE_DIR}/exporters/*.cpp")
list(FILTER files EXCLUDE REGEX "/model/DiagnosticKinds\\.cpp$")
set(count 0)
foreach(f IN LISTS files)
  file(STRINGS "${f}" hits REGEX "diagnostics[ \t]*\\[|diagnostics\\.(emplace|try_emplace|insert|at)[ \t]*\\(")
  if(hits)
    message(SEND_ERROR "${f}: raises a diagnostic by hand (declare it in model/DiagnosticKinds and use countDiagnostic): ${hits}")
  endif()
  math(EXPR count "${count} + 1")
endforeach()
if(count LESS 50)
  message(SEND_ERROR "found only ${count} sources under ${SOURCE_DIR}: wrong SOURCE_DIR?")
endif()
message(STATUS "${count} sources raise diagnostics only through model/DiagnosticKinds")
