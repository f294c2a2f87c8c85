// The tables of report.hpp.
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <string>

namespace pegsim::bench {
namespace {

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

const char* verdict(bool pass) { return pass ? "PASS" : "MISS"; }

// issue 11's time bar: pegsim's time per step within `factor` of Bullet's (0: none)
double time_bar(const std::string& scene) {
  if (scene == "stack10" || scene == "box-stack-3d") return 2.0;
  if (scene == "pyramid") return 5.0;
  return 0.0;
}

const RunMetrics* find(const std::vector<RunMetrics>& runs, const std::string& engine) {
  for (const RunMetrics& r : runs)
    if (r.engine == engine) return &r;
  return nullptr;
}

}  // namespace

void print_scene(const BenchScene& scene, const std::vector<RunMetrics>& runs, std::ostream& out) {
  out << format("\n== %s: %d boxes, mu %.2g, h %.4g s, %.3g s (%d steps), drift from %.3g s, settled: last 20%%\n",
                scene.name.c_str(), scene.dynamic_count(), scene.mu, scene.h, scene.duration, scene.steps(),
                scene.settle_time, scene.duration);
  out << format("%-10s %10s %10s %9s %11s %11s %11s %5s %13s\n", "engine", "us/step", "mean us", "contacts",
                "max pen m", "settled m", "drift m", "off", "pegsim/engine");
  const RunMetrics* pegsim = find(runs, "pegsim");
  for (const RunMetrics& r : runs) {
    std::string ratio = "-";
    if (pegsim && r.median_us > 0)
      ratio = format("%.2fx", pegsim->median_us / r.median_us);
    const std::string off = r.out_of_place < 0 ? "-" : std::to_string(r.out_of_place);
    out << format("%-10s %10.1f %10.1f %9.1f %11.2e %11.2e %11.2e %5s %13s\n", r.engine.c_str(), r.median_us,
                  r.mean_us, r.mean_contacts, r.max_penetration, r.settled_penetration, r.drift, off.c_str(),
                  ratio.c_str());
    if (!r.finite && r.steps > 0)
      out << format("  %s: a pose became non-finite after %d steps; run stopped\n", r.engine.c_str(), r.steps);
    if (!r.warnings.empty()) out << "  " << r.engine << ": " << r.warnings << "\n";
  }
  out << "  (us/step: median over the steps after a 10-step warm-up; off: boxes > 5 cm from their rest height at the end)\n";
  const double factor = time_bar(scene.name);
  if (factor == 0.0) return;
  for (const RunMetrics& r : runs) {  // the bars, for each pegsim entry
    if (r.engine.rfind("pegsim", 0) != 0) continue;
    const char* e = r.engine.c_str();
    const bool exact = r.finite && r.settled_penetration < kExactPenetration && r.drift < kExactDrift;
    out << format("  bar: %s exact (settled penetration %.2e < 1e-9 m, drift %.2e < 1e-6 m): %s\n", e,
                  r.settled_penetration, r.drift, verdict(exact));
    if (const RunMetrics* bullet = find(runs, "bullet"); bullet && bullet->median_us > 0) {
      const double ratio = r.median_us / bullet->median_us;
      out << format("  bar: %s within %.0fx Bullet's time per step (%.2fx, mean-based %.2fx): %s\n", e, factor,
                    ratio, r.mean_us / bullet->mean_us, verdict(ratio <= factor));
    } else {
      out << format("  bar: %s within %.0fx Bullet's time per step: not measured (Bullet not run or not timed)\n", e,
                    factor);
    }
  }
}

double fitted_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n < 2 || y.size() != n) return std::numeric_limits<double>::quiet_NaN();
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  const double dn = static_cast<double>(n);
  return (dn * sxy - sx * sy) / (dn * sxx - sx * sx);
}

void print_scaling(const std::vector<ScalingRun>& runs, std::ostream& out) {
  if (runs.empty()) return;
  out << format("\n== scaling: piles of N cubes dropped in two layers, %.3g s each, the second half timed\n", runs[0].duration);
  out << "   contacts: each engine's own count per step (pegsim: narrowphase feature pairs; Bullet: manifold points;\n"
         "   MuJoCo: d->ncon; ODE: contact joints), mean over the timed steps\n";
  out << format("%-10s %7s %10s %10s %10s %11s %11s\n", "engine", "bodies", "us/step", "mean us", "contacts",
                "us/contact", "max pen m");
  std::map<std::string, std::vector<const ScalingRun*>> by_engine;
  std::vector<std::string> order;
  for (const ScalingRun& r : runs) {
    if (!by_engine.contains(r.metrics.engine)) order.push_back(r.metrics.engine);
    by_engine[r.metrics.engine].push_back(&r);
  }
  for (const std::string& engine : order)
    for (const ScalingRun* r : by_engine[engine]) {
      const RunMetrics& m = r->metrics;
      out << format("%-10s %7d %10.1f %10.1f %10.1f %11.3f %11.2e%s\n", engine.c_str(), r->bodies, m.median_us, m.mean_us,
                    m.mean_contacts, m.mean_contacts > 0 ? m.median_us / m.mean_contacts : 0.0, m.max_penetration,
                    m.finite || m.steps == 0 ? "" : "  (non-finite pose: stopped)");
      if (!m.warnings.empty()) out << "  " << engine << " " << r->bodies << ": " << m.warnings << "\n";
    }
  out << "fitted exponents (least squares on logs): us/step ~ contacts^a, us/step ~ bodies^b\n";
  for (const std::string& engine : order) {
    std::vector<double> contacts, bodies, us;
    for (const ScalingRun* r : by_engine[engine])
      if (r->metrics.finite && r->metrics.mean_contacts > 0 && r->metrics.median_us > 0) {
        contacts.push_back(r->metrics.mean_contacts);
        bodies.push_back(r->bodies);
        us.push_back(r->metrics.median_us);
      }
    const double a = fitted_exponent(contacts, us), b = fitted_exponent(bodies, us);
    out << format("  %-10s a = %5.2f   b = %5.2f   (%zu sizes)", engine.c_str(), a, b, us.size());
    if (engine.rfind("pegsim", 0) == 0) out << format("   bar a <= 1.2: %s", std::isnan(a) ? "not measured" : verdict(a <= 1.2));
    out << "\n";
  }
}

}  // namespace pegsim::bench
