// The solver-neutral complementarity problem and the solver interface.
//
// Problem: find z with w = A z + b and, row by row,
//   NonNegative rows:  0 <= z_i  perp  w_i >= 0     (unilateral, friction, slip)
//   Free rows:         z_i free,  w_i = 0           (bilateral rows of an MLCP)
// The role of each row says where it came from; the formulations also emit
// the problem's blocks (ContactLayout: each frictional contact's rows, thesis
// eq. 6.1) and its factored form (LcpStructure), which the solvers that
// exploit the Stewart-Trinkle structure read directly.
#pragma once

#include "math/types.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pegsim {

enum class RowBound : std::uint8_t { NonNegative, Free };

enum class RowRole : std::uint8_t {
  Normal,     // p_n, non-penetration (eq. 2.27)
  Friction,   // p_f, one per friction direction (eq. 2.21)
  Slip,       // s, the sliding-speed multiplier (eq. 2.33)
  Bilateral,  // p_b, joint rows (eq. 2.28)
  PegSlack,   // c, d slack variables of PEG I/X-constraints (thesis 4.7)
  Other,
};

inline constexpr std::uint32_t kNoBody = 0xffffffffu;

// One row of the constraint Jacobian G' (thesis eq. 2.26): the row's velocity
// is w = ja . nu_a + jb . nu_b over the two bodies it couples (kNoBody for a
// static body, or for rows such as Stewart-Trinkle's slip rows that have none).
// `prescribed` is the row's velocity from a kinematic (prescribed-motion) body
// outside the problem, a known term of b (sim/model.hpp BodyModel::is_kinematic).
struct JacobianRow {
  std::uint32_t body_a = kNoBody;
  std::uint32_t body_b = kNoBody;
  Vec6 ja = Vec6::Zero();
  Vec6 jb = Vec6::Zero();
  double prescribed = 0.0;
};

// The factored form of a contact problem's matrix, for solvers that work on
// the structure instead of the dense matrix:
//   A = G' M^-1 G + (R - G)' M^-1 G + C
// with one JacobianRow per LCP row (G: where its impulse acts), the
// world-frame inverse mass of every body (block-diagonal M^-1), the sparse
// entries of C (Stewart-Trinkle's E, -E' and U blocks of eq. 6.1) and, for
// PEG's rows, what a row measures beyond its own column (R - G, thesis 4.7:
// an I-constraint's rows compare other sub-contacts' gaps). Empty when the
// problem was given densely only.
//
// Every sum reads A_ij in one order, so that the dense fill, assemble_matrix()
// and the solvers' structured reads agree bit for bit (solvers/delassus.hpp):
// the G' M^-1 G terms (at most two bodies), then row i's measure terms over
// its bodies in its order (body_a, then body_b), then C's entries as listed.
struct LcpStructure {
  struct Entry {
    int row, col;
    double value;
  };
  std::vector<JacobianRow> rows;
  std::vector<Mat6> inverse_mass;  // per body the rows name
  // The scene body of each body index the rows name. A scene's island problem
  // numbers its own bodies 0..k-1 (number_island_bodies, dynamics/formulation.hpp),
  // so its size and the solvers' work per body are the island's, not the
  // scene's (issue 17: 1000 resting boxes took 288 MB of per-island copies of
  // every body's M^-1). Empty: the rows name bodies by their own indices (a
  // problem built outside a scene: captures read back, generated problems).
  std::vector<std::uint32_t> scene_body;
  std::uint32_t scene_index(std::uint32_t body) const {
    return body == kNoBody || scene_body.empty() ? body : scene_body[body];
  }
  std::vector<Entry> coupling;     // the non-zero entries of C
  // R - G of rows 0 .. measures.size() - 1, on the rows' own numbering of
  // bodies (a PEG slack row has no G but measures two sub-contacts); rows past
  // the end measure what they push (R = G): empty outside PEG, and joint or
  // limit rows appended after PEG's have none.
  std::vector<JacobianRow> measures;
  const JacobianRow* measure(int row) const {
    return static_cast<std::size_t>(row) < measures.size() ? &measures[static_cast<std::size_t>(row)] : nullptr;
  }
  // A holds terms the block-diagonal M^-1 above does not give (an articulated
  // tree's joint-space inertia couples its links' rows, sim/tree_stepping.hpp):
  // the rows still say where each impulse acts, but solvers must read A.
  bool dense_only = false;
  bool empty() const { return rows.empty() || dense_only; }
};

