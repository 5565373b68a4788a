// search::Votes (sweep/search_util.hpp): the retest votes the adaptive searches count for a suspect
// node or group: confirmed after `confirm` low retests, cleared after `clear + 2 * lows` good ones.
#include <gtest/gtest.h>

#include "sweep/search_util.hpp"

namespace podperf {
namespace {

using search::Votes;

TEST(SearchVotes, ConfirmedAfterEnoughLowRetests) {
  Votes v;
  EXPECT_EQ(v.record(true, 2, 3), Votes::Outcome::kUndecided);
  EXPECT_EQ(v.record(true, 2, 3), Votes::Outcome::kConfirmed);
  EXPECT_EQ(v.lows(), 2);
  EXPECT_EQ(v.oks(), 0);
}

TEST(SearchVotes, ClearedAfterEnoughGoodRetests) {
  Votes v;
  EXPECT_EQ(v.record(false, 2, 3), Votes::Outcome::kUndecided);
  EXPECT_EQ(v.record(false, 2, 3), Votes::Outcome::kUndecided);
  EXPECT_EQ(v.record(false, 2, 3), Votes::Outcome::kCleared);
  EXPECT_EQ(v.oks(), 3);
}

TEST(SearchVotes, EachLowRetestAsksForTwoMoreGoodOnes) {
  Votes v;
  EXPECT_EQ(v.record(true, 2, 3), Votes::Outcome::kUndecided);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(v.record(false, 2, 3), Votes::Outcome::kUndecided) << i;
  EXPECT_EQ(v.record(false, 2, 3), Votes::Outcome::kCleared);  // 5 >= 3 + 2 * 1
  EXPECT_EQ(v.lows() + v.oks(), 6);
}

TEST(SearchVotes, ConfirmationWinsOverClearing) {
  // The group retests: confirm and clear both uplink_confirm (2); two lows confirm even after goods.
  Votes v;
  EXPECT_EQ(v.record(false, 2, 2), Votes::Outcome::kUndecided);
  EXPECT_EQ(v.record(true, 2, 2), Votes::Outcome::kUndecided);
  EXPECT_EQ(v.record(true, 2, 2), Votes::Outcome::kConfirmed);
}

}  // namespace
}  // namespace podperf
