// Reference 002's walking experiments (EXPERIMENTS.md; docs/experiments.md
// "quadruped-stand and quadruped-trot"): pegsim's quadruped trotting open loop
// at h = 0.001 on flat ground (scenes/quadruped-trot.yaml) and on uneven
// terrain (scenes/quadruped-trot-uneven.yaml).
//
// noslip-quadruped: 10 s under the time-stepping LCP with PEG ([lemke, path])
// and under the no-slip model ([ppm, lemke]) on the standard model's
// contacts (no-slip) and on PEG's active pieces (no-slip-peg,
// contact/active_piece.hpp).
// viscous-quadruped: 10 s under the viscous model. Table III's comparison,
// the same model solved by ppm (002's Algorithm 1) and by Lemke, on both
// terrains, in the impulse form (the viscous stepper) and in the paper's
// acceleration form under RK4 (the viscous-rk4 stepper, law rk4), on the
// standard model's contacts and, on the tiles, on PEG's active pieces
// (column contact_model); then, on flat ground, mu_v swept over six decades
// under the paper's explicit law and the semi-implicit one
// (dynamics/normal_lcp.hpp): where the explicit law turns unstable.
//
// Both write walk.csv (per run, every 50 steps: t, the torso's x, y, z and
// the cosine of its tilt, the step's contacts) and summary.csv (per run:
// distance walked along x, sideways drift, lowest torso uprightness, contacts
// per step (least, mean, most), failed solves, deepest overlap; viscous: the
// explicit law's overshoots and the torso's largest distance from the ppm
// run's). Times per step are the benchmarks' (bench/quadruped_models.cpp):
// the files here are the same bytes on every run.
#include "experiment.hpp"

#include <algorithm>

