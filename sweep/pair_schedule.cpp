#include "sweep/pair_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <set>

#include "analysis/base/errors.hpp"

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
  // First fit: each pair goes to the lowest round where neither node is busy, else a new round.
  // Per node, a bitset of the rounds it is busy in, and the first word with a free bit (every word
  // before it is full), so a pair costs a few words, not a scan of every round (8.4 million pairs of
  // 4096 nodes pack in about a second; see tests/perf).
  std::vector<int> ids;
  ids.reserve(pairs.size() * 2);
  for (const NodePair& p : pairs) ids.insert(ids.end(), {p[0], p[1]});
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const auto dense = [&ids](int node) {
    return static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), node) - ids.begin());
  };
  std::vector<std::vector<std::uint64_t>> busy(ids.size());
  std::vector<std::size_t> first_open(ids.size(), 0);
  const auto word = [&busy](std::size_t node, std::size_t w) { return w < busy[node].size() ? busy[node][w] : 0; };
  const auto mark = [&busy, &first_open](std::size_t node, std::size_t r) {
    std::vector<std::uint64_t>& bits = busy[node];
    const std::size_t w = r / 64;
    if (bits.size() <= w) bits.resize(w + 1, 0);
    bits[w] |= std::uint64_t{1} << (r % 64);
    while (first_open[node] < bits.size() && bits[first_open[node]] == ~std::uint64_t{0}) ++first_open[node];
  };
  std::vector<Round> rounds;
  for (const NodePair& p : pairs) {
    const std::size_t a = dense(p[0]);
    const std::size_t b = dense(p[1]);
    std::size_t w = std::max(first_open[a], first_open[b]);
    std::uint64_t taken = word(a, w) | word(b, w);
    while (taken == ~std::uint64_t{0}) {
      ++w;
      taken = word(a, w) | word(b, w);
    }
    // Rounds not created yet have no busy bits: the first free bit is at most rounds.size().
    const std::size_t r = w * 64 + static_cast<std::size_t>(std::countr_one(taken));
    if (r == rounds.size()) rounds.emplace_back();
    rounds[r].push_back(p);
    mark(a, r);
    mark(b, r);
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
