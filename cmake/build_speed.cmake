# Build speed and warning policy (measured in tests/perf/README.md, "Build time").
#
# - PODPERF_UNITY_BUILD (ON): every target compiles its sources in batches of
#   PODPERF_UNITY_BATCH_SIZE files (CMAKE_UNITY_BUILD), so the template-heavy third-party headers are
#   parsed and instantiated once per batch instead of once per file. A source that cannot share a
#   batch (a clash of file-local names) is listed in PODPERF_UNITY_SKIP_SOURCES below.
# - PODPERF_PCH (ON): nlohmann/json, fmt, CLI11 and toml++ are precompiled once per target
#   (podperf_precompile_headers). ccache caches such objects only with
#   CCACHE_SLOPPINESS=pch_defines,time_macros (scripts/build.sh sets it).
# - PODPERF_WERROR (OFF): warnings are errors (scripts/test.sh and CI turn it on).
option(PODPERF_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
set(PODPERF_UNITY_BATCH_SIZE 16 CACHE STRING "Sources per unity batch (PODPERF_UNITY_BUILD)")
option(PODPERF_PCH "Precompile the third-party headers (nlohmann/json, fmt, CLI11, toml++)" ON)
option(PODPERF_WERROR "Treat compiler warnings as errors" OFF)

if(PODPERF_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${PODPERF_UNITY_BATCH_SIZE})
endif()

# The unit tests are not batched (tests/unit/CMakeLists.txt): their file-local fixtures and helpers
# (TempDir, error_of, kDir, ...) clash across files too often for a list to keep up.
# Sources that define a file-local name (anonymous namespace, static) that another source of their
# target also defines or a header declares: each compiles on its own. A new clash is a compile error
# naming both files (redefinition, ambiguous call): rename the file-local name or list the file here.
set(PODPERF_UNITY_SKIP_SOURCES
  analysis/compare.cpp analysis/compare_settings.cpp analysis/fs_findings.cpp analysis/hostlist.cpp
  analysis/logs/triage_transport.cpp analysis/logs/triage_watchdog.cpp analysis/nccl_log_findings.cpp
  analysis/pair_flags.cpp analysis/report/collective_table.cpp analysis/report/common.cpp
  analysis/report/compare_html.cpp analysis/report/findings_table.cpp analysis/report/fs_text.cpp
  analysis/report/html.cpp analysis/report/junit.cpp analysis/report/markdown.cpp
  analysis/report/summary_text.cpp analysis/report/svg.cpp analysis/report/triage_report.cpp
  analysis/report/verdict_text.cpp analysis/run_json_pairs_file.cpp analysis/sku.cpp
  analysis/topology_analysis.cpp analysis/verdict.cpp bench/collective_command.cpp bench/fs/fs_stage.cpp
  bench/node_map.cpp bench/pairs_command.cpp bench/pairs_run.cpp signals/kmsg.cpp signals/libfabric_probe.cpp
  signals/nvml.cpp sweep/adaptive_flat.cpp sweep/sweep_points.cpp tests/perf/runner_overhead.cpp)

# Applied once every target exists (the top-level CMakeLists.txt calls it last).
function(podperf_apply_unity_skips)
  foreach(source IN LISTS PODPERF_UNITY_SKIP_SOURCES)
    get_filename_component(dir ${source} DIRECTORY)
    if(dir MATCHES "^tests/")
      if(NOT PODPERF_BUILD_TESTS)
        continue()  # tests/ not configured (a bare machine's build): no such directory scope
      endif()
      set(scope DIRECTORY ${PROJECT_SOURCE_DIR}/${dir})
    else()
      set(scope DIRECTORY ${PROJECT_SOURCE_DIR})
    endif()
    set_source_files_properties(${PROJECT_SOURCE_DIR}/${source} ${scope} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()

# Precompiles fmt, nlohmann/json and the extra headers given (ARGN) for TARGET, a C++-only target.
function(podperf_precompile_headers target)
  if(NOT PODPERF_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE <fmt/format.h> <nlohmann/json.hpp> ${ARGN})
endfunction()
