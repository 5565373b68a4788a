#pragma once
// The run's results directory: results/<run-id>/ with events.jsonl (appended and fsynced as rounds
// finish) and run.json (written atomically). Used on rank 0 only.
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

class ResultsDir {
 public:
  // Creates <root>/<run_id> (and root). Throws UsageError when it cannot be created or written,
  // or already holds a run.json (a run id is never reused).
  ResultsDir(const std::string& root, const std::string& run_id);
  ~ResultsDir();
  ResultsDir(const ResultsDir&) = delete;
  ResultsDir& operator=(const ResultsDir&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  // One line, written and (when `durable`) fsynced. Throws RuntimeFailure on I/O errors.
  void append_event(const nlohmann::json& event, bool durable = true);
  // Writes run.json via a temporary file and rename. `durable`: fsync before the rename (normal
  // end). Not durable (abnormal end, the launcher's SIGKILL may follow within a second): no fsync,
  // so a killed process still leaves a whole run.json in the page cache. Throws RuntimeFailure.
  // The text is exactly nlohmann::json(run).dump(2), streamed (write_run_json: run.pairs is borrowed
  // during the call and given back); a run of kPairsFileMinPairs pairs or more has its pairs in
  // pairs.bin beside it instead (written first, the same way) and run.schema_version set to
  // kSchemaVersionPairsFile (analysis/io/run_json_pairs_file.hpp).
  void write_run(Run& run, bool durable = true);

 private:
  std::string path_;
  int events_fd_ = -1;
};

}  // namespace podperf
