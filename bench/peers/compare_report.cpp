// The report of compare_report.hpp.
#include "compare_report.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <fstream>
#include <ostream>
#include <stdexcept>

namespace pegsim::bench {
namespace {

constexpr std::size_t kBodiesListed = 12;  // the per-body deviation table lists this many, then the worst of the rest

std::string format(const char* fmt, auto... args) {
  char line[512];
  std::snprintf(line, sizeof line, fmt, args...);
  return line;
}

std::ofstream open(const std::filesystem::path& file) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  return out;
}

std::size_t worst_of(const std::vector<double>& d) {
  std::size_t w = 0;
  for (std::size_t i = 1; i < d.size(); ++i)
    if (d[i] > d[w]) w = i;
  return w;
}

}  // namespace

void print_table(std::ostream& out, const std::vector<CompareRun>& runs, const std::vector<std::string>& names) {
  out << format("%-8s %9s %12s %12s %11s %12s %11s %12s %20s  %s\n", "engine", "us/step", "max pen m", "settled m",
                "drift m", "energy drift", "E rise J", "p drift", "from pegsim m (body)", "warnings");
  std::vector<std::vector<double>> deviations;
  for (const CompareRun& r : runs) {
    deviations.push_back(deviation(r, runs.front()));
    const std::vector<double>& d = deviations.back();
    const std::size_t w = worst_of(d);
    const std::string from = d.empty() ? "-" : format("%.3e (%s)", d[w], names[w].c_str());
    out << format("%-8s %9.1f %12.3e %12.3e %11.3e %12.3e %11.3e %12.3e %20s  %s%s\n", r.engine.c_str(), r.mean_us,
                  r.max_penetration, r.settled_penetration, r.drift, r.energy_drift(), r.energy_max_rise,
                  r.momentum_drift(), from.c_str(), r.finite ? "" : "NOT FINITE (stopped) ", r.warnings.c_str());
  }
  if (runs.size() < 2 || names.empty()) return;
  out << "largest distance of each body from its place in pegsim's run at the same step (m):\n";
  out << format("  %-16s", "body");
  for (std::size_t e = 1; e < runs.size(); ++e) out << format(" %11s", runs[e].engine.c_str());
  out << "\n";
  for (std::size_t i = 0; i < names.size() && i < kBodiesListed; ++i) {
    out << format("  %-16s", names[i].c_str());
    for (std::size_t e = 1; e < runs.size(); ++e) out << format(" %11.3e", deviations[e][i]);
    out << "\n";
  }
  if (names.size() > kBodiesListed) out << format("  (%zu more bodies; the worst is in the table above)\n",
                                                  names.size() - kBodiesListed);
}

Expectation parse_expectation(const std::string& text) {
  Expectation e;
  std::string rest = text;
  if (const std::size_t eq = rest.find('='); eq != std::string::npos) {
    e.engine = rest.substr(0, eq);
    rest = rest.substr(eq + 1);
  }
  const std::size_t a = rest.find(':'), b = rest.rfind(':');
  double x, y, z;
  char tail;
  if (a == std::string::npos || a == b ||
      std::sscanf(rest.substr(a + 1, b - a - 1).c_str(), "%lf,%lf,%lf %c", &x, &y, &z, &tail) != 3)
    throw std::invalid_argument("--expect-final " + text + ": expected [ENGINE=]BODY:X,Y,Z:TOLERANCE");
  e.body = rest.substr(0, a);
  e.position = Vec3(x, y, z);
  std::size_t used = 0;
  e.tolerance = std::stod(rest.substr(b + 1), &used);
  if (used != rest.size() - b - 1 || !(e.tolerance >= 0))
    throw std::invalid_argument("--expect-final " + text + ": the tolerance must be a length >= 0");
  return e;
}

