// offline/ links no MPI: this executable is linked against podperf_offline alone (no podperf_bench, no
// MPI, no CUDA), so it cannot link if an offline command needs an MPI symbol; and no MPI, CUDA or NCCL
// library may be loaded into it. It runs podperf report and podperf accept --from on the fixture run
// argv[1] through the offline library's entry points. Exit 0 when all holds, 1 with the reason.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "offline/accept_from.hpp"
#include "offline/report_command.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: podperf_offline_link_test RUN_JSON\n";
    return 1;
  }
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    for (const char* lib : {"libmpi", "libcudart", "libnccl"}) {
      if (line.find(lib) != std::string::npos) {
        std::cerr << "FAIL: " << lib << " is loaded: " << line << "\n";
        return 1;
      }
    }
  }
  std::ostringstream out;
  std::ostringstream err;
  podperf::ReportOptions report;
  report.run = argv[1];
  report.format = "md";
  report.out = "-";
  if (podperf::run_report_command(report, out, err) != 0 || out.str().rfind("## podperf ", 0) != 0) {
    std::cerr << "FAIL: podperf report: " << err.str() << out.str() << "\n";
    return 1;
  }
  podperf::AcceptanceOptions accept;
  accept.from = argv[1];
  std::ostringstream verdict;
  if (podperf::run_accept_from(accept, verdict, err) != 0 || verdict.str().find("PASS") == std::string::npos) {
    std::cerr << "FAIL: podperf accept --from: " << err.str() << verdict.str() << "\n";
    return 1;
  }
  std::cout << "PASS: podperf report and accept --from ran from podperf_offline alone\n";
  return 0;
}
