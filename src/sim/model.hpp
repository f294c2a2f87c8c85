// The model: everything that does not change while stepping.
//
// Users hold typed handles (BodyId); the index inside is internal. A Model is
// built once (from a scene file or in code), then a State is stepped against it.
#pragma once

#include "articulated/tree_model.hpp"
#include "geometry/shape.hpp"
#include "joints/controller_spec.hpp"
#include "joints/joint.hpp"
#include "math/types.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pegsim {

struct BodyId {
  std::uint32_t index = std::numeric_limits<std::uint32_t>::max();
  friend bool operator==(BodyId, BodyId) = default;
};

struct MaterialId {
  std::uint32_t index = 0;
  friend bool operator==(MaterialId, MaterialId) = default;
};

enum class ContactModelKind : std::uint8_t { Standard, Peg, Lnc, Corrective };
enum class FormulationKind : std::uint8_t { StewartTrinkle, AnitescuPotra };
// How the free velocity takes a spinning body's gyroscopic torque -w x J w
// (dynamics/mass.hpp). Explicit: the thesis's eq. 2.30 as written, which adds
// O(h^2) rotational energy a step and is unstable once |w| h is of order one
// (a body launched at 476 rad/s, h = 0.005, squared |w| every step:
// docs/reliability.md). Implicit: the implicit midpoint rule, which keeps the
// spin's energy and |J w| (so stays bounded at any h).
enum class GyroscopicTerm : std::uint8_t { Implicit, Explicit };

struct BodyModel {
  std::string name;
  bool is_static = false;
  // Prescribed motion (Box2D's and Jolt's "kinematic" body): a static body -
  // infinite mass, untouched by forces, contacts and position correction -
  // that moves at the constant velocity in its state (centre of mass and
  // angular velocity about it): a turntable, a conveyor, a moving platform.
  // is_static is true as well. Contacts see its surface velocity (the b term
  // of eq. 2.30's rows, JacobianRow::prescribed).
  bool is_kinematic = false;
  Shape shape;              // body frame, origin at the centre of mass
  double mass = 0.0;        // ignored for static bodies
  Mat3 inertia = Mat3::Zero();  // body frame, about the centre of mass (2D: Izz at (2,2))
  MaterialId material;
};

struct Material {
  std::string name;
};

// The event-driven impulse stepper (Mirtich-Canny; sim/impulse_stepping.hpp).
struct ImpulseOptions {
  // Collision envelope eps (m): a pair closer than this is checked for
  // colliding contact points; time-of-impact bounds advance pairs to eps / 2.
  // It must be below every gap a scene means to keep open (billiards: 0.1 mm).
  double collision_tolerance = 1e-5;
  std::string restitution_law = "poisson";  // poisson (the paper's), stronge, newton
  // Micro-collisions: a collision approaching slower than
  // v_mu = max(micro_speed_min, sqrt(2 |g| eps)) ends its restitution no
  // slower than v_mu (the body hops a height of about eps).
  double micro_speed_min = 1e-4;  // m/s
  int integration_steps = 256;    // RK4 steps of a collision's nominal normal impulse
  // Budgets per step: never a hang. Past max_collisions the step's remaining
  // collisions are not resolved (bodies fly on; counted); past max_events the
  // rest of the step is flown without time-of-impact checks (counted). A
  // time-of-impact bound below min_advance (s) is raised to it (counted).
  int max_collisions_per_step = 20000;
  int max_events_per_step = 200000;
  double min_advance = 1e-7;
};

