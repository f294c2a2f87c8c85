// Brent's minimization (Brent, "Algorithms for Minimization without
// Derivatives", 1973, ch. 5): keeps a bracket [a, b] and the three best points
// x (best), w (second), u (third); tries the minimum of the parabola through
// them, and falls back to a golden-section step into the larger part of the
// bracket when the parabolic step is not trusted (outside the bracket, or
// longer than half the step before last).
#pragma once

#include <cmath>
#include <utility>

namespace pegsim {

template <class F>
double brent_minimize(F&& f, double a, double b, double tolerance, int max_iterations) {
  constexpr double kGolden = 0.3819660112501051;  // (3 - sqrt 5) / 2
  double x = a + kGolden * (b - a), w = x, u = x;
  double fx = f(x), fw = fx, fu = fx;
  double step = 0.0, previous = 0.0;  // the last two step lengths
  for (int k = 0; k < max_iterations; ++k) {
    const double mid = 0.5 * (a + b);
    const double tol = tolerance * std::abs(x) + 1e-14;
    if (std::abs(x - mid) <= 2.0 * tol - 0.5 * (b - a)) break;
    bool golden = true;
    if (std::abs(previous) > tol) {  // parabola through x, w, u
      const double r = (x - w) * (fx - fu);
      double q = (x - u) * (fx - fw);
      double p = (x - u) * q - (x - w) * r;
      q = 2.0 * (q - r);
      if (q > 0.0) p = -p;
      q = std::abs(q);
      if (std::abs(p) < std::abs(0.5 * q * previous) && p > q * (a - x) && p < q * (b - x)) {
        previous = step;
        step = p / q;
        golden = false;
        const double t = x + step;
        if (t - a < 2.0 * tol || b - t < 2.0 * tol) step = x < mid ? tol : -tol;
      }
    }
    if (golden) {
      previous = (x < mid ? b : a) - x;
      step = kGolden * previous;
    }
    const double t = std::abs(step) >= tol ? x + step : x + (step > 0.0 ? tol : -tol);
    const double ft = f(t);
    if (ft <= fx) {
      (t < x ? b : a) = x;
      u = w, fu = fw;
      w = x, fw = fx;
      x = t, fx = ft;
    } else {
      (t < x ? a : b) = t;
      if (ft <= fw || w == x) {
        u = w, fu = fw;
        w = t, fw = ft;
      } else if (ft <= fu || u == x || u == w) {
        u = t, fu = ft;
      }
    }
  }
  return x;
}

}  // namespace pegsim
