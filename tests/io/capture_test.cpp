// Captured problems: round trip through HDF5 (bit for bit), solving a loaded
// problem, the fclib local problem against the LCP it came from, h5py reading
// the fclib layout, and the random problem generator.
#include "common/test_paths.hpp"

#include "dynamics/random_problem.hpp"
#include "io/capture_reader.hpp"
#include "io/capture_world.hpp"
#include "io/recording.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

namespace pegsim::test {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / ("pegsim_capture_" + name)).string();
}

bool same_bits(const MatX& a, const MatX& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}
bool same_bits(const VecX& a, const VecX& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

void expect_identical(const LcpProblem& a, const LcpProblem& b) {
  EXPECT_TRUE(same_bits(a.A, b.A));
  EXPECT_TRUE(same_bits(a.b, b.b));
  EXPECT_EQ(a.bound, b.bound);
  EXPECT_EQ(a.role, b.role);
  EXPECT_EQ(a.contact_of, b.contact_of);
  ASSERT_EQ(a.structure.rows.size(), b.structure.rows.size());
  for (std::size_t i = 0; i < a.structure.rows.size(); ++i) {
    EXPECT_EQ(a.structure.rows[i].body_a, b.structure.rows[i].body_a);
    EXPECT_EQ(a.structure.rows[i].body_b, b.structure.rows[i].body_b);
    EXPECT_TRUE(a.structure.rows[i].ja == b.structure.rows[i].ja && a.structure.rows[i].jb == b.structure.rows[i].jb);
  }
  ASSERT_EQ(a.structure.inverse_mass.size(), b.structure.inverse_mass.size());
  for (std::size_t k = 0; k < a.structure.inverse_mass.size(); ++k)
    EXPECT_TRUE(a.structure.inverse_mass[k] == b.structure.inverse_mass[k]);
  ASSERT_EQ(a.structure.coupling.size(), b.structure.coupling.size());
  for (std::size_t k = 0; k < a.structure.coupling.size(); ++k) {
    EXPECT_EQ(a.structure.coupling[k].row, b.structure.coupling[k].row);
    EXPECT_EQ(a.structure.coupling[k].col, b.structure.coupling[k].col);
    EXPECT_EQ(a.structure.coupling[k].value, b.structure.coupling[k].value);
  }
  ASSERT_EQ(a.structure.measures.size(), b.structure.measures.size());
  for (std::size_t i = 0; i < a.structure.measures.size(); ++i) {
    const JacobianRow& x = a.structure.measures[i];
    const JacobianRow& y = b.structure.measures[i];
    EXPECT_TRUE(x.body_a == y.body_a && x.body_b == y.body_b && x.ja == y.ja && x.jb == y.jb) << "measure " << i;
  }
}

// The box-stack-3d scene stepped past the impact, capturing every 20th step:
// the problems and the file.
struct StackCapture {
  std::vector<LcpProblem> problems;
  std::string file;
};
StackCapture capture_stack(const std::string& name, const std::string& scene_name = "box-stack-3d") {
  Scene scene = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/" + scene_name + ".yaml");
  World world(std::move(scene.model), std::move(scene.state));
  StackCapture out{{}, temp_path(name)};
  CaptureWriter writer(out.file, scene_name);
  for (int i = 0; i < 240; ++i) {
    world.step();
    if (capture_last_step(writer, world, 20)) {
      out.problems.push_back(world.last_problem().lcp);
      // a step Lemke solved on the structure has no A; the capture writes the
      // assembled one (the formulation's bits, structure_only_test.cpp)
      if (!out.problems.back().has_matrix()) assemble_matrix(out.problems.back());
    }
  }
  writer.close();
  return out;
}

TEST(Capture, SimulationProblemsRoundTripBitForBit) {
  const StackCapture s = capture_stack("roundtrip.h5");
  const std::vector<CapturedProblem> loaded = read_captured_problems(s.file);
  ASSERT_EQ(loaded.size(), s.problems.size());
  ASSERT_GE(loaded.size(), 5u);
  for (std::size_t k = 0; k < loaded.size(); ++k) {
    SCOPED_TRACE(loaded[k].group);
    expect_identical(s.problems[k], loaded[k].lcp);
    EXPECT_EQ(loaded[k].info.spacedim, 3);
    EXPECT_EQ(loaded[k].info.model, "standard");
    EXPECT_EQ(loaded[k].info.step % 20, 0);
  }
  std::filesystem::remove(s.file);
}

// PEG's problems: the pyramid's I- and X-constraints measure other
// sub-contacts than their rows push on (LcpStructure::measures, R != G).
TEST(Capture, PegProblemsAndWhatTheirRowsMeasureRoundTripBitForBit) {
  const StackCapture s = capture_stack("peg-roundtrip.h5", "pyramid-10");
  const std::vector<CapturedProblem> loaded = read_captured_problems(s.file);
  ASSERT_EQ(loaded.size(), s.problems.size());
  ASSERT_GE(loaded.size(), 5u);
  for (std::size_t k = 0; k < loaded.size(); ++k) {
    SCOPED_TRACE(loaded[k].group);
    EXPECT_FALSE(s.problems[k].structure.measures.empty());
    expect_identical(s.problems[k], loaded[k].lcp);
    EXPECT_EQ(loaded[k].info.model, "peg");
  }
  std::filesystem::remove(s.file);
}

TEST(Capture, DenseStorageFreeRowsAndNegativeZeroRoundTrip) {
  LcpProblem p;
  p.A = MatX::Random(5, 5);  // Eigen's generator: any values do
  p.A(1, 2) = -0.0;          // kept as stored, not dropped as a zero
  p.A(3, 3) = 0.0;
  p.b = VecX::Random(5);
  p.bound = {RowBound::Free, RowBound::NonNegative, RowBound::NonNegative, RowBound::Free, RowBound::NonNegative};
  LcpProblem q;  // sparse (CSR), no roles or structure
  q.A = MatX::Identity(6, 6);
  q.A(0, 5) = -0.0;
  q.b = VecX::Constant(6, -1.0);
  const std::string file = temp_path("dense.h5");
  {
    CaptureWriter w(file, "hand-made");
    w.add(p, CaptureInfo{});
    w.add(q, CaptureInfo{});
    w.close();
  }
  const auto loaded = read_captured_problems(file);
  ASSERT_EQ(loaded.size(), 2u);
  expect_identical(p, loaded[0].lcp);
  expect_identical(q, loaded[1].lcp);
  EXPECT_TRUE(std::signbit(loaded[0].lcp.A(1, 2)));
  EXPECT_TRUE(std::signbit(loaded[1].lcp.A(0, 5)));
  std::filesystem::remove(file);
}

TEST(Capture, LoadedProblemsSolveWithLemke) {
  const StackCapture s = capture_stack("solve.h5");
  const auto loaded = read_captured_problems(s.file);
  auto lemke = make_solver("lemke", SolverOptions{});
  int solved = 0;
  for (const CapturedProblem& p : loaded) {
    VecX z = VecX::Zero(p.lcp.size());
    lemke->solve(p.lcp, z);
    SolverResult measured;  // measured here, not trusted from the solver
    measure_residuals(p.lcp, z, measured);
    // the simulation's own acceptance: 1e-9 (1 + |b|_inf), SimOptions::solver_tolerance
    const double limit = 1e-9 * (1.0 + p.lcp.b.cwiseAbs().maxCoeff());
    if (measured.complementarity <= limit && measured.feasibility <= limit) ++solved;
    else ADD_FAILURE() << p.label() << ": residual " << measured.complementarity << " / " << measured.feasibility;
  }
  EXPECT_EQ(solved, static_cast<int>(loaded.size()));
  std::filesystem::remove(s.file);
}

// fclib's W = H M^-1 H' holds the LCP's G'M^-1G entries of the normal and first
// friction rows (H's n and t1 rows are G's rows), q holds b: agreement between
// two independent assemblies (solver_detail::add_delassus and fclib_local.cpp).
TEST(Capture, FclibLocalProblemAgreesWithTheLcp) {
  const StackCapture s = capture_stack("fclib.h5");
  const auto loaded = read_captured_problems(s.file);
  int checked = 0;
  for (const CapturedProblem& p : loaded) {
    SCOPED_TRACE(p.group);
    const FclibLocal f = read_fclib_local(s.file, p.group + "/fclib_local");
    const LcpProblem& lcp = p.lcp;
    FclibLocal built;
    std::string why;
    ASSERT_TRUE(make_fclib_local(lcp, 3, built, why)) << why;
    ASSERT_EQ(f.spacedim, 3);
    ASSERT_EQ(f.contacts, built.contacts);
    ASSERT_EQ(f.W.m, 3 * f.contacts);
    const MatX W = f.W.dense();
    EXPECT_TRUE(W == W.transpose());
    // positive semi-definite (a Gram matrix): eigenvalues >= -1e-12 |W| (round-off)
    const double smallest = Eigen::SelfAdjointEigenSolver<MatX>(W).eigenvalues().minCoeff();
    EXPECT_GE(smallest, -1e-12 * W.cwiseAbs().maxCoeff());
    // rows n and t1 of contact c are the LCP's normal row and first friction row
    std::vector<int> lcp_row;
    for (int c : built.normal_row) {
      int first_friction = -1;
      for (int r = 0; r < lcp.size() && first_friction < 0; ++r)
        if (lcp.role[r] == RowRole::Friction && lcp.contact_of[r] == c) first_friction = r;
      lcp_row.push_back(c);
      lcp_row.push_back(first_friction);
    }
    for (int c = 0; c < f.contacts; ++c) {
      EXPECT_DOUBLE_EQ(f.mu[c], 0.5);  // box-stack-3d: wood on wood
      for (int a = 0; a < 2; ++a) {
        EXPECT_EQ(f.q[3 * c + a], lcp.b(lcp_row[2 * c + a]));
        for (int d = 0; d < f.contacts; ++d)
          for (int e = 0; e < 2; ++e)  // two summation orders: 1e-12 of the largest entry
            EXPECT_NEAR(W(3 * c + a, 3 * d + e), lcp.A(lcp_row[2 * c + a], lcp_row[2 * d + e]),
                        1e-12 * W.cwiseAbs().maxCoeff());
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 5);
  std::filesystem::remove(s.file);
}

// The fclib layout as a third party reads it: h5py, the datasets fclib's
// reader opens (spacedim, W/{nzmax,m,n,nz,p,i,x}, vectors/{q,mu}), and W from
// its compressed columns applied by numpy.
TEST(Capture, FclibLayoutIsReadableWithH5py) {
  if (std::system("/usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null") != 0) GTEST_SKIP() << "no h5py";
  const StackCapture s = capture_stack("h5py.h5");
  const std::string script = temp_path("check.py");
  std::FILE* py = std::fopen(script.c_str(), "w");
  std::fputs(
      "import sys, h5py, numpy as np\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "n = 0\n"
      "for name, g in f['problems'].items():\n"
      "    L = g['fclib_local']\n"
      "    d = int(L['spacedim'][0]); W = L['W']\n"
      "    m, nn, nz, nzmax = (int(W[k][0]) for k in ('m', 'n', 'nz', 'nzmax'))\n"
      "    assert d == 3 and m == nn and nz == -1 and m % d == 0, name\n"
      "    p, i, x = W['p'][:], W['i'][:], W['x'][:]\n"
      "    assert p.shape == (nn + 1,) and i.shape == (nzmax,) and x.shape == (nzmax,) and p[-1] == nzmax\n"
      "    dense = np.zeros((m, nn))\n"
      "    for c in range(nn): dense[i[p[c]:p[c+1]], c] = x[p[c]:p[c+1]]\n"
      "    assert np.array_equal(dense, dense.T)\n"
      "    assert L['vectors/q'].shape == (m,) and L['vectors/mu'].shape == (m // d,)\n"
      "    assert L.attrs['numberOfContacts'] == m // d\n"
      "    n += 1\n"
      "assert n == f.attrs['fclib_count'] and n > 0\n"
      "print('ok', n)\n",
      py);
  std::fclose(py);
  const int status = std::system(("/usr/bin/python3 " + script + " " + s.file).c_str());
  EXPECT_EQ(status, 0);
  std::filesystem::remove(script);
  std::filesystem::remove(s.file);
}

// Planar: spacedim 2, rows (n, t) with t = d_1; a box sliding on frictional ground
TEST(Capture, PlanarFrictionalProblemsGetATwoDimensionalFclibProblem) {
  Scene scene = load_scene_string(
      "options: {name: planar-slide, dimension: 2, h: 0.01, model: standard, solver: lemke, gravity: [0, -9.81]}\n"
      "materials: [{name: m}]\n"
      "friction: [{materials: [m, m], mu: 0.4}]\n"
      "bodies:\n"
      "  - {name: ground, shape: {half_space: {normal: [0, 1], offset: 0}}, static: true, material: m}\n"
      "  - {name: box, shape: {rectangle: [1, 1]}, mass: 1, position: [0, 0.5], velocity: [1, 0], material: m}\n",
      "planar-slide.yaml");
  World world(std::move(scene.model), std::move(scene.state));
  const std::string file = temp_path("planar.h5");
  CaptureWriter writer(file, "planar-slide");
  for (int i = 0; i < 5; ++i) {
    world.step();
    capture_last_step(writer, world, 1);
  }
  writer.close();
  ASSERT_EQ(writer.fclib_count(), 5);
  for (const CapturedProblem& p : read_captured_problems(file)) {
    const FclibLocal f = read_fclib_local(file, p.group + "/fclib_local");
    EXPECT_EQ(f.spacedim, 2);
    EXPECT_EQ(f.contacts, 2);  // the box's two bottom corners
    ASSERT_EQ(f.W.m, 4);
    const MatX W = f.W.dense();
    for (int c = 0; c < 2; ++c) {
      EXPECT_DOUBLE_EQ(f.mu[c], 0.4);
      // W_nn: 1/m plus the rotational term of the corner, exactly as A's normal block
      EXPECT_NEAR(W(2 * c, 2 * c), p.lcp.A(c, c), 1e-12);
      EXPECT_EQ(f.q[2 * c], p.lcp.b(c));
    }
  }
  std::filesystem::remove(file);
}

TEST(Capture, ReadingANonCaptureFileNamesIt) {
  const std::string file = temp_path("not_capture.h5");
  {
    h5::Writer w(file);
    h5::Handle f = w.create_file();
  }
  try {
    read_captured_problems(file);
    FAIL() << "no error";
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pegsim capture"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
}

// ---- random problems (dynamics/random_problem.hpp) ----

TEST(RandomProblems, SizesStructureAndPositiveSemiDefiniteDelassus) {
  RandomProblemOptions o;
  o.contacts = 9;
  o.friction_directions = 5;
  ProblemRng rng(7);
  for (int k = 0; k < 5; ++k) {
    const LcpProblem p = random_contact_problem(o, rng);
    const int nf = o.contacts * o.friction_directions, n = o.contacts + nf + o.contacts;
    ASSERT_EQ(p.size(), n);
    ASSERT_EQ(p.structure.rows.size(), static_cast<std::size_t>(n));
    // G'M^-1G over the normal and friction rows: symmetric PSD (round-off: 1e-12 |A|)
    const MatX D = p.A.topLeftCorner(o.contacts + nf, o.contacts + nf);
    EXPECT_TRUE(D == D.transpose());
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<MatX>(D).eigenvalues().minCoeff(), -1e-12 * D.cwiseAbs().maxCoeff());
    // the coupling block of eq. 6.1: E, -E', U with mu in [mu_min, mu_max]
    for (int c = 0; c < o.contacts; ++c) {
      const int slip = o.contacts + nf + c;
      EXPECT_GE(p.A(slip, c), o.mu_min);
      EXPECT_LE(p.A(slip, c), o.mu_max);
      for (int d = 0; d < o.friction_directions; ++d) {
        const int f = o.contacts + c * o.friction_directions + d;
        EXPECT_EQ(p.A(f, slip), 1.0);
        EXPECT_EQ(p.A(slip, f), -1.0);
        EXPECT_EQ(p.contact_of[f], c);
      }
    }
    // the frictional structure fclib needs is there
    FclibLocal f;
    std::string why;
    EXPECT_TRUE(make_fclib_local(p, 3, f, why)) << why;
    // Lemke solves it (copositive-plus), measured independently
    VecX z = VecX::Zero(n);
    make_solver("lemke", SolverOptions{})->solve(p, z);
    SolverResult r;
    measure_residuals(p, z, r);
    EXPECT_LE(std::max(r.complementarity, r.feasibility), 1e-9 * (1.0 + p.b.cwiseAbs().maxCoeff()));
  }
}

TEST(RandomProblems, SameSeedSameBitsOtherSeedOtherProblem) {
  RandomProblemOptions o;
  ProblemRng a(42), b(42), c(43);
  const LcpProblem pa = random_contact_problem(o, a), pb = random_contact_problem(o, b),
                   pc = random_contact_problem(o, c);
  EXPECT_TRUE(same_bits(pa.A, pb.A));
  EXPECT_TRUE(same_bits(pa.b, pb.b));
  EXPECT_FALSE(same_bits(pa.b, pc.b));
}

}  // namespace
}  // namespace pegsim::test
