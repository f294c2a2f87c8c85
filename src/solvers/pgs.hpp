// Projected Gauss-Seidel / PSOR (thesis 2.5.1-2.5.2, eqs. 2.40, 2.46) that
// follows the row roles. The registry's "pgs" is lambda = 1 (eq. 2.40);
// "psor" takes lambda from SolverOptions::relaxation (eq. 2.46). The
// relaxation applies to the scalar rows; friction blocks are solved exactly.
//
// Plain rows (no Slip rows in the problem, or rows outside any contact):
//   z_i <- max(0, z_i - lambda w_i / A_ii)          (eq. 2.46; no max on Free rows)
// which needs A_ii > 0: a zero diagonal is Unsupported.
//
// Stewart-Trinkle contacts (eq. 6.1; the blocks of LcpProblem::layout):
// the slip rows have A_ss = 0, so s is not swept. Per contact:
//   1. p_n by its own row, projected at 0 (eq. 2.46);
//   2. with p_n fixed, p_f solves the friction block
//        min 1/2 p_f' H p_f + p_f' r   over   C = {p_f >= 0, sum_k p_f,k <= mu p_n},
//      H = A_ff of the contact, r the rest of its friction velocities. Its
//      KKT conditions, with s the multiplier of the sum constraint, are
//      exactly eq. 2.21 for this contact:
//        0 <= p_f  perp  v_f + E s >= 0,   0 <= s  perp  mu p_n - E'p_f >= 0,
//      v_f = (A z + b)_f without the slip term. A contact's friction rows are
//      G' columns [d; r x d] with the directions d in the tangent plane (eq.
//      2.22), so H = C'C has rank <= 2 and the block is the Euclidean
//      projection of a point onto the polygon conv{0, mu p_n c_k} in R^rank:
//      solved exactly (pgs_friction.cpp). Blocks outside that form (rank > 2,
//      or r not in the range of H) take projected gradient steps
//      p_f <- Proj_C(p_f - v_f / L), L >= lambda_max(H) / 1.82, with the exact
//      Euclidean projection onto C.
//   3. s recovered: s = max(0, -min_k v_f,k). Derivation: if the cone is not
//      saturated, s = 0 by complementarity and then v_f >= 0 (the minimum is
//      >= 0, giving 0); if it is saturated (s > 0 allowed), every active
//      direction has v_f,k + s = 0 and every other v_f,k + s >= 0, so
//      s = -min_k v_f,k. With mu p_n = 0 (C = {0}) the smallest s making
//      v_f + s >= 0 is the same formula.
// Order of a sweep: every normal and plain row in index order, then every
// friction block (the normal impulses settle the caps mu p_n first; on the
// box stack this beats the per-contact order by a little).
//
// Subspace steps (pgs_subspace.cpp): sweeps damp the bending modes of a stack
// by ~1e-4 per sweep only. From sweep kSubspaceFrom on, at a residual check,
// the equalities of the current active set (w_i = 0 on rows the next
// projection keeps positive, zero tangential velocity at sticking contacts)
// are solved for the minimal-norm correction by conjugate gradients on the
// same engine, then projected onto the bounds and cones; the next sweeps fix
// what the active set got wrong. A step that leaves a larger residual two
// sweeps later is undone (and the next one waits twice as long). Iterations
// (SolverResult) count sweeps only.
//
// Two engines run the same sweeps and steps (pgs_structured.cpp):
//   dense:    w = A z + b kept up to date, O(n) per changed z_i;
//   velocity: when problem.structure (A = G'M^-1G + C) is present and
//             consistent, u_b = M^-1 G z per body is kept instead and
//             w_i = G_i u + b_i + (C z)_i costs O(12), a change of z_i O(12);
//             A is not read. Otherwise (see pgs_structure_issue) the dense one.
// Warm start: the given z (clamped at 0 on NonNegative rows), unless its
// residual is larger than that of z = 0 (after an impact, last step's
// impulses can be 100 times too large): then z = 0.
// Convergence: residuals (SolverResult, measure_residuals' definitions on the
// original problem) on w recomputed from scratch (dense: A z + b; velocity:
// G (M^-1 G z) + b + C z) after sweep 1, every kCheckEvery sweeps and where a
// subspace step is judged; Solved within the tolerance, MaxIterations (z the
// last iterate) at the limit. Default 500 sweeps.
#pragma once

#include "solvers/delassus.hpp"
#include "solvers/lcp.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pegsim {

