# Every third-party dependency of podperf, found here and only here (docs/install.md says how to build
# on a cluster's own stack). What podperf's targets link:
#
#   podperf_third_party  fmt, nlohmann/json and toml++, header-only: fmt with FMT_HEADER_ONLY and toml++
#                        with TOML_HEADER_ONLY, so podperf needs neither libfmt.so nor libtomlplusplus.so
#                        to start (only their headers to build). Every library links it.
#   podperf_cli11        CLI11 (header-only by design): the command line, podperf_app only.
#   podperf_mpi          MPI's C API through CMake's MPI::MPI_C (podperf calls no MPI C++ binding; Open MPI
#                        5 no longer ships them, and libmpi_cxx.so is not linked), the C++ bindings'
#                        headers kept out (OMPI_SKIP_MPICXX, MPICH_SKIP_MPICXX). bench/ only: analysis/
#                        and offline/ link no MPI.
#   ZLIB::ZLIB, Threads::Threads, ${CMAKE_DL_LIBS}, and PODPERF_LIBFABRIC_INCLUDE_DIR (libfabric's
#   headers for types only: libfabric.so.1 is dlopened at run time, as are NVML, NCCL and libcuda).
#
# So the binary's load-time libraries are the MPI it was built against, zlib, libstdc++, libgcc and
# libc (with libm, and libdl/libpthread/librt where the C library still has them apart);
# tests/cli/needed_libs.sh checks it.
#
# Where the headers come from: the system's, or any prefix on CMAKE_PREFIX_PATH that has
# include/fmt/format.h, include/toml++/toml.h, include/nlohmann/json.hpp, include/CLI/CLI.hpp (a
# distribution's -dev packages unpacked with tests/device/fetch_deps.sh, or the projects' release
# trees as cloned: docs/install.md). Only the headers are read: the packages' CMake files and shared
# libraries, where present, are not used.
#
# Which MPI: MPI_HOME (CMake variable or environment), or -DMPI_C_COMPILER=/path/mpicc, else the
# EFA installer's Open MPI at /opt/amazon/openmpi where it exists (AWS clusters), else mpicc on PATH.

# fmt, nlohmann/json, toml++ and CLI11: the directory holding each one's headers, and its version
# for the configure log.
function(podperf_find_headers var header)
  find_path(${var} ${header} DOC "include directory holding ${header}")
  if(NOT ${var})
    message(FATAL_ERROR "podperf: ${header} not found. Give its include directory's prefix in CMAKE_PREFIX_PATH "
                        "(docs/install.md, 'Header-only dependencies').")
  endif()
endfunction()

# The first capture of `regex` in `file` under `dir`, or "unknown".
function(podperf_header_version out dir file regex)
  set(version unknown)
  if(EXISTS ${dir}/${file})
    file(STRINGS ${dir}/${file} lines REGEX "${regex}")
    foreach(line IN LISTS lines)
      if(line MATCHES "${regex}")
        set(version ${CMAKE_MATCH_1})
        break()
      endif()
    endforeach()
  endif()
  set(${out} ${version} PARENT_SCOPE)
endfunction()

podperf_find_headers(PODPERF_FMT_INCLUDE_DIR fmt/format.h)
podperf_find_headers(PODPERF_JSON_INCLUDE_DIR nlohmann/json.hpp)
podperf_find_headers(PODPERF_TOML_INCLUDE_DIR toml++/toml.h)
podperf_find_headers(PODPERF_CLI11_INCLUDE_DIR CLI/CLI.hpp)
podperf_header_version(_fmt_version ${PODPERF_FMT_INCLUDE_DIR} fmt/core.h "^#define FMT_VERSION ([0-9]+)")
if(_fmt_version MATCHES "^([0-9]+)([0-9][0-9])([0-9][0-9])$")  # 90100 -> 9.1.0
  math(EXPR _fmt_minor "${CMAKE_MATCH_2}")
  math(EXPR _fmt_patch "${CMAKE_MATCH_3}")
  set(_fmt_version "${CMAKE_MATCH_1}.${_fmt_minor}.${_fmt_patch}")
