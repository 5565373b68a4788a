# Decides PODPERF_CUDA_ENABLED from PODPERF_WITH_CUDA (AUTO|ON|OFF).
# AUTO turns the NCCL build on where nvcc and nccl.h are found (default toolkit root /usr/local/cuda).
set(PODPERF_CUDA_ENABLED OFF)
if(NOT PODPERF_WITH_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  find_path(PODPERF_NCCL_INCLUDE_DIR nccl.h HINTS /usr/local/cuda/include ENV NCCL_HOME PATH_SUFFIXES include)
  find_library(PODPERF_NCCL_LIBRARY nccl HINTS /usr/local/cuda/lib64 ENV NCCL_HOME PATH_SUFFIXES lib lib64)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER AND PODPERF_NCCL_INCLUDE_DIR AND PODPERF_NCCL_LIBRARY)
    set(PODPERF_CUDA_ENABLED ON)
  elseif(PODPERF_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "PODPERF_WITH_CUDA=ON but nvcc (${CMAKE_CUDA_COMPILER}) or NCCL "
      "(nccl.h: ${PODPERF_NCCL_INCLUDE_DIR}, libnccl: ${PODPERF_NCCL_LIBRARY}) was not found")
  endif()
endif()
message(STATUS "podperf: NCCL backend ${PODPERF_CUDA_ENABLED} (PODPERF_WITH_CUDA=${PODPERF_WITH_CUDA})")
