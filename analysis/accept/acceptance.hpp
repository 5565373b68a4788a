#pragma once
// podperf accept's judging, shared by its two commands: the measuring one (bench/accept_command, the
// profile's stages under MPI) and the offline one (offline/accept_from, a finished run). Their options,
// the setup both build before anything runs, and the verdict of a run with that setup. Analysis floor,
// local, no MPI; what it throws is said per function.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/config/accept_profiles.hpp"
#include "analysis/config/sku.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// podperf accept's own options (the measuring ones are podperf run's, bench/options.hpp).
struct AcceptanceOptions {
  std::string profile = "quick";  // NAME (configs/profiles/NAME.toml) or FILE
  std::string sku;                // NAME (configs/skus/NAME.toml) or FILE; "": from the nodes' instance type
  std::string from;               // run.json or a results directory: judge offline, no MPI
  std::string junit;              // also write JUnit XML here
  std::string prometheus;         // also write the Prometheus node-exporter textfile here
  std::string topology;           // --topology FILE: where each node sits (EKS labels, Slurm, CSV)
  std::string topology_format = "auto";
  std::string cluster_name;     // --cluster-name: the HyperPod cluster (name or ARN) for the printed API lines
  std::set<std::string> given;  // every name ("-b", "--minbytes") of each option given on the command line
};

// What accept needs before anything runs.
struct AcceptSetup {
  Profile profile;
  std::optional<Sku> forced_sku;           // --sku
  std::vector<ProfileOverride> overrides;  // the measuring command line's options in place of the profile's
};

// Loads the profile and the --sku SKU and checks that --junit's directory exists. Throws ConfigError
// (a bad profile or SKU) or UsageError (no such --junit directory): exit 2, before anything is measured.
AcceptSetup prepare_acceptance(const AcceptanceOptions& o);

// run.verdict = the judgment of `run` (analyzed) with the setup's profile and SKU (the forced one, else
// the nodes' instance type's; analysis/accept/node_checks.hpp). The overrides: the setup's (the measuring
// command's); with none, judging a finished run again with the profile it was judged with, those its
// verdict records (the measuring command's; another profile's are not this one's). Throws nothing of its own.
void judge_acceptance(Run& run, const AcceptSetup& setup);

}  // namespace podperf
