# Decides PODPERF_CUDA_ENABLED from PODPERF_WITH_CUDA (AUTO|ON|OFF).
# AUTO turns the NCCL build on where nvcc is found (default toolkit root /usr/local/cuda). NCCL itself
# is loaded at run time; nccl.h, where found, only checks podperf's declarations at compile time.
set(PODPERF_CUDA_ENABLED OFF)
if(NOT PODPERF_WITH_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  find_path(PODPERF_NCCL_INCLUDE_DIR nccl.h HINTS /usr/local/cuda/include ENV NCCL_HOME PATH_SUFFIXES include)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(PODPERF_CUDA_ENABLED ON)
  elseif(PODPERF_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "PODPERF_WITH_CUDA=ON but nvcc (${CMAKE_CUDA_COMPILER}) was not found")
  endif()
endif()
message(STATUS "podperf: NCCL backend ${PODPERF_CUDA_ENABLED} (PODPERF_WITH_CUDA=${PODPERF_WITH_CUDA})")