endif()
podperf_header_version(_toml_major ${PODPERF_TOML_INCLUDE_DIR} toml++/impl/version.h "^#define TOML_LIB_MAJOR ([0-9]+)")
podperf_header_version(_toml_minor ${PODPERF_TOML_INCLUDE_DIR} toml++/impl/version.h "^#define TOML_LIB_MINOR ([0-9]+)")
podperf_header_version(_cli11_version ${PODPERF_CLI11_INCLUDE_DIR} CLI/Version.hpp "^#define CLI11_VERSION \"([0-9.]+)\"")
message(STATUS "podperf: header-only fmt ${_fmt_version} (${PODPERF_FMT_INCLUDE_DIR}), toml++ ${_toml_major}.${_toml_minor} "
               "(${PODPERF_TOML_INCLUDE_DIR}), nlohmann/json (${PODPERF_JSON_INCLUDE_DIR}), CLI11 ${_cli11_version} "
               "(${PODPERF_CLI11_INCLUDE_DIR})")

# SYSTEM: their own warnings are not podperf's (-Werror). A directory the compiler searches anyway
# (/usr/include) is left off the command line by CMake.
add_library(podperf_third_party INTERFACE)
target_include_directories(podperf_third_party SYSTEM INTERFACE ${PODPERF_FMT_INCLUDE_DIR} ${PODPERF_JSON_INCLUDE_DIR}
  ${PODPERF_TOML_INCLUDE_DIR})
# toml++'s internal assertions are off in every build, as in its release library (what podperf linked
# before it was header-only): compiled into podperf without NDEBUG (the sanitizer and fuzz build, a
# Debug build), toml++ 3.3 asserts on some malformed input (parser.inl, parse_key) where, assertions
# off, it reports the same input as a parse error; the config fuzzer found it once toml++ was
# instrumented with podperf. With NDEBUG toml++ turns them off itself.
target_compile_definitions(podperf_third_party INTERFACE FMT_HEADER_ONLY=1 TOML_HEADER_ONLY=1
  "TOML_ASSERT=static_cast<void>")
add_library(podperf_cli11 INTERFACE)
target_include_directories(podperf_cli11 SYSTEM INTERFACE ${PODPERF_CLI11_INCLUDE_DIR})

# MPI, C API only. FindMPI's C component needs the C language (the compiler that mpicc wraps).
if(NOT DEFINED MPI_HOME AND NOT DEFINED ENV{MPI_HOME} AND NOT DEFINED MPI_C_COMPILER
   AND EXISTS /opt/amazon/openmpi/bin/mpicc)
  set(MPI_HOME /opt/amazon/openmpi)
endif()
enable_language(C)
find_package(MPI REQUIRED COMPONENTS C)
message(STATUS "podperf: MPI (standard ${MPI_C_VERSION}), C API, from ${MPI_C_COMPILER} (${MPI_C_LIBRARIES})")
add_library(podperf_mpi INTERFACE)
target_link_libraries(podperf_mpi INTERFACE MPI::MPI_C)
target_compile_definitions(podperf_mpi INTERFACE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)

find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)  # podperf triage reads .gz logs (zlib1g-dev)
# Boost.Math, header-only (libboost-math-dev; on a cluster: libboost-dev, boost-devel, or the headers in
# CMAKE_PREFIX_PATH): the t, noncentral t, F and gamma-family functions of analysis/stats.
find_package(Boost 1.74 REQUIRED)

# libfabric's header for types only; the EFA installer puts it under /opt/amazon/efa.
find_path(PODPERF_LIBFABRIC_INCLUDE_DIR rdma/fabric.h HINTS /opt/amazon/efa/include REQUIRED)

# An installed podperf keeps the path to a non-system MPI (/opt/amazon/openmpi/lib) in its RUNPATH,
# as the build tree's does, so it starts without LD_LIBRARY_PATH; LD_LIBRARY_PATH still overrides it.
if(NOT DEFINED CMAKE_INSTALL_RPATH_USE_LINK_PATH)
  set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
endif()
