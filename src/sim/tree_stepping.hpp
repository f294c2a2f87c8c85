// Kinematic trees in the time-stepping LCP stepper (contact in joint space).
//
// A tree's links are Model bodies, so contacts on them are found and modelled
// like any other (PEG, standard, ...). What differs is the dynamics behind the
// rows: a link's velocity is not free but J_i v, with J_i the link's Jacobian
// at its centre of mass (articulated/kinematics.hpp) and v the tree's
// generalized velocity. Per step and tree:
//
//   free motion   (M + h D) (v* - v) = h (tau - C(q, v) - D v)        semi-implicit Euler,
//                 M by CRBA, C by RNEA (gravity included), D the joint damping (implicit),
//                 tau the applied joint forces plus J_i' (f_i, t_i) of forces set on link bodies;
//                 M~ = M + h D factored once (LLT)
//   link bodies   zero inverse mass in the loose-body terms, free velocity J_i v*
//   problem       A += R_t' M~^-1 G_t, with G_t's column for row r the sum over r's
//                 link ends of J_i' j (j the row's 6-vector on that body) and R_t the
//                 same for what r measures (G plus PEG's extra rows); the loose
//                 bodies' block-diagonal terms are the formulation's own. A then has
//                 terms the structure cannot express: LcpStructure::dense_only.
//   impulses      v+ = v* + M~^-1 G_t z                                (eq. 2.30 in joint space)
//   positions     q+ = integrate(q, v+, h), quaternions normalized; link bodies' poses
//                 and velocities from forward kinematics.
//
// Links of one tree never collide with each other (ContactFinder), and all
// links of a tree are in one island (their rows couple through M~^-1).
#pragma once

#include "articulated/kinematics.hpp"
#include "dynamics/contact_space.hpp"
#include "dynamics/formulation.hpp"
#include "dynamics/mass.hpp"
#include "geometry/shape.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <Eigen/Cholesky>
#include <utility>
#include <vector>

namespace pegsim {

// Appends a tree to the model and the state: one body per link (its shape in
// the link's centre-of-mass frame, `shapes` one per link), q0 and v0 (empty:
// neutral configuration, rest), which links collide (empty: all). Returns the
// tree's index. Throws std::invalid_argument when a colliding link has no
// mass, the joint-space inertia at q0 is not positive definite (a moving
// subtree without mass), or q0, v0, shapes or collides have the wrong size.
int add_tree(Model& model, State& state, std::string name, articulated::ArticulatedTree tree,
             const std::vector<Shape>& shapes, const VecX& q0 = VecX(), const VecX& v0 = VecX(),
             MaterialId material = MaterialId{}, std::vector<char> collides = {});

// Link bodies' poses and velocities from every tree's q and v.
void sync_tree_bodies(const Model& model, State& state);

// A tree's links are one island (their rows couple through its M^-1): appends
// (root link, link) for every link of every tree, the root with itself too (a
// one-link tree with a limit row still gets its island), as pseudo-joint ends
// for find_islands (sim/islands.hpp).
void append_tree_link_pairs(const Model& model, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out);

class TreeStepping {
 public:
  // The trees' free velocities; link bodies get a zero InverseMass and free velocity J_i v*.
  void free_velocities(const Model& model, const State& state, std::vector<InverseMass>& inverse_mass,
                       std::vector<Vec6>& free_velocity);
  // Joint limits (Link::lower, upper of 1-dof joints): a limit whose gap
  // after a free step, gap + h rate(v*), is below the contact distance eps
  // gets a unilateral row, like a contact (and like the maximal-coordinate
  // joints' limits, joints/joint_problem.hpp):
  //   0 <= s rate(nu) + gap / h  perp  p >= 0,  gap = q - lower (s = 1) or upper - q (s = -1)
  // with rate(nu) written on the link bodies' velocities: a revolute joint's
  // rate is a_w . (omega_child - omega_parent), a prismatic joint's
  // a_w . (v_child(o) - v_parent(o)) at the joint origin o (exact: the child
  // moves relative to the parent along a_w only), so the row is a JacobianRow
  // whose tree column is exactly s e_k.
  // Joint friction (Link::friction F > 0, Coulomb) is a bounded impulse
  // |p| <= F h on the same row (s = 1), written as a pure LCP with
  // Stewart-Trinkle's friction trick like the maximal-coordinate joints'
  // (joints/joint_problem.hpp): two opposite rows and a multiplier sigma,
  //   0 <= rate + sigma perp p+ >= 0,  0 <= -rate + sigma perp p- >= 0,
  //   0 <= F h - p+ - p- perp sigma >= 0.
  bool has_limit_rows() const { return !limits_.empty(); }
  bool has_limit_rows(const std::vector<std::uint32_t>& island_bodies) const;  // bodies ascending
  // Appends the limit rows of the trees in `island_bodies` (role Other),
  // numbered with the problem's bodies (number_island_bodies); drops A (the
  // tree terms' step assembles it from the structure).
  void append_limit_rows(const std::vector<std::uint32_t>& island_bodies, const std::vector<Vec6>& free_velocity,
                         const std::vector<InverseMass>& inverse_mass, double h, StepProblem& problem) const;
  // Whether a row of `problem` acts on a link.
  bool touches(const StepProblem& problem) const;
  // A += R_t' M~^-1 G_t for every tree; A must be assembled.
  void add_delassus(StepProblem& problem) const;
  // Accumulates G_t z, the generalized impulse of the solved problem.
  void add_impulses(const StepProblem& problem, const VecX& z);
  // v+, q+, link bodies from forward kinematics; applied joint forces cleared.
  void finish_step(const Model& model, State& state);
  // Tree t's v+ = v* + M~^-1 (the accumulated impulses), as finish_step takes it.
  VecX velocity_plus(std::size_t t) const;
  // Each link body's velocity J_i v+ at the step's start configuration (the
  // Jacobians of the last free_velocities), v+ per tree in `v_plus`, into
  // `velocity` (per model body; the loose bodies' entries untouched).
  void start_link_velocities(const Model& model, const std::vector<VecX>& v_plus, std::vector<Vec6>& velocity) const;
  // sync_tree_bodies, unless q, v and every link body are still exactly what
  // the last finish_step left (nobody moved them since): the step's first
  // forward kinematics saved, with the same bits either way.
  void sync_if_moved(const Model& model, State& state);
  void forget_sync() { synced_ = Synced{}; }  // a new model: the next sync_if_moved syncs

