// "fischer-newton" and "minmap-newton": the nonsmooth Newton core
// (nonsmooth_newton.hpp) as solvers of their own, with the monotone Armijo
// line search (no watchdog) and no pivoting fall back.
//
// solve():
//   1. check_problem (NumericalFailure on non-finite data, Unsupported on
//      inconsistent sizes); n = 0 is Solved.
//   2. the start: nonsmooth_newton.hpp's starting_point (the warm start or
//      z = 0); within the target already: Solved, 0 iterations.
//   3. the Newton iteration of nonsmooth_newton.hpp on
//      "fischer-newton": the Fischer-Burmeister reformulation, monotone
//      Armijo line search, stopped after kStall iterations without a 10%
//      smaller residual;
//      "minmap-newton": the min-map reformulation, whose merit is not
//      differentiable: its full active-set steps are accepted more often by
//      the nonmonotone rule (memory and watchdog kMinMapMemory) than by the
//      monotone one (on 200 random Stewart-Trinkle problems: 4 failures
//      instead of 14 with the monotone rule at a stall of 20, and one of
//      three captured stack3d steps only solved this way), stopped after
//      kMinMapStall iterations without a 10% smaller residual. It is the
//      least robust of the three Newton solvers: no smoothing of its kinks.
//   Both aim at the target of nonsmooth_newton.hpp (well below the
//   threshold: residuals feed back through the simulation, see lemke.cpp)
//   and stop once within the threshold after one more iteration
//   (fischer-newton) or kMinMapExtra (minmap-newton: with one, a step of the
//   500-step box-stack-3d bench failed; with three, none).
// Status: Solved when the residuals (SolverResult, on the original problem)
// are within SolverOptions::tolerance * (1 + |b|_inf); MaxIterations at the
// iteration limit (SolverOptions::max_iterations, default
// kDefaultMaxIterations Newton iterations); NumericalFailure when the
// iteration stalls or finds no descent direction (a stationary point of the
// merit that solves nothing: the LCP may be infeasible, or the matrix outside
// the classes where such points are solutions, e.g. not P0 for FB). z is the
// point of least residual seen. Free rows are supported (Phi_i = w_i).
// Iterations: Newton iterations (directions computed).
#pragma once

#include "solvers/lcp.hpp"
#include "solvers/nonsmooth_newton.hpp"

namespace pegsim {

class NewtonSolver final : public LcpSolver {
 public:
  NewtonSolver(const SolverOptions& options, newton_detail::Reformulation reformulation)
      : options_(options), reformulation_(reformulation) {}
  std::string_view name() const override {
    return reformulation_ == newton_detail::Reformulation::MinMap ? "minmap-newton" : "fischer-newton";
  }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;

  static constexpr int kDefaultMaxIterations = 100;
  static constexpr int kStall = 20;          // fischer-newton
  static constexpr int kMinMapMemory = 10;   // minmap-newton: nonmonotone memory and watchdog
  static constexpr int kMinMapStall = 50;
  static constexpr int kMinMapExtra = 3;     // minmap-newton: iterations towards the target past the threshold

 private:
  SolverOptions options_;
  newton_detail::Reformulation reformulation_;
};

}  // namespace pegsim