bool check_expectations(std::ostream& out, const std::vector<CompareRun>& runs, const std::vector<std::string>& names,
                        const std::vector<Expectation>& expectations) {
  bool ok = true;
  for (const Expectation& e : expectations) {
    std::size_t index = names.size();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == e.body) index = i;
    if (index == names.size()) throw std::invalid_argument("--expect-final: no dynamic body named '" + e.body + "'");
    for (const CompareRun& r : runs) {
      if (!e.engine.empty() && e.engine != r.engine) continue;
      bool overridden = false;  // an engine's own expectation for the body replaces the general one
      for (const Expectation& other : expectations)
        overridden = overridden || (e.engine.empty() && other.engine == r.engine && other.body == e.body);
      if (overridden) continue;
      const Vec3 p = r.trajectory.back()[index].pose.position;
      const Vec3 off = (p - e.position).unaryExpr([](double d) { return std::isnan(d) ? 0.0 : d; });  // nan: any
      const double miss = p.allFinite() ? off.norm() : std::numeric_limits<double>::infinity();
      const bool hit = r.finite && miss <= e.tolerance;
      out << format("expect %-8s %s at (%.5f, %.5f, %.5f): (%.5f, %.5f, %.5f), off by %.3e m (allowed %.3e): %s\n",
                    r.engine.c_str(), e.body.c_str(), e.position.x(), e.position.y(), e.position.z(), p.x(), p.y(),
                    p.z(), miss, e.tolerance, hit ? "ok" : "FAILED");
      ok = ok && hit;
    }
  }
  return ok;
}

void write_files(const std::string& dir, const std::vector<CompareRun>& runs, const std::vector<std::string>& names,
                 double h) {
  const std::filesystem::path folder(dir);
  std::filesystem::create_directories(folder);
  std::ofstream summary = open(folder / "summary.csv");
  summary << "engine,us_per_step,median_us_per_step,max_penetration,settled_penetration,drift,energy_drift,"
             "energy_max_rise,momentum_drift,max_deviation,finite,warnings\n";
  std::ofstream dev = open(folder / "deviation.csv");
  dev << "engine,body,max_deviation\n";
  for (const CompareRun& r : runs) {
    const std::vector<double> d = deviation(r, runs.front());
    summary << format("%s,%.6g,%.6g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%d,\"%s\"\n", r.engine.c_str(), r.mean_us,
                      r.median_us, r.max_penetration, r.settled_penetration, r.drift, r.energy_drift(),
                      r.energy_max_rise, r.momentum_drift(), d.empty() ? 0.0 : d[worst_of(d)], r.finite ? 1 : 0,
                      r.warnings.c_str());
    for (std::size_t i = 0; i < d.size(); ++i) dev << format("%s,%s,%.10g\n", r.engine.c_str(), names[i].c_str(), d[i]);
    std::ofstream traj = open(folder / ("trajectory_" + r.engine + ".csv"));
    traj << "step,t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
    for (std::size_t k = 0; k < r.trajectory.size(); ++k)
      for (std::size_t i = 0; i < r.trajectory[k].size(); ++i) {
        const BodyState& s = r.trajectory[k][i];
        const Quat& q = s.pose.orientation;
        const Vec3 &p = s.pose.position, &v = s.linear_velocity, &w = s.angular_velocity;
        traj << format("%zu,%.10g,%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", k,
                       static_cast<double>(k) * h, names[i].c_str(), p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z(),
                       v.x(), v.y(), v.z(), w.x(), w.y(), w.z());
      }
    std::ofstream series = open(folder / ("series_" + r.engine + ".csv"));
    series << "step,t,penetration,energy,px,py,pz\n";
    for (std::size_t k = 0; k < r.penetration.size(); ++k)
      series << format("%zu,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", k, static_cast<double>(k) * h, r.penetration[k],
                       r.energy[k], r.momentum[k].x(), r.momentum[k].y(), r.momentum[k].z());
    if (!traj || !series) throw std::runtime_error("cannot write the files of " + r.engine + " in " + dir);
  }
}

}  // namespace pegsim::bench