namespace pegsim::cli::experiment {

namespace {

constexpr double kH = 0.001;
constexpr int kEvery = 50;  // steps between walk.csv rows (and torso samples)

// One trot: its outcome and what summary.csv reports of it.
struct Trot {
  Outcome outcome;
  Vec3 moved = Vec3::Zero();  // the torso's displacement
  double lowest_up = 1.0, deepest = 0.0, contacts_mean = 0.0;
  int contacts_min = 0, contacts_max = 0;
  long overshoots = 0;           // StepReport::viscous_overshoots, summed
  std::vector<Vec3> path;        // the torso every kEvery steps
};

// Runs `s` under `kind` for `seconds`; `row` writes a walk.csv row's leading
// columns (the run's labels), then t, x, y, z, up, contacts follow.
Trot trot(const Scene& s, ContactModelKind kind, double seconds, Csv& walk, const std::function<void()>& row,
          bool shared = false) {
  const std::uint32_t torso = body_named(s, "dog/torso");
  Trot out;
  const Vec3 start = s.state.bodies[torso].pose.position;
  Vec3 at = start;
  double contacts_sum = 0.0;
  int contacts_min = 1 << 30;
  RunHooks hooks;
  hooks.shared = shared;
  hooks.after = [&](World& w, const StepReport& r) {
    const BodyState& b = w.state().bodies[torso];
    at = b.pose.position;
    const double up = b.pose.orientation.toRotationMatrix()(2, 2);
    out.lowest_up = std::min(out.lowest_up, up);
    out.deepest = std::max(out.deepest, r.max_penetration);
    contacts_min = std::min(contacts_min, r.contacts_found);
    out.contacts_max = std::max(out.contacts_max, r.contacts_found);
    contacts_sum += r.contacts_found;
    out.overshoots += r.viscous_overshoots;
    if (w.state().step % kEvery == 0) {
      out.path.push_back(at);
      row();
      walk << w.state().time << at.x() << at.y() << at.z() << up << r.contacts_found;
      walk.end_row();
    }
  };
  out.outcome = simulate(s, kind, kH, -1.0, std::lround(seconds / kH), hooks);
  out.moved = at - start;
  if (out.outcome.steps > 0) {
    out.contacts_min = contacts_min;
    out.contacts_mean = contacts_sum / static_cast<double>(out.outcome.steps);
  }
  return out;
}

// The columns every summary.csv row ends with.
void write_trot(Csv& summary, const Trot& t) {
  summary << t.outcome.status << t.outcome.steps << t.moved.x() << t.moved.y() << t.lowest_up << t.contacts_min
          << t.contacts_mean << t.contacts_max << t.outcome.solver_failures << t.deepest;
}
const std::vector<std::string> kTrotColumns = {"status",       "steps",         "distance",     "sideways",
                                               "lowest_up",    "contacts_min",  "contacts_mean", "contacts_max",
                                               "solver_failures", "max_penetration"};

std::vector<std::string> columns(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

Scene trot_scene(const Context& ctx, const std::string& terrain) {
  return load_shipped_scene(ctx, std::string("quadruped-trot") + (terrain == "uneven" ? "-uneven" : ""));
}

// The largest distance between two runs' torso samples (over the shorter run).
double largest_gap(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double gap = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) gap = std::max(gap, (a[i] - b[i]).norm());
  return gap;
}

}  // namespace

void noslip_quadruped(const Context& ctx) {
  const double seconds = ctx.quick ? 1.0 : 10.0;
  RunLog log(ctx);
  Csv walk(ctx.out / "walk.csv", {"terrain", "model", "t", "x", "y", "z", "up", "contacts"});
  Csv summary(ctx.out / "summary.csv", columns({"terrain", "model"}, kTrotColumns));
  for (const std::string terrain : {"flat", "uneven"}) {
    const Scene scene = trot_scene(ctx, terrain);
    // peg: time stepping with PEG; no-slip: the paper's model on the standard model's contacts; no-slip-peg:
    // the no-slip model on PEG's contacts, each I- or X-constraint's active piece (contact/active_piece.hpp)
    for (const std::string model : {"peg", "no-slip", "no-slip-peg"}) {
      Scene s = scene;
      const bool noslip = model != "peg";
      if (noslip) {
        s.model.options.stepper = "no-slip";
        s.model.options.solver_chain = {"ppm", "lemke"};
      }
      const Trot t = trot(s, model == "no-slip" ? ContactModelKind::Standard : ContactModelKind::Peg, seconds, walk,
                          [&] { walk << terrain << model; });
      log.add(terrain + " " + model, kH, -1, t.outcome);
      summary << terrain << model;
      write_trot(summary, t);
      summary.end_row();
    }
  }
}

void viscous_quadruped(const Context& ctx) {
  const double seconds = ctx.quick ? 1.0 : 10.0;
  // mu_v of Table III's runs (N s/m per touching contact): the paper's 0.1 moved its 1.34 kg robot with a
  // 0.13 N leading force; pegsim's 5.6 kg quadruped with no such force walks on 10 (0.1: 0.13 m in 10 s)
  const double table_mu_v = 10.0;
  RunLog log(ctx);
  Csv walk(ctx.out / "walk.csv",
           {"terrain", "law", "mu_v", "solver", "contact_model", "t", "x", "y", "z", "up", "contacts"});
  Csv summary(ctx.out / "summary.csv", columns(columns({"terrain", "law", "mu_v", "solver", "contact_model"},
                                                       kTrotColumns),
                                               {"overshoots", "gap_to_ppm"}));
  // ppm_path: the ppm run's torso samples, for a Lemke run; shared: a ppm run whose samples a Lemke run reads
  // law: explicit, implicit (the viscous stepper, V-imp) or rk4 (the viscous-rk4 stepper, V-acc); contacts:
  // the paper's standard model, or PEG's active pieces (contact/active_piece.hpp)
  const auto run = [&](const std::string& terrain, const std::string& law, double mu_v, const std::string& solver,
                       const std::vector<Vec3>* ppm_path, bool shared, ContactModelKind contacts) {
    Scene s = trot_scene(ctx, terrain);
    s.model.options.stepper = law == "rk4" ? "viscous-rk4" : "viscous";
    s.model.options.solver_chain = {solver};
    s.model.options.drumwright_shell.viscous = mu_v;
    s.model.options.drumwright_shell.viscous_implicit = law == "implicit";
    const std::string model(to_string(contacts));
    const auto labels = [&](Csv& csv) { csv << terrain << law << mu_v << solver << model; };
    Trot t = trot(s, contacts, seconds, walk, [&] { labels(walk); }, shared);
    char name[128];
    std::snprintf(name, sizeof name, "%s %s mu_v %g %s %s", terrain.c_str(), law.c_str(), mu_v, solver.c_str(),
                  model.c_str());
    log.add(name, kH, -1, t.outcome);
    labels(summary);
    write_trot(summary, t);
    summary << t.overshoots << (ppm_path ? largest_gap(*ppm_path, t.path) : 0.0);
    summary.end_row();
    return t;
  };
  // Table III: ppm against Lemke on the same model; both solve each LCP to 1e-9, so the walks agree. The
  // impulse form (explicit, the viscous stepper) and the paper's acceleration form under RK4 (viscous-rk4); on the
  // tiles also on PEG's contacts (the standard model traps the shins at the tiles' edges)
  const ContactModelKind standard = ContactModelKind::Standard, peg = ContactModelKind::Peg;
  for (const std::string law : {"explicit", "rk4"})
    for (const std::string terrain : {"flat", "uneven"})
      for (const ContactModelKind contacts : {standard, peg}) {
        if (terrain == "flat" && contacts == peg) continue;  // feet on a half-space: U-constraints either way
        const Trot ppm = run(terrain, law, table_mu_v, "ppm", nullptr, true, contacts);
        run(terrain, law, table_mu_v, "lemke", &ppm.path, false, contacts);
      }
  // mu_v over six decades, explicit and semi-implicit (flat ground, ppm)
  for (const std::string law : {"explicit", "implicit"})
    for (const double mu_v : {0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0})
      if (law == "implicit" || mu_v != table_mu_v) run("flat", law, mu_v, "ppm", nullptr, false, standard);
}

}  // namespace pegsim::cli::experiment