class PgsSolver final : public LcpSolver {
 public:
  // name: "pgs" (the registry's pgs runs with lambda = 1) or "psor" (the
  // registry's psor runs with SolverOptions::relaxation); the sweeps are the
  // same code, so psor at lambda = 1 repeats pgs's iterates bit for bit.
  explicit PgsSolver(const SolverOptions& options, std::string_view name = "pgs");
  ~PgsSolver() override;
  std::string_view name() const override { return name_; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;
  // works through LcpProblem::structure (pgs_structured.cpp) when it is given
  bool needs_matrix() const override { return false; }

  static constexpr int kDefaultMaxSweeps = 500;
  static constexpr int kCheckEvery = 4;  // sweeps between residual checks

 private:
  struct Workspace;  // schedule and engine storage, reused from call to call
  SolverOptions options_;
  std::string_view name_;  // a string literal
  std::unique_ptr<Workspace> work_;
};

// Euclidean projection of y onto {x >= 0, sum x <= cap} (cap >= 0), in place.
void project_onto_capped_simplex(VecX& y, double cap);
void project_onto_capped_simplex(VecX& y, double cap, std::vector<double>& scratch);

// Why PGS cannot run on problem.structure (it then uses the dense A): empty
// when the velocity engine will be used.
std::string pgs_structure_issue(const LcpProblem& problem);

// Internals shared by pgs.cpp, pgs_structured.cpp, pgs_friction.cpp and
// pgs_subspace.cpp.
namespace pgs_detail {

// One contact's friction block (step 2 above) and its solver.
class FrictionBlock {
 public:
  // H = A_ff of the contact; factors it (H = C'C, pivoted Cholesky).
  void reset(const MatX& H);
  // p: the current p_f; v: the friction velocities without the slip term at
  // p. On return p minimizes the block over {p >= 0, sum p <= cap} and v are
  // the velocities at the new p. perp_tol: how far r may lie outside the
  // range of H for the exact polygon solve.
  void solve(VecX& p, VecX& v, double cap, double perp_tol);
  // Rank 1, 2: p <- a feasible p_f whose tangential impulse C p_f is the
  // nearest point of the cone cap conv{0, c_k} to P (pgs_subspace.cpp).
  void place(VecX& p, const Vec2& P, double cap) const;
  int rank() const { return rank_; }  // 0..2: exact solve; 3: projected gradient only
  // Tangential velocity of friction velocities v in the coordinates of C:
  // K v = beta + C p (K C' = I, so K H K' = I).
  const Eigen::Matrix<double, 2, Eigen::Dynamic>& K() const { return K_; }
  const Eigen::Matrix<double, 2, Eigen::Dynamic>& C() const { return C_; }

 private:
  struct Choice {
    int ka = -1, kb = -1;  // p = cap (wa e_ka + wb e_kb); -1: none
    double wa = 0.0, wb = 0.0;
  };
  Choice project(const Vec2& x) const;
  bool solve_exact(VecX& p, VecX& v, double cap, double perp_tol);
  void projected_gradient(VecX& p, VecX& v, double cap);