// The Drumwright-Shell steppers' parameters (docs/contact-models.md; the
// papers leave them open, shared/notes/drumwright-shell.md A.4, B.3, B.6).
struct DrumwrightShellOptions {
  // gap (m) up to which a contact touches (overlap included): its tangential law (no-slip rows
  // (45)-(46), the viscous impulse, the convex model's contact set) applies.
  double touch = 1e-5;
  double viscous = 0.0;       // mu_v (N s/m) per touching contact, stepper viscous (002 eq. (15))
  // viscous: the tangential impulse -h mu_v v_t at the step's start velocity (false: the paper's
  // explicit eq. (15), unstable once h mu_v exceeds twice a contact's effective tangential mass),
  // or at v+ (true: the guide's semi-implicit variant, B.3, a deviation; dynamics/normal_lcp.hpp)
  bool viscous_implicit = false;
  double restitution = 0.0;   // epsilon of the convex model, in [0, 1] (000 l.72, Newton's law)
  bool circular_cone = true;  // convex model: the true cone f_i (000 l.123), or the 4-sided pyramid
  // convex model: kappa of ||x_N|| <= kappa ||w_s||; 1 is the paper's g (000 l.100-102), > 1 a
  // deviation that lets friction redistribute the normal impulses (dynamics/convex_impulse.hpp)
  double normal_bound = 1.0;
};

struct SimOptions {
  Dimension dimension = Dimension::Spatial;
  double h = 0.005;           // time step (s)
  double duration = 1.0;      // default run length (s)
  bool eps_auto = false;      // contact distance per body pair from thesis eq. 5.1
  double eps = 0.01;          // contact distance (m), used when !eps_auto
  double eps_theta = -0.1;    // applicability relaxation eps_theta = -sin(theta) (thesis 3.2)
  // eps_theta: auto - applicability over the step: a pair whose bodies turn by
  // up to phi = h (|omega_a| + |omega_b|) in the step is judged with
  // eps_theta - phi (an edge direction's component along a normal changes by at
  // most phi), so a vertex that becomes applicable during the step is
  // constrained from its start (thesis 5.5: high rotational velocities). The
  // contacts' recorded applicability is shifted by +phi to match.
  bool eps_theta_auto = false;
  double eps_feasible = 1e-6;  // depth below a facet still counted feasible (thesis 3.3): round-off
                               // and the rotation error of thesis 5.3 must not demote resting contacts
  int friction_directions = 7;  // n_d of the linearised cone (3D); 2D always uses +-t
  GyroscopicTerm gyroscopic = GyroscopicTerm::Implicit;  // 3D only (planar bodies have none)
  // The stepper (sim/stepper.hpp registry): how a step is taken.
  std::string stepper = "time-stepping";
  // PEG (thesis ch. 4) by default: the standard model traps bodies at corners
  // (thesis 4.1) and fails whole stacks whose boxes are offset (docs/contact-models.md).
  ContactModelKind model = ContactModelKind::Peg;
  FormulationKind formulation = FormulationKind::StewartTrinkle;
  std::string solver = "lemke";
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  // Complementarity residual a solve must reach (scaled by 1 + |b|_inf, see
  // solvers/lcp.hpp). The normal rows' residual is a velocity error: 1e-9 m/s
  // moves a contact by 5e-12 m per step at h = 0.005, 1e-8 m over 2000 steps,
  // well inside the 1e-6 m a resting stack may drift; tighter than that,
  // double-precision pivoting on a few hundred rows of mixed scale fails on
  // round-off rather than on the physics.
  double solver_tolerance = 1e-9;
  int solver_max_iterations = 0;    // 0: the solver's own default
  // Work and memory bound of a step (issue 17): an island whose problem would
  // have more variables than this is not formulated or solved; it gets no
  // contact impulses and counts as a failure (StepReport::over_budget), with a
  // warning. 4000 variables: a dense A of 128 MB, and a Lemke path of at most
  // 4e8 multiply-adds (lemke_pivoting.cpp) per ladder rung. The scenes here
  // need at most a few hundred; the pour that hung (issue 17) asked for 5358.
  int max_problem_size = 4000;
  // Wall-clock seconds one solve may take (SolverOptions::time_budget; 0: no
  // limit). A solve past it is a counted failure and goes down the chain. Off
  // by default: a clock makes the answer depend on the machine's speed (the
  // work bounds above do not).
  double solver_time_budget = 0.0;
  double solver_relaxation = 1.0;   // lambda of psor and projected-jacobi (thesis eqs. 2.46-2.47), in (0, 2)
  // Fallback chain (sim/certification.hpp): a solve that misses its tolerance
  // goes to the next solver. Empty: just `solver`.
  std::vector<std::string> solver_chain;
  // Certification tolerances; infinity: not checked. max_cone_violation (N s)
  // bounds the linearized friction cone's violation sum p_f - mu p_n per
  // contact (a miss escalates like a residual miss); max_penetration (m)
  // bounds the overlap after the step (a miss is counted and warned about).
  double max_cone_violation = std::numeric_limits<double>::infinity();
  // Every island's impulses (a failed solve's best point, or a solution of a
  // problem whose rows contradict each other) are held to the energy bound of
  // sim/impulse_energy.hpp: the kinetic energy they add at most what the gap
  // and target terms ask for; above it they are scaled down and the island
  // counts as a failure. Off: applied as they are.
  bool energy_bound = true;
  double max_penetration = std::numeric_limits<double>::infinity();
  bool islands = true;  // one problem per contact island (sim/islands.hpp); false: one for all
  // Position correction after the step (sim/position_correction.cpp): while two
  // bodies overlap deeper than correction_tolerance (m), poses are projected
  // out of the overlap through the contact model's own constraints, at most
  // correction_iterations times; velocities are left alone. Off: the thesis's
  // step, whose rotation error (thesis 5.3) can leave overlap.
  bool position_correction = false;
  double correction_tolerance = 1e-6;
  // Contact drift correction (sim/contact_drift.hpp): a persistent contact's
  // tangential drift over the last step beyond what the step's velocities
  // gave (the first-order position update's O(h^2) per step, which adds up
  // under a sticking contact on a turning body) is taken back in the next
  // step through its friction rows (no-slip: its rows S v+ = T v+ = 0; the
  // convex model: phase 2's tangential velocity), as psi/h takes back a gap.
  // Off: the papers' steps. The viscous and impulse steppers refuse it.
  bool contact_drift_correction = false;
  int correction_iterations = 4;
  // Joints (joints/joint.hpp): stabilization, Algorithm 1 and its tolerances.
  JointOptions joints;
  // The impulse stepper's settings (sim/impulse_stepping.hpp; ignored by the others).
  ImpulseOptions impulse;
  DrumwrightShellOptions drumwright_shell;
};

