// Pair schedules: circle method, packing, sequential order, and --pairs parsing.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {
namespace {

// Every round disjoint, every pair ordered (first < second) and in range.
void expect_rounds_disjoint(const std::vector<Round>& rounds, int n) {
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    std::set<int> busy;
    for (const NodePair& p : rounds[r]) {
      EXPECT_LT(p[0], p[1]) << "round " << r;
      EXPECT_GE(p[0], 0) << "round " << r;
      EXPECT_LT(p[1], n) << "round " << r;
      EXPECT_TRUE(busy.insert(p[0]).second) << "node " << p[0] << " twice in round " << r;
      EXPECT_TRUE(busy.insert(p[1]).second) << "node " << p[1] << " twice in round " << r;
    }
  }
}

std::multiset<NodePair> all_pairs_of(const std::vector<Round>& rounds) {
  std::multiset<NodePair> out;
  for (const Round& round : rounds) out.insert(round.begin(), round.end());
  return out;
}

class CircleSchedule : public ::testing::TestWithParam<int> {};

TEST_P(CircleSchedule, CoversEveryPairOnceWithDisjointRounds) {
  const int n = GetParam();
  const std::vector<Round> rounds = circle_schedule(n);

  const bool even = n % 2 == 0;
  const std::size_t expected_rounds = even ? static_cast<std::size_t>(n - 1) : static_cast<std::size_t>(n);
  const std::size_t expected_pairs_per_round = static_cast<std::size_t>(even ? n / 2 : (n - 1) / 2);
  ASSERT_EQ(rounds.size(), expected_rounds);
  for (const Round& round : rounds) EXPECT_EQ(round.size(), expected_pairs_per_round);

  expect_rounds_disjoint(rounds, n);

  std::multiset<NodePair> seen = all_pairs_of(rounds);
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(n * (n - 1) / 2));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) EXPECT_EQ(seen.count(NodePair{a, b}), 1U) << a << ":" << b;
  }
}

std::vector<int> two_to_sixty_four() {
  std::vector<int> ns;
  for (int n = 2; n <= 64; ++n) ns.push_back(n);
  return ns;
}

INSTANTIATE_TEST_SUITE_P(N2To64, CircleSchedule, ::testing::ValuesIn(two_to_sixty_four()));

TEST(CircleScheduleEdge, FewerThanTwoNodesGivesNoRounds) {
  EXPECT_TRUE(circle_schedule(-1).empty());
  EXPECT_TRUE(circle_schedule(0).empty());
  EXPECT_TRUE(circle_schedule(1).empty());
}

TEST(CircleScheduleEdge, OddNRestsEachNodeExactlyOnce) {
  for (int n : {3, 5, 7, 9, 33}) {
    std::vector<int> rests(static_cast<std::size_t>(n), 0);
    for (const Round& round : circle_schedule(n)) {
      std::set<int> busy;
      for (const NodePair& p : round) busy.insert(p.begin(), p.end());
      for (int node = 0; node < n; ++node) {
        if (!busy.contains(node)) ++rests[static_cast<std::size_t>(node)];
      }
    }
    for (int node = 0; node < n; ++node) EXPECT_EQ(rests[static_cast<std::size_t>(node)], 1) << "n=" << n << " node " << node;
  }
}

TEST(CircleScheduleEdge, FourNodesExactRounds) {
  // Position i pairs with n-1-i, then all positions but the first rotate.
  const std::vector<Round> expected{
      {{0, 3}, {1, 2}},
      {{0, 2}, {1, 3}},
      {{0, 1}, {2, 3}},
  };
  EXPECT_EQ(circle_schedule(4), expected);
}

TEST(PackRounds, KeepsEveryPairAndRoundsDisjoint) {
  const std::vector<NodePair> pairs{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {1, 3}, {5, 6}};
  const std::vector<Round> rounds = pack_rounds(pairs);
  expect_rounds_disjoint(rounds, 7);
  EXPECT_EQ(all_pairs_of(rounds), std::multiset<NodePair>(pairs.begin(), pairs.end()));
}

TEST(PackRounds, GreedyFirstFitTable) {
  struct Case {
    std::vector<NodePair> pairs;
    std::vector<Round> expected;
  };
  const std::vector<Case> cases{
      {{}, {}},
      {{{0, 1}}, {{{0, 1}}}},
      // Disjoint pairs share one round.
      {{{0, 1}, {2, 3}, {4, 5}}, {{{0, 1}, {2, 3}, {4, 5}}}},
      // A star around node 0 needs one round per pair.
      {{{0, 1}, {0, 2}, {0, 3}}, {{{0, 1}}, {{0, 2}}, {{0, 3}}}},
      // First fit: {2,3} goes back into round 1.
      {{{0, 1}, {0, 2}, {2, 3}}, {{{0, 1}, {2, 3}}, {{0, 2}}}},
  };
  for (const Case& c : cases) EXPECT_EQ(pack_rounds(c.pairs), c.expected);
}