// The contact blocks of eq. 6.1, as the formulation lays them out: per
// frictional contact its Normal row (the one its friction is coupled to by U),
// its Friction rows (n_d of them, in ContactLayout::friction) and its Slip
// row. Frictionless contacts, PEG's slack rows and bilateral rows are in no
// block. Solvers read the blocks from here instead of scanning the rows.
struct ContactRows {
  int normal = -1;
  int slip = -1;
  int friction_begin = 0;  // the contact's Friction rows: friction[friction_begin, friction_end)
  int friction_end = 0;
};

struct ContactLayout {
  std::vector<ContactRows> contacts;  // in the order the formulation emitted them
  std::vector<int> friction;          // Friction rows, grouped by contact
  std::vector<int> contact_at;        // per row: its contact (Normal, Friction, Slip rows), -1 for the rest
  // Rows the layout describes: LcpProblem::size() when the formulation filled it;
  // anything else (0: a problem given as matrices and roles) means "derive it"
  // (contact_layout() below).
  int rows = 0;

  void clear(int n) {
    contacts.clear();
    friction.clear();
    contact_at.assign(static_cast<std::size_t>(n), -1);
    rows = n;
  }
  // Appends a contact whose Friction rows are first_friction .. first_friction + directions - 1.
  void add(int normal, int first_friction, int directions, int slip) {
    const int index = static_cast<int>(contacts.size());
    ContactRows c;
    c.normal = normal;
    c.slip = slip;
    c.friction_begin = static_cast<int>(friction.size());
    for (int k = 0; k < directions; ++k) {
      friction.push_back(first_friction + k);
      contact_at[static_cast<std::size_t>(first_friction + k)] = index;
    }
    c.friction_end = static_cast<int>(friction.size());
    contact_at[static_cast<std::size_t>(normal)] = contact_at[static_cast<std::size_t>(slip)] = index;
    contacts.push_back(c);
  }
};

struct LcpProblem {
  MatX A;
  VecX b;
  std::vector<RowBound> bound;  // empty: all NonNegative
  std::vector<RowRole> role;    // empty: all Other
  // For Friction and Slip rows: the index of the Normal row of the same
  // contact (eq. 6.1 couples p_f and s to that p_n through U and E); -1 for
  // every other row. Empty: no row has a contact.
  std::vector<int> contact_of;
  // A's factored form (filled by the formulations; A is filled as well).
  LcpStructure structure;
  // The contact blocks (filled by the formulations; for a problem given by
  // role and contact_of alone, contact_layout() derives them).
  ContactLayout layout;

  int size() const { return static_cast<int>(b.size()); }
  bool is_pure_lcp() const;  // no Free rows
  // A is filled (n x n). A problem may come with its structure only (A empty):
  // solvers that work on the structure (LcpSolver::needs_matrix() false) take
  // it as is; assemble_matrix() builds A for the others.
  bool has_matrix() const { return A.rows() == size() && A.cols() == size(); }
};

enum class SolverStatus : std::uint8_t {
  Solved,          // residuals within tolerance
  MaxIterations,   // stopped at the iteration limit; z is the last iterate
  RayTermination,  // pivoting ended on a secondary ray (no solution found)
  Infeasible,      // certified infeasible (e.g. Lemke ray with z0 > 0 on a copositive-plus matrix)
  NumericalFailure,
  Unsupported,     // the problem's form is outside this solver's scope
};

std::string_view to_string(SolverStatus s);

struct SolverResult {
  SolverStatus status = SolverStatus::NumericalFailure;
  int iterations = 0;            // pivots or sweeps
  double complementarity = 0.0;  // max_i |min(z_i, w_i)| over NonNegative rows, |w_i| over Free rows
  double feasibility = 0.0;      // max(0, -min z_i, -min w_i) over NonNegative rows
  double seconds = 0.0;
  int regularization_level = 0;  // Lemke: rungs of the Tikhonov ladder used (0: none)
  std::string message;           // empty when Solved (path: also says when its Lemke fall back solved it)
  bool ok() const { return status == SolverStatus::Solved; }
};

