#include "sim/certification.hpp"

#include "sim/model.hpp"

#include <algorithm>

namespace pegsim {

double cone_violation(const StepProblem& problem, const VecX& z, const ConstraintSet& constraints) {
  double worst = 0.0;
  for (std::size_t c = 0; c < constraints.contacts.size(); ++c) {
    const int f = c < problem.first_friction_var.size() ? problem.first_friction_var[c] : -1;
    if (f < 0) continue;
    // linearized cone, thesis eq. 2.21: sum_k p_f,k <= mu p_n
    double friction = 0.0;
    for (int k = 0; k < problem.friction_directions; ++k) friction += z(f + k);
    const double excess = friction - constraints.contacts[c].mu * normal_impulse(problem, z, static_cast<int>(c));
    worst = std::max(worst, excess);
  }
  return worst;
}

std::string chain_text(const std::vector<std::string>& chain) {
  std::string out;
  for (const std::string& s : chain) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void CertificationLog::warn(const std::string& line) {
  ++warnings_;
  if (warnings_ <= max_lines_)
    std::fprintf(out_, "warning: %s%s\n", line.c_str(),
                 warnings_ == max_lines_ ? " (further certification warnings are counted, not printed)" : "");
}

void CertificationLog::on_step(const Model& model, const State&, const StepReport& r) {
  const std::vector<std::string>& chain = model.options.solver_chain;
  char head[96];
  std::snprintf(head, sizeof head, "step %ld (t = %.6g s): ", r.step, r.time);
  for (const IslandReport& island : r.islands) {
    if (island.escalations == 0 && island.certified) continue;
    std::string line = head;
    line += "bodies {";
    for (std::size_t i = 0; i < island.bodies.size(); ++i)
      line += (i ? ", " : "") + model.bodies[island.bodies[i]].name;
    line += "}: ";
    for (std::size_t a = 0; a < island.attempts.size() && !island.over_budget; ++a) {
      const SolveAttempt& t = island.attempts[a];
      char part[160];
      std::snprintf(part, sizeof part, "%s%s %s%s (residual %.3g, cone %.3g)", a ? " -> " : "",
                    t.solver < static_cast<int>(chain.size()) ? chain[t.solver].c_str() : "?",
                    std::string(to_string(t.status)).c_str(), t.out_of_time ? ", time budget spent" : "", t.residual,
                    t.cone_violation);
      line += part;
    }
    if (island.over_budget) {
      char part[200];
      std::snprintf(part, sizeof part, "a problem of %d variables, over max_problem_size %d: not solved, no contact impulses (a failure)",
                    island.problem_size, model.options.max_problem_size);
      line += part;
    } else if (island.impulse_scale < 1.0 && !island.attempts.empty() && island.attempts.back().accepted) {
      char part[200];
      std::snprintf(part, sizeof part,
                    "; the solution's impulses exceed the energy bound (sim/impulse_energy.hpp): scaled by %.3g (a failure)",
                    island.impulse_scale);
      line += part;
    } else {
      line += island.certified ? "" : "; not certified, the last solver's impulses were kept (a failure)";
      if (island.impulse_scale < 1.0) {
        char part[120];
        std::snprintf(part, sizeof part, ", scaled by %.3g to the energy bound (sim/impulse_energy.hpp)",
                      island.impulse_scale);
        line += part;
      }
    }
    if (island.recovered) line += "; recovered without penetration correction";
    warn(line);
  }
  if (r.short_contact_distance > 0) {
    char part[240];
    std::snprintf(part, sizeof part,
                  "%d bodies may travel farther this step than the fixed contact distance eps = %.3g m: "
                  "a contact ahead of them can be missed (thesis eq. 5.1; eps: auto sizes it per body)",
                  r.short_contact_distance, model.options.eps);
    warn(head + std::string(part));
  }
  if (r.viscous_overshoots > 0) {
    char part[240];
    std::snprintf(part, sizeof part,
                  "%d touching contacts have h mu_v above twice their tangential effective mass: the explicit "
                  "viscous impulse amplifies their slip (unstable; viscous_integration: implicit is stable)",
                  r.viscous_overshoots);
    warn(head + std::string(part));
  }
  if (r.penetration_exceeded) {
    char part[160];
    std::snprintf(part, sizeof part, "penetration %.3g m exceeds max_penetration %.3g m", r.max_penetration,
                  model.options.max_penetration);
    warn(head + std::string(part));
  }
}

}  // namespace pegsim
