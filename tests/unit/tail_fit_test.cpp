// The symmetric t tail fit (analysis/stats/tail_fit): normal samples stay normal, a sample with a few
// transients far out reads as heavy-tailed with few degrees of freedom.
#include "analysis/stats/tail_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace podperf {
namespace {

std::vector<double> mirrored_normal(std::size_t n, std::uint64_t seed, double sigma) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z(0.0, sigma);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = std::fabs(z(rng));
    out.push_back(x);
    out.push_back(-x);
  }
  return out;
}

TEST(TailFit, NormalSamplesAreNotHeavyTailed) {
  int heavy = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const TailFit f = fit_symmetric_tail(mirrored_normal(60, seed, 0.04));
    heavy += f.heavy ? 1 : 0;
    if (!f.heavy) {
      EXPECT_NEAR(f.scale, 0.04, 0.012) << seed;
      EXPECT_EQ(f.df, 0.0);
    }
  }
  // The likelihood-ratio cut is the chi-square's 99.9% point: about 1 in 1000 normal samples (the grid
  // of degrees of freedom is not one parameter, so allow a few).
  EXPECT_LE(heavy, 4);
}

TEST(TailFit, AFewTransientsFarOutMakeTheTailHeavy) {
  // 60 changes at 4% noise, two of them a transient of +25% (about 6 sigma): as a pair moved by a
  // transient of one job looks.
  std::vector<double> v = mirrored_normal(58, 7, 0.04);
  for (double x : {0.223, 0.24}) {
    v.push_back(x);
    v.push_back(-x);
  }
  const TailFit f = fit_symmetric_tail(v);
  EXPECT_TRUE(f.heavy) << f.log_likelihood_ratio;
  EXPECT_LE(f.df, 6.0);
  EXPECT_GT(f.scale, 0.02);
  EXPECT_LT(f.scale, 0.06);
}

TEST(TailFit, TooFewOrAllZeroValuesAreNotFitted) {
  EXPECT_FALSE(fit_symmetric_tail(std::vector<double>{0.1, -0.1, 0.5, -0.5}).heavy);
  const TailFit zero = fit_symmetric_tail(std::vector<double>(20, 0.0));
  EXPECT_FALSE(zero.heavy);
  EXPECT_EQ(zero.scale, 0.0);
}

}  // namespace
}  // namespace podperf
