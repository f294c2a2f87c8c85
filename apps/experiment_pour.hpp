// box-of-polygons and box-of-polyhedra (thesis 5.2.3-5.2.4): random convex
// bodies poured into a container one at a time. Shared by
// experiment_pour_scene.cpp (the generated scene and its release schedule),
// experiment_pour.cpp (the runs) and tests/sim/peg_pour_test.cpp (which
// compiles experiment_pour_scene.cpp in).
//
// Bodies that appear over time: every body of the pour is in the scene from
// the start, parked at rest in a column beside the container, 1 m apart (out
// of every other body's contact distance). Before each step the parked ones
// are put back at rest in their places; at its release time a body is moved to
// the drop point and given the release velocity. So the world steps one fixed
// set of bodies, and the parked ones take no part in the contacts.
#pragma once

#include "experiment.hpp"

#include <cstdint>
#include <random>

namespace pegsim::cli::experiment {

struct PourSetup {
  const char* name;        // "box-of-polygons"
  Dimension dimension;
  double interval;         // s between releases
  double duration;         // s simulated (quick: shorter)
  Vec3 drop;               // lowest drop point of a body's centre of mass; up is y (2D) or z (3D)
  double jitter;           // drop point spread: uniform in +-jitter along x (2D) or y (3D)
  Vec3 release_velocity;   // m/s
  double clearance;        // m: a body is released at least this far above the highest released body
  int count() const;       // bodies released within the duration
};

// std::mt19937_64 with its own mapping to [a, b): the same numbers with every
// standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double uniform(double a, double b) { return a + (b - a) * (static_cast<double>(engine_() >> 11) * 0x1.0p-53); }

 private:
  std::mt19937_64 engine_;
};

struct PourScene {
  Scene scene;                  // container (static) first, then the bodies, parked
  std::size_t first_body = 0;   // index of the first poured body
  std::vector<Vec3> drop;       // per poured body: its drop point before the clearance rule
  std::vector<Vec3> park;       // per poured body: where it waits
};

// The container, and `count` bodies each the convex hull of ten points uniform
// in [-0.25, 0.25]^2 (2D) or ^3 (3D), drawn from Rng(seed).
PourScene make_pour_scene(const PourSetup& setup, std::uint64_t seed, int count);

// The two pours' parameters (thesis 5.2.3-5.2.4, choices in docs/experiments.md):
// "box-of-polygons" or "box-of-polyhedra"; throws std::invalid_argument otherwise.
PourSetup pour_setup(const std::string& name);

// The release schedule of one run, called before every step: puts the
// not-yet-released bodies back at rest in their parking places and, at its
// release time (the first step starting at or after k * interval), moves body k
// to its drop point, at least `clearance` above every body released before,
// with the release velocity.
class PourSchedule {
 public:
  PourSchedule(const PourSetup& setup, const PourScene& pour, double h) : setup_(setup), pour_(pour), h_(h) {}
  void before_step(World& world);
  int released() const { return released_; }

 private:
  int count() const { return static_cast<int>(pour_.drop.size()); }
  std::size_t body(int k) const { return pour_.first_body + static_cast<std::size_t>(k); }
  int up() const { return setup_.dimension == Dimension::Planar ? 1 : 2; }
  long release_step(int k) const;
  void park(World& world, int k) const;
  void release(World& world, int k) const;

  const PourSetup& setup_;
  const PourScene& pour_;
  double h_;
  int released_ = 0;
};

// `pegsim experiment NAME --capture FILE`: one pour (seed 1, h = 0.005, the
// scene's model) with every `every`-th step's problem captured to FILE
// (io/capture.hpp), nothing else written. False if NAME is not a pour.
bool capture_pour(const std::string& name, const std::string& file, long every, bool quick);

}  // namespace pegsim::cli::experiment