struct Model {
  SimOptions options;
  std::vector<BodyModel> bodies;
  std::vector<Material> materials;  // index 0 is "default" when a scene names none
  // friction coefficient per material pair, symmetric, size materials^2
  std::vector<double> friction;
  // coefficient of restitution per material pair, symmetric, size materials^2
  // (read by the impulse stepper; the time-stepping stepper's impacts are plastic)
  std::vector<double> restitution;
  // Joints between bodies or a body and the world (joints/joint.hpp), and the
  // PD controllers on their coordinates (joints/controller_spec.hpp) that the
  // world runs at the start of every step.
  std::vector<JointModel> joints;
  std::vector<PdControllerSpec> controllers;
  // Kinematic trees in generalized coordinates (articulated/tree_model.hpp);
  // their links are bodies above as well (sim/tree_stepping.hpp).
  std::vector<TreeModel> trees;

  double mu(MaterialId a, MaterialId b) const {
    return friction[a.index * materials.size() + b.index];
  }
  double restitution_of(MaterialId a, MaterialId b) const {
    return restitution[a.index * materials.size() + b.index];
  }
  std::size_t body_count() const { return bodies.size(); }
  BodyId add_body(BodyModel body);
  MaterialId add_material(std::string name);
  // Several at once, the tables grown once (a scene's materials:); the id of the first.
  MaterialId add_materials(std::vector<std::string> names);
  void set_friction(MaterialId a, MaterialId b, double mu);
  void set_restitution(MaterialId a, MaterialId b, double e);  // e in [0, 1]
};

}  // namespace pegsim
