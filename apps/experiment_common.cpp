// The parts every experiment shares: CSV files, one simulation run, the run
// log, the per-step contact statistics.
#include "experiment.hpp"

#include "analysis/overlap.hpp"
#include "contact/contact_model.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace pegsim::cli::experiment {

std::string model_name(ContactModelKind kind) { return std::string(to_string(kind)); }

std::string unavailable_reason(ContactModelKind kind, Dimension dimension) {
  try {
    make_contact_model(kind, dimension);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string format_h(double h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", h);
  return buf;
}

// ---- runs split over processes -----------------------------------------------

namespace {

struct RunSelection {
  long only = -1;      // the one run simulated and written; < 0: every run
  bool count = false;  // none: only count them
  long next = 0;       // simulate() calls so far
  long current = 0;    // the run the rows being written belong to
};
RunSelection selection;

bool rows_written() { return !selection.count && (selection.only < 0 || selection.current == selection.only); }

}  // namespace

void select_runs(long only, bool count_only) { selection = RunSelection{only, count_only, 0, 0}; }
long runs_started() { return selection.next; }

// ---- Csv --------------------------------------------------------------------

Csv::Csv(const std::filesystem::path& path, const std::vector<std::string>& header)
    : file_(std::fopen(path.c_str(), "w")), path_(path) {
  if (!file_) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
  for (const std::string& h : header) *this << h;
  std::fputs((row_ + "\n").c_str(), file_);  // the header in every process (experiment.hpp: runs split)
  row_.clear();
  row_started_ = false;
}

Csv::~Csv() {
  if (file_) std::fclose(file_);
}

void Csv::separator() {
  if (row_started_) row_ += ',';
  row_started_ = true;
}

Csv& Csv::operator<<(double value) {
  separator();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", value);
  row_ += buf;
  return *this;
}

Csv& Csv::operator<<(long value) {
  separator();
  row_ += std::to_string(value);
  return *this;
}

Csv& Csv::operator<<(const std::string& value) {
  separator();
  if (value.find_first_of(",\"\n") == std::string::npos) {
    row_ += value;
    return *this;
  }
  row_ += '"';
  for (char c : value) {
    if (c == '"') row_ += '"';
    row_ += c == '\n' ? ' ' : c;
  }
  row_ += '"';
  return *this;
}

Csv& Csv::step_size(double h) { return *this << format_h(h); }

void Csv::end_row() {
  if (rows_written()) {
    row_ += '\n';
    std::fputs(row_.c_str(), file_);
  }
  row_.clear();
  row_started_ = false;
  if (std::ferror(file_)) throw std::runtime_error("cannot write " + path_.string());
}

// ---- one run ----------------------------------------------------------------

Outcome simulate(const Scene& scene, ContactModelKind kind, double h, double eps, long steps, const RunHooks& hooks) {
  Outcome out;
  selection.current = selection.next++;
  if (selection.count || (selection.only >= 0 && selection.current != selection.only && !hooks.shared)) {
    out.status = "not-run";  // another process runs it; its rows are not written here
    return out;
  }
  out.reason = unavailable_reason(kind, scene.model.options.dimension);
  if (!out.reason.empty()) {
    out.status = "skipped";
    return out;
  }
  Model model = scene.model;
  model.options.model = kind;
  model.options.h = h;
  if (eps > 0.0) {
    model.options.eps = eps;
    model.options.eps_auto = false;
  }
  try {
    World world(std::move(model), scene.state);
    world.set_measure_penetration(true);  // every experiment's CSV reports it
    for (long i = 0; i < steps; ++i) {
      if (hooks.before) hooks.before(world);
      const StepReport& r = world.step();
      ++out.steps;
      out.solver_failures += r.solver_failures;
      out.solver_recoveries += r.solver_recoveries;
      if (hooks.after) hooks.after(world, r);
    }
  } catch (const std::exception& e) {
    out.status = "failed";
    out.reason = e.what();
  }
  return out;
}

// ---- run log ----------------------------------------------------------------

RunLog::RunLog(const Context& ctx)
    : csv_(ctx.out / "runs.csv",
           {"model", "seed", "h", "status", "steps", "solver_failures", "solver_recoveries", "reason"}) {}

void RunLog::add(const std::string& model, double h, long seed, const Outcome& o) {
  csv_ << model;
  if (seed >= 0) csv_ << seed;
  else csv_ << "";
  csv_.step_size(h) << o.status << o.steps << o.solver_failures << o.solver_recoveries << o.reason;
  csv_.end_row();
  if (!rows_written()) return;  // another process's run
  if (o.status == "skipped" && !skipped_.insert(model).second) return;  // printed once per model
  if (o.status == "skipped") {
    std::printf("  %-10s skipped: %s\n", model.c_str(), o.reason.c_str());
  } else {
    const std::string seed_text = seed >= 0 ? "seed " + std::to_string(seed) + ", " : "";
    std::printf("  %-10s %sh = %-7s %-6s %ld steps, %ld failed solves (%ld recovered)%s%s\n", model.c_str(),
                seed_text.c_str(), format_h(h).c_str(), o.status.c_str(), o.steps, o.solver_failures,
                o.solver_recoveries, o.reason.empty() ? "" : ": ", o.reason.c_str());
  }
  std::fflush(stdout);
}

// ---- per-step rows ----------------------------------------------------------

// thesis 5.2.3-5.2.4, 5.3: the total area (2D) or volume (3D) of overlap between
// all body pairs, measured on the geometry by the analysis stage
double measured_overlap(const Model& model, const State& state) { return total_overlap(model, state); }

std::vector<std::string> step_columns() {
  return {"step", "t", "contacts", "u", "i", "x", "traps", "max_penetration", "overlap", "solver_failures"};
}

void write_step(Csv& csv, const World& world, const StepReport& r) {
  csv << static_cast<long>(world.state().step) << world.state().time << r.contacts_found << r.constraints.u
      << r.constraints.i << r.constraints.x << r.traps << r.max_penetration
      << measured_overlap(world.model(), world.state()) << r.solver_failures;
}

Scene load_shipped_scene(const Context& ctx, const std::string& name) {
  const std::filesystem::path path = ctx.scenes / (name + ".yaml");
  if (!std::filesystem::exists(path))
    throw std::runtime_error("scene " + path.string() + " not found (pegsim experiment reads the shipped scenes/)");
  return load_scene_file(path.string());
}

std::uint32_t body_named(const Scene& scene, const std::string& name) {
  for (std::uint32_t i = 0; i < scene.model.bodies.size(); ++i)
    if (scene.model.bodies[i].name == name) return i;
  throw std::runtime_error("scene '" + scene.name + "' has no body '" + name + "'");
}

}  // namespace pegsim::cli::experiment
