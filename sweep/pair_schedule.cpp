#include "sweep/pair_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "analysis/errors.hpp"

namespace podperf {

std::vector<Round> circle_schedule(int n) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  const int slots = n % 2 == 0 ? n : n + 1;  // slot value n is the resting dummy when n is odd
  std::vector<int> position(static_cast<std::size_t>(slots));
  for (int i = 0; i < slots; ++i) position[static_cast<std::size_t>(i)] = i;
  for (int r = 0; r < slots - 1; ++r) {
    Round round;
    for (int i = 0; i < slots / 2; ++i) {
      int a = position[static_cast<std::size_t>(i)];
      int b = position[static_cast<std::size_t>(slots - 1 - i)];
      if (a >= n || b >= n) continue;  // paired with the dummy: rests this round
      round.push_back(NodePair{std::min(a, b), std::max(a, b)});
    }
    std::sort(round.begin(), round.end());
    rounds.push_back(std::move(round));
    // Rotate every position but the first by one.
    std::rotate(position.begin() + 1, position.end() - 1, position.end());
  }
  return rounds;
}

std::vector<Round> pack_rounds(const std::vector<NodePair>& pairs) {
  std::vector<Round> rounds;
  std::vector<std::set<int>> busy;
  for (const NodePair& p : pairs) {
    std::size_t r = 0;
    while (r < rounds.size() && (busy[r].contains(p[0]) || busy[r].contains(p[1]))) ++r;
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back();
    }
    rounds[r].push_back(p);
    busy[r].insert(p[0]);
    busy[r].insert(p[1]);
  }
  return rounds;
}

std::vector<Round> sequential(const std::vector<Round>& rounds) {
  std::vector<Round> out;
  for (const Round& round : rounds) {
    for (const NodePair& p : round) out.push_back(Round{p});
  }
  return out;
}

namespace {

int resolve_node(std::string_view token, const std::vector<std::string>& labels, std::string_view whole) {
  int index = -1;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (ec == std::errc() && ptr == token.data() + token.size()) {
    if (index < 0 || static_cast<std::size_t>(index) >= labels.size()) {
      throw UsageError(fmt::format("--pairs '{}': node index {} is out of range (this job has nodes 0..{})", whole,
                                   index, labels.size() - 1));
    }
    return index;
  }
  auto it = std::find(labels.begin(), labels.end(), token);
  if (it == labels.end()) {
    throw UsageError(fmt::format("--pairs '{}': no node named '{}' in this job (nodes: {})", whole, token,
                                 fmt::join(labels, ", ")));
  }
  return static_cast<int>(it - labels.begin());
}

}  // namespace

std::vector<NodePair> parse_pair_list(std::string_view text, const std::vector<std::string>& labels) {
  std::vector<NodePair> pairs;
  std::set<NodePair> seen;
  if (text.empty()) throw UsageError("--pairs: empty list (expected e.g. 0:3,2:5)");
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    std::size_t colon = item.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= item.size()) {
      throw UsageError(fmt::format("--pairs '{}': '{}' is not a pair (expected A:B, e.g. 0:3)", text, item));
    }
    int a = resolve_node(item.substr(0, colon), labels, text);
    int b = resolve_node(item.substr(colon + 1), labels, text);
    if (a == b) throw UsageError(fmt::format("--pairs '{}': '{}' pairs a node with itself", text, item));
    NodePair p{std::min(a, b), std::max(a, b)};
    if (seen.insert(p).second) pairs.push_back(p);
    start = comma + 1;
  }
  return pairs;
}

}  // namespace podperf