TEST(PackRounds, RepacksAFullCircleScheduleWithoutLosingPairs) {
  for (int n : {2, 5, 8, 13, 16}) {
    std::vector<NodePair> pairs;
    for (const Round& round : circle_schedule(n)) pairs.insert(pairs.end(), round.begin(), round.end());
    const std::vector<Round> rounds = pack_rounds(pairs);
    expect_rounds_disjoint(rounds, n);
    EXPECT_EQ(all_pairs_of(rounds), std::multiset<NodePair>(pairs.begin(), pairs.end())) << "n=" << n;
  }
}

// pack_rounds keeps per-node bitsets of busy rounds; it must give exactly what the plain first fit
// (scan every round, std::set of busy nodes) gives, also past 64 and 128 rounds (bitset words) and
// for node indices with gaps.
std::vector<Round> first_fit_reference(const std::vector<NodePair>& pairs) {
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

TEST(PackRounds, SameAsPlainFirstFitOnLargeShuffledLists) {
  std::mt19937 rng(11);
  for (int n : {3, 40, 150}) {
    for (int stride : {1, 7}) {  // node indices 0..n-1, or with gaps
      std::vector<NodePair> pairs;
      for (int a = 0; a < n; ++a) {
        for (int b = a + 1; b < n; ++b) pairs.push_back(NodePair{a * stride, b * stride});
      }
      std::shuffle(pairs.begin(), pairs.end(), rng);
      const std::vector<Round> rounds = pack_rounds(pairs);
      EXPECT_EQ(rounds, first_fit_reference(pairs)) << "n=" << n << " stride=" << stride;
      if (n == 150) {
        EXPECT_GT(rounds.size(), 128u);  // crosses two bitset words
      }
    }
  }
}

TEST(Sequential, OnePairPerStepInScheduleOrder) {
  const std::vector<Round> rounds = circle_schedule(6);
  const std::vector<Round> steps = sequential(rounds);
  std::vector<NodePair> flat;
  for (const Round& round : rounds) flat.insert(flat.end(), round.begin(), round.end());
  ASSERT_EQ(steps.size(), flat.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ASSERT_EQ(steps[i].size(), 1U);
    EXPECT_EQ(steps[i][0], flat[i]);
  }
  EXPECT_TRUE(sequential({}).empty());
}

const std::vector<std::string> kLabels{"h0", "h1", "h2", "h3", "h4", "h5"};

TEST(ParsePairList, ValidListsTable) {
  struct Case {
    const char* text;
    std::vector<NodePair> expected;
  };
  const std::vector<Case> cases{
      {"0:3,2:5", {{0, 3}, {2, 5}}},
      {"3:0", {{0, 3}}},                     // ordered first < second
      {"h1:h3", {{1, 3}}},                   // labels
      {"h5:0,h2:h4", {{0, 5}, {2, 4}}},      // index and label mixed
      {"0:3,3:0,0:3,h0:h3", {{0, 3}}},       // duplicates collapse
      {"1:2,0:1,1:2", {{1, 2}, {0, 1}}},     // first occurrence keeps its place
  };
  for (const Case& c : cases) EXPECT_EQ(parse_pair_list(c.text, kLabels), c.expected) << c.text;
}

TEST(ParsePairList, ErrorsTable) {
  struct Case {
    const char* text;
    const char* message_part;  // the error names what is wrong
  };
  const std::vector<Case> cases{
      {"0:6", "out of range"},   // index past the last node
      {"-1:2", "out of range"},  // negative index
      {"h1:nosuch", "nosuch"},   // unknown name
      {"1:1", "itself"},         // self pair
      {"h2:2", "itself"},        // self pair through a label
      {"0-3", "not a pair"},     // malformed
      {"", "empty"},
      {"0:", "not a pair"},
      {":1", "not a pair"},
      {"0:3,", "not a pair"},    // trailing comma
      {",0:3", "not a pair"},    // leading comma
  };
  for (const Case& c : cases) {
    try {
      (void)parse_pair_list(c.text, kLabels);
      ADD_FAILURE() << "'" << c.text << "' parsed without error";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message_part), std::string::npos)
          << "'" << c.text << "': " << e.what();
    }
  }
}

TEST(ParsePairList, UnknownNameErrorListsTheNodes) {
  try {
    (void)parse_pair_list("h1:h9", kLabels);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'h9'"), std::string::npos) << what;
    EXPECT_NE(what.find("h0, h1, h2, h3, h4, h5"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace podperf
