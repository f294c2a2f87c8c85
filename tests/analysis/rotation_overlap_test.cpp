// The rotation-overlap experiment (thesis 5.3, Figs. 5.24-5.25;
// ../shared/EXPERIMENTS.md row rotation-overlap): the semi-implicit step's
// overlap error from rotation, measured with the overlap area.
//
// scenes/rotation-overlap.yaml: a 1 x 0.2 m bar resting centred on a 2 x 0.8 m
// block, both spinning at 1 rad/s, no gravity, no friction. One step of size h
// for h in {0.01 .. 0.5}. The bar's two lower corners are the only contacts,
// both with zero normal velocity, so the step is a free rotation by h and the
// overlap is w H (1 - cos h) = 0.5 (1 - cos h) m^2 (w = 1 m the bar's length,
// H = 0.5 m between the centres): the error grows as h^2.
#include "analysis/overlap.hpp"

#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pegsim {
namespace {

const std::vector<double> kSteps = {0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5};

double overlap_after_one_step(ContactModelKind kind, double h) {
  World world = test::load_world("rotation-overlap");
  world.set_contact_model(kind);
  world.set_time_step(h);
  const StepReport& report = world.step();
  EXPECT_EQ(report.solver_failures, 0);
  EXPECT_EQ(world.last_constraints().constraints.size(), 2u) << "the bar's two lower corners";
  return total_overlap(world.model(), world.state());
}

// Least-squares slope of log(y) against log(x).
double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double u = std::log(x[i]), v = std::log(y[i]);
    sx += u;
    sy += v;
    sxx += u * u;
    sxy += u * v;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST(RotationOverlap, OverlapAfterOneStepGrowsAsHSquared) {
  for (ContactModelKind kind : {ContactModelKind::Peg, ContactModelKind::Standard}) {
    SCOPED_TRACE(std::string(to_string(kind)));
    std::vector<double> area;
    for (double h : kSteps) {
      area.push_back(overlap_after_one_step(kind, h));
      // the free rotation's overlap, to the solver's tolerance
      EXPECT_NEAR(area.back(), 0.5 * (1.0 - std::cos(h)), 1e-6 * area.back()) << "h = " << h;
    }
    const double slope = log_log_slope(kSteps, area);
    EXPECT_NEAR(slope, 2.0, 0.2);
    RecordProperty(std::string(to_string(kind)) + "_slope", std::to_string(slope));
  }
}

// The thesis's Fig. 5.25 values, to the digits it prints.
TEST(RotationOverlap, ReproducesTheThesisTable) {
  const std::vector<std::pair<double, double>> thesis = {
      {0.01, 0.000025}, {0.1, 0.0025}, {0.2, 0.01}, {0.3, 0.0223}, {0.4, 0.0395}, {0.5, 0.0612}};
  const std::vector<double> half_unit = {5e-7, 5e-5, 5e-3, 5e-5, 5e-5, 5e-5};
  for (std::size_t i = 0; i < thesis.size(); ++i)
    EXPECT_NEAR(overlap_after_one_step(ContactModelKind::Peg, thesis[i].first), thesis[i].second, half_unit[i])
        << "h = " << thesis[i].first;
}

}  // namespace
}  // namespace pegsim