  MatX H_;
  int rank_ = 3;
  Eigen::Matrix<double, 2, Eigen::Dynamic> C_, K_;  // H = C'C; K = (CC')^-1 C
  std::vector<int> hull_;   // rank 2: CCW hull of {0, c_k}: k, or -1 for the origin
  std::vector<Vec2> point_; // the hull's points
  int lo_ = -1, hi_ = -1;   // rank 1: the extreme c_k below and above 0 (-1: 0)
  double lipschitz_ = -1.0; // projected-gradient step bound, computed on first use
  VecX y_, dp_;             // scratch, kept between calls
  std::vector<double> scratch_;
  MatX scratch_matrix_;
  std::vector<int> scratch_index_;
};

// A contact's friction block (normal >= 0: cap mu p_n), or a bounded block
// (normal -1: the constant cap b_s of its sigma row, find_contacts below).
struct ContactBlock {
  int normal = -1;
  int slip = -1;
  std::vector<int> friction;
  double mu = 0.0;
  double bound = 0.0;  // a bounded block's cap (b of its sigma row); unused for a contact
  FrictionBlock block;
  double cap(const VecX& z) const { return normal >= 0 ? mu * z(normal) : bound; }
};

struct Schedule {
  std::vector<int> order;  // >= 0: a normal or plain row; < 0: friction block of contact -(c + 1)
  std::vector<ContactBlock> contacts;
  std::vector<int> contact_of_slip;  // per row: its contact for slip rows, else -1
  std::vector<int> scratch;
  ContactLayout layout;  // derived blocks, for problems without LcpProblem::layout
};

// The contacts of eq. 6.1 from the problem's contact blocks (contact_layout()
// in lcp.hpp), then the bounded blocks: a row sigma outside them without a
// Jacobian (A_ss = 0) whose column holds +1 and whose row -1 on the same rows
// P (outside every block, not Free) and nothing else,
//   0 <= b_s - sum_P p  perp  sigma >= 0,   0 <= w_P + sigma  perp  p_P >= 0,
// which is eq. 2.21's block with the cap mu p_n replaced by b_s >= 0: a joint
// motor's or a joint friction's |p| <= F h (joints/joint_problem.hpp: p+, p-
// and sigma, directions G and -G). They are swept as friction blocks with
// that constant cap. Read from the structure's C when the problem has one,
// else from A. Empty string, or why the problem is outside PGS.
std::string find_contacts(const LcpProblem& p, Schedule& s);

// After find_contacts, on the dense A: checks the eq. 6.1 slip rows and
// columns (A_sn = mu >= 0, A_sf = -1, A_fs = +1, zero elsewhere), sets each
// contact's mu and resets its friction block from A_ff. Empty string, or why
// the problem lacks that structure (pgs.cpp; dvc3d_qp.cpp uses it too).
std::string dense_contact_blocks(const LcpProblem& p, Schedule& s);

// A variable of the subspace step: z_row (row >= 0), or coordinate `coord` of
// the tangential impulse C p_f of a sticking contact (row < 0).
struct SubspaceVar {
  int row = -1;
  int contact = -1;
  int coord = 0;
};

// What the sweep and the subspace step need from an engine (A dense, or
// A = G'M^-1G + C through u). The engines are final: the sweep's calls are direct.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual double diag(int i) const = 0;                      // A_ii
  virtual double velocity(int i, const VecX& z) const = 0;  // w_i (normal and plain rows)
  virtual double friction_velocity(int f, int slip, const VecX& z) const = 0;  // w_f - s
  virtual void add(int i, double dz) = 0;                    // z_i changed by dz
  virtual void refresh(const LcpProblem& p, const VecX& z, VecX& w) = 0;  // from scratch; w = A z + b
  // Subspace step: may a row / a contact's tangential impulse join it (no
  // coupling outside eq. 6.1)? prepare(), then y = S'A S x for its variables.
  virtual bool joins(int row) const = 0;
  virtual bool joins_contact(int c) const = 0;
  virtual void prepare(const std::vector<SubspaceVar>& vars, const Schedule& s) = 0;
  virtual void multiply(const std::vector<SubspaceVar>& vars, const VecX& x, VecX& y) = 0;
};

// The subspace step (pgs_subspace.cpp): with the current active set fixed
// (Free rows and rows the next projection keeps positive; sticking contacts),
// solves the equalities w_i = 0 and K v_f = 0 for the correction of minimal
// norm (conjugate gradients from 0), then applies it projected onto the
// bounds and cones. Returns false when it has nothing to do. `target`: CG
// stops below it (inf-norm of the equations).
bool subspace_step(const LcpProblem& p, Schedule& s, Engine& e, VecX& z, double target);

// The velocity engine's rows (pgs_structured.cpp).
class StructuredRows final : public Engine {
 public:
  // Validates problem.structure against the problem and s (eq. 6.1 blocks in
  // C, slip rows without bodies), sets each contact's mu and friction block.
  // Empty string, or why the structure cannot be used.
  std::string build(const LcpProblem& p, Schedule& s);
  double diag(int i) const override { return diag_[i]; }
  // w_i at the current u and z, without the E s term of friction rows.
  double velocity(int i, const VecX& z) const override {
    const Row& r = rows_[i];
    double w = (*b_)(i) + r.ja.dot(u_[r.a]) + r.jb.dot(u_[r.b]);
    for (int k = start_[i]; k < start_[i + 1]; ++k) w += val_[k] * z(col_[k]);
    return w;
  }
  double friction_velocity(int f, int /*slip*/, const VecX& z) const override { return velocity(f, z); }
  void add(int i, double dz) override {  // u += M^-1 G_i dz
    const Row& r = rows_[i];
    u_[r.a] += dz * r.ma;
    u_[r.b] += dz * r.mb;
  }
  // u = M^-1 G z from scratch, and w = G u + b + C z (all of C).
  void refresh(const LcpProblem& p, const VecX& z, VecX& w) override;
  bool joins(int row) const override { return start_[row] == start_[row + 1] && !coupled_[row]; }
  bool joins_contact(int c) const override { return tangent_ok_[c] != 0; }
  void prepare(const std::vector<SubspaceVar>& vars, const Schedule& s) override;
  void multiply(const std::vector<SubspaceVar>& vars, const VecX& x, VecX& y) override;

 private:
  struct Row {
    std::uint32_t a = 0, b = 0;  // body indices; the zero dummy body for none
    Vec6 ja = Vec6::Zero(), jb = Vec6::Zero();
    Vec6 ma = Vec6::Zero(), mb = Vec6::Zero();  // M^-1 ja, M^-1 jb
  };
  std::vector<Row> rows_;
  std::vector<Row> tangent_;      // per contact, 2: K G_f'
  std::vector<char> tangent_ok_;  // per contact: its friction rows share their bodies
  std::vector<double> diag_;
  std::vector<int> start_, col_;  // C by row, without the eq. 6.1 entries of contacts
  std::vector<double> val_;
  std::vector<char> coupled_;     // rows in a column of that C
  std::vector<Vec6> u_, du_;      // per body, then the dummy (always zero)
  const VecX* b_ = nullptr;
  std::vector<Row> packed_;       // the subspace step's rows, in its order
  solver_detail::RowsByBody by_body_;  // build()'s rows per body, for PEG's measures
  struct {
    std::vector<int> friction_contact, local, next;
    std::vector<double> mu, e_row, e_col;
    std::vector<LcpStructure::Entry> rest;
    MatX H;
  } scratch_;                     // kept between calls
};

}  // namespace pgs_detail
}  // namespace pegsim
