#pragma once
// What may stand for a node in a command podperf prints for people to paste (accept's drain, reboot and
// replace lines): a scheduler's node name, an EC2 instance id, and any other word made safe for a POSIX
// shell. Shared by the job that records the names (bench/node_map), the reader that checks them
// (analysis/io/run_checks) and the printer (analysis/report/accept_actions). Pure, header only.
#include <string>
#include <string_view>

namespace podperf {

// The longest node name kept: a Kubernetes node name is a DNS subdomain (at most 253 characters).
inline constexpr std::size_t kMaxNodeNameLength = 253;

inline bool is_node_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}

// A scheduler's node name podperf records: 1 to 253 letters, digits, '-', '.' or '_', starting with a letter
// or digit. Holds every Kubernetes node name (a DNS subdomain) and the Slurm NodeNames clusters use
// (HyperPod: ip-10-1-2-3); keeps out anything a shell would read as more than one word or as syntax.
inline bool valid_node_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNodeNameLength) return false;
  const char first = name.front();
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || (first >= '0' && first <= '9'))) {
    return false;
  }
  for (char c : name) {
    if (!is_node_name_char(c)) return false;
  }
  return true;
}

// An EC2 instance id as HyperPod's node APIs take it: "i-" and 8 or 17 lowercase hex digits.
inline bool ec2_instance_id(std::string_view id) {
  if (id.size() != 10 && id.size() != 19) return false;
  if (id.substr(0, 2) != "i-") return false;
  for (char c : id.substr(2)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// `word` as one word of a POSIX shell command: as is when it holds only characters no shell treats
// specially (letters, digits, - . _ / : = , @ +), else in single quotes with each ' written '\''.
inline std::string shell_word(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word) {
    if (!(is_node_name_char(c) || c == '/' || c == ':' || c == '=' || c == ',' || c == '@' || c == '+')) plain = false;
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace podperf