struct SolverOptions {
  double tolerance = 1e-10;   // on SolverResult::complementarity, scaled by (1 + |b|_inf)
  int max_iterations = 0;     // 0: the solver's default
  double relaxation = 1.0;    // PSOR / projected Jacobi lambda (eqs. 2.46-2.47)
  // Wall-clock seconds one solve may take (0: no limit). A solve past it stops
  // as MaxIterations with "time budget" in its message: a counted failure.
  // A clock makes the answer depend on the machine's speed, so it is off by
  // default (for interactive runs); the deterministic bounds are
  // max_iterations and Lemke's path work (docs/reliability.md).
  double time_budget = 0.0;
};

// A solve's wall-clock deadline under SolverOptions::time_budget; never
// expires when the budget is 0 (and then reads no clock).
class SolveDeadline {
 public:
  explicit SolveDeadline(const SolverOptions& options) : limited_(options.time_budget > 0.0) {
    if (limited_)
      end_ = std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(std::min(options.time_budget, 1e6)));  // 11 days: no overflow
  }
  bool expired() const { return limited_ && std::chrono::steady_clock::now() >= end_; }

 private:
  bool limited_;
  std::chrono::steady_clock::time_point end_{};
};

class LcpSolver {
 public:
  virtual ~LcpSolver() = default;
  virtual std::string_view name() const = 0;
  // z holds the warm start on entry (resized and zeroed by the caller when
  // none), the solution on exit. Never throws on a bad problem: reports it.
  virtual SolverResult solve(const LcpProblem& problem, VecX& z) = 0;
  // Whether solve() reads the dense A. False for solvers that work through
  // LcpProblem::structure alone (pgs, psor): the formulation then skips the
  // dense assembly (issue 4: a dense path only where it is needed).
  virtual bool needs_matrix() const { return true; }
  // A solver that needs A to solve from scratch may still finish a warm-started
  // solve on the structure alone (Lemke: its warm start reads a few columns of
  // A, issue 11 item 6). For a structure-only problem the chain (and the
  // formulation, which then skips the dense A) calls solve_on_structure()
  // first and assembles A only when it returns false, z then as it was.
  virtual bool warm_starts_on_structure() const { return false; }
  virtual bool solve_on_structure(const LcpProblem& /*problem*/, VecX& /*z*/, SolverResult& /*result*/) {
    return false;
  }
};

// The contact blocks of p: p.layout when the formulation filled it, or else
// derived into `scratch` from role and contact_of (a slip row names its
// Normal row, each friction row the Normal row of a contact with a slip row).
// nullptr when the roles do not have the form of eq. 6.1; `why` says where.
const ContactLayout* contact_layout(const LcpProblem& p, ContactLayout& scratch, std::string& why);

// Residuals of z for a problem, as defined on SolverResult (through A, or
// through the structure when the problem has no matrix).
void measure_residuals(const LcpProblem& problem, const VecX& z, SolverResult& result);

// w = A z + b, through A or, for a structure-only problem, as
// G' (M^-1 (G z)) + C z + b (thesis eqs. 2.26, 2.30).
VecX complementarity_w(const LcpProblem& problem, const VecX& z);

// The same through the structure even when A is filled: O(n + nnz(C))
// instead of O(n^2) (the active-set solver's products on problems that carry both).
VecX structure_w(const LcpProblem& problem, const VecX& z);

// Fills A = G' M^-1 G + C from the structure (a structure-only problem handed
// to a solver that needs the matrix, or written to a capture file). Throws
// std::invalid_argument when the problem has no structure. The Delassus sum is
// the formulation's own (solvers/delassus.hpp), bit for bit.
void assemble_matrix(LcpProblem& problem);

// The registry: "lemke", "pgs", "path", "fischer-newton", "minmap-newton",
// "psor", "projected-jacobi", "fixed-point", "interior-point", "ppm",
// "dvc3d-qp", "active-set", "qp-active-set" (PEGSIM_SOLVER_LIST in solver_common.hpp; docs/solvers.md). Returns nullptr for an unknown name.
std::unique_ptr<LcpSolver> make_solver(std::string_view name, const SolverOptions& options);
std::vector<std::string> solver_names();

}  // namespace pegsim
