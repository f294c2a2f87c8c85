// Certified steps: what a step's solves are checked against, and the
// warnings when they miss.
//
// After each island's solve the world measures, on the impulses z it applies:
// - the complementarity residual max_i |min(z_i, w_i)| and the feasibility
//   max(0, -z_i, -w_i) (solvers/lcp.hpp, measure_residuals), re-measured
//   from A and b rather than taken from the solver;
// - the friction-cone violation of the linearized cone (thesis eq. 2.21,
//   E' p_f <= mu p_n): per frictional contact, sum_k p_f,k - mu p_n where p_n
//   is every normal impulse on that sub-contact (PEG: eqs. 4.48-4.49),
//   clamped at zero. It is the negative part of the slip row of eq. 6.1,
//   w_s = mu p_n - E' p_f, in impulse units (N s);
// and after integration, when asked, the deepest penetration (sim/penetration_meter.hpp).
//
// A solve is accepted when its solver reports Solved (residuals within
// solver_tolerance, scaled as solvers/lcp.hpp says) and its cone violation is
// within max_cone_violation. Otherwise the island's problem goes to the next
// solver of the chain, warm-started from the best iterate so far (smallest
// residual among the chain's attempts). The last solver's impulses are kept
// even when it misses too; the island then counts as a solver failure.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/formulation.hpp"
#include "sim/step_report.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace pegsim {

// The friction-cone violation of z (see above), 0 when no contact has friction.
double cone_violation(const StepProblem& problem, const VecX& z, const ConstraintSet& constraints);

// "pgs, path, lemke"
std::string chain_text(const std::vector<std::string>& chain);

// Prints a warning for each island that escalated or failed, and for each
// step whose penetration exceeded max_penetration: the step, the solvers
// tried with their status, the island's body names. The first `max_lines`
// warnings are printed; the rest are counted (suppressed()).
class CertificationLog final : public StepObserver {
 public:
  explicit CertificationLog(std::FILE* out, int max_lines = 10) : out_(out), max_lines_(max_lines) {}
  void on_step(const Model& model, const State& state, const StepReport& report) override;
  long warnings() const { return warnings_; }
  long suppressed() const { return warnings_ > max_lines_ ? warnings_ - max_lines_ : 0; }

 private:
  void warn(const std::string& line);
  std::FILE* out_;
  int max_lines_;
  long warnings_ = 0;
};

}  // namespace pegsim