  // For the Drumwright-Shell steppers (dynamics/contact_space.hpp), after
  // free_velocities: the link Jacobians, each tree's (M + h D)^-1 and the
  // active limit rows (joint friction rows are not among them: those
  // steppers reject trees with joint friction), and each tree's v*.
  void fill_terms(const Model& model, TreeTerms& out) const;
  const VecX& free_velocity(std::size_t t) const { return trees_[t].free_velocity; }
  // Tree t's joint forces tau plus J_i' of the forces and torques set on its
  // link bodies, with the Jacobians of the last free_velocities.
  VecX applied_forces(const Model& model, const State& state, std::size_t t) const;
  // Tree t's v+ for finish_step (its impulse set to (M + h D)(v+ - v*)).
  void set_velocity(std::size_t t, const VecX& v);
  // (M + h D) x for tree t, from the factor of the last free_velocities (the
  // metric of the Drumwright-Shell steppers' energy bound).
  VecX inertia_times(std::size_t t, const VecX& x) const;

  // The position correction's projection (sim/position_correction.hpp) in
  // joint space: begin_projection factors each tree's M(q) (no damping term:
  // the projection is the M-weighted least displacement) and takes the link
  // Jacobians at the current poses; link bodies get a zero InverseMass and the
  // impulses are cleared, so that add_delassus and add_impulses work as in a
  // step. No joint-limit rows: the projection leaves the limits to the steps.
  void begin_projection(const Model& model, const State& state, std::vector<InverseMass>& inverse_mass);
  // q moved by dq = M^-1 G z of the accumulated projection impulses (as
  // integrate_configuration moves q by a velocity over a unit step); link
  // bodies from forward kinematics, velocities unchanged.
  void finish_projection(const Model& model, State& state);

 private:
  struct Tree {
    Eigen::LLT<MatX> inertia;   // M + h D
    std::vector<MatX> jacobian; // per link: 6 x nv at its centre of mass, [v_com; omega]
    VecX free_velocity, impulse;
  };
  // what finish_step left: each tree's q and v, and the link bodies' states
  struct Synced {
    std::vector<VecX> q, v;
    std::vector<BodyState> links;
  };
  void remember_sync(const Model& model, const State& state);
  bool synced(const Model& model, const State& state) const;
  // per-tree data and body maps sized for `model`, limit rows cleared
  void reset(const Model& model);
  // tree t at its q: kinematics into `kin`, its links' Jacobians at their
  // bodies' centres of mass, the link bodies mapped and given a zero
  // InverseMass; returns M(q) (CRBA)
  MatX link_terms(const Model& model, const State& state, std::size_t t, articulated::TreeKinematics& kin,
                  std::vector<InverseMass>& inverse_mass);
  // adds J_i' j for the ends of `row` (its bodies numbered as in `st`) on
  // links of tree t into `out`; false when none
  bool add_row(const LcpStructure& st, const JacobianRow& row, int t, double scale, VecX& out) const;

  struct LimitRow {
    std::uint32_t link_body;  // the child link's body: the island test
    JacobianRow row;
    double gap = 0.0;
    double friction = 0.0;  // > 0: a friction row with bound F h instead of a limit
  };
  void find_limits(const Model& model, const State& state, const articulated::TreeKinematics& kin, int t);

  std::vector<Tree> trees_;
  std::vector<LimitRow> limits_;
  Synced synced_;
  std::vector<int> tree_of_, link_of_;  // per body: its tree and link, -1 for loose bodies
};

}  // namespace pegsim
