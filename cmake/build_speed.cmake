# Build speed and warning policy (measured in tests/perf/README.md, "Build time").
#
# - PODPERF_UNITY_BUILD (ON): every target compiles its sources in batches of
#   PODPERF_UNITY_BATCH_SIZE files (CMAKE_UNITY_BUILD), so the template-heavy third-party headers are
#   parsed and instantiated once per batch instead of once per file. File-local names must not clash
#   within a target (below).
# - PODPERF_PCH (ON): nlohmann/json, fmt and toml++ are precompiled once for podperf_analysis_base and reused by
#   the libraries above it, CLI11 with them for podperf_app
#   (podperf_precompile_headers). ccache caches such objects only with
#   CCACHE_SLOPPINESS=pch_defines,time_macros (scripts/build.sh sets it).
# - PODPERF_WERROR (OFF): warnings are errors (scripts/test.sh and CI turn it on).
option(PODPERF_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
set(PODPERF_UNITY_BATCH_SIZE 32 CACHE STRING "Sources per unity batch (PODPERF_UNITY_BUILD)")
option(PODPERF_PCH "Precompile the third-party headers (nlohmann/json, fmt, CLI11, toml++)" ON)
option(PODPERF_WERROR "Treat compiler warnings as errors" OFF)

if(PODPERF_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${PODPERF_UNITY_BATCH_SIZE})
endif()

# The unit tests are not batched (tests/unit/CMakeLists.txt): their file-local fixtures and helpers
# (TempDir, error_of, kDir, ...) clash across files too often for a list to keep up.
#
# Every other source shares a batch: within one batch all anonymous namespaces of a namespace are one
# namespace, so two sources of a target must not define the same file-local name (anonymous namespace
# or `static`: function with the same parameters, type, constant, alias). Overloads with different
# parameters are fine. A new clash is a compile error in Unity/unity_N_cxx.cxx naming both
# definitions ("redefinition of", "conflicting declaration", "ambiguating new declaration", "call of
# overloaded ... is ambiguous"). Fix it by renaming the newer file-local name after what it is
# (kSkuPrefix, not kPrefix; verdict_label_of, not label_of) or, where the two are the same thing,
# by sharing one definition from a header. Listing a source here (it then compiles alone, at 4-9 CPU
# seconds each, most of it the precompiled headers' templates instantiated again) is the last resort.
# -DPODPERF_UNITY_BUILD=OFF builds every source alone, as a check that each includes what it uses.
set(PODPERF_UNITY_SKIP_SOURCES tests/perf/runner_overhead.cpp)

# Applied once every target exists (the top-level CMakeLists.txt calls it last).
function(podperf_apply_unity_skips)
  foreach(source IN LISTS PODPERF_UNITY_SKIP_SOURCES)
    get_filename_component(dir ${source} DIRECTORY)
    if(dir MATCHES "^tests/" AND NOT PODPERF_BUILD_TESTS)
      continue()  # no tests/ directory configured (-DPODPERF_BUILD_TESTS=OFF)
    elseif(dir MATCHES "^tests/")
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

# Gives TARGET the precompiled headers of FROM (podperf_analysis_base: fmt, nlohmann/json, toml++) instead
# of precompiling them again. GCC uses a precompiled header only when the compile flags that affect it
# match (a mismatch is silent unless -Winvalid-pch, and the headers are then parsed as usual), so only
# targets that add include paths and definitions the headers do not read may share it.
function(podperf_reuse_precompiled_headers target from)
  if(NOT PODPERF_PCH)
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM ${from})
endfunction()
