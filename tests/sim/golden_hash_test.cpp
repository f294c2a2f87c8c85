// Golden hashes: shipped scenes' recordings must reproduce bit for bit, not
// only between two runs of one binary (determinism_test.cpp) but across builds:
// CI runs this test in the Release build (-O3) and in the sanitizer build
// (-O1, scripts/sanitize.sh), so a result that depends on the optimisation
// level, on an uninitialised read or on an address-dependent order fails here.
//
// The hash covers what a user reads back from a recording (read_recording):
// every recorded step's time, body states, contacts (points, normals, gaps,
// features), impulses, joint coordinates and solver statistics, as the bit
// patterns of the values (FNV-1a, 64 bit). It does not hash the HDF5 file's
// bytes, which would change with the HDF5 library's layout.
//
// A deliberate change of the physics changes these hashes: run the test, check
// that the change is the intended one (the physics tests still pass), and paste
// the new values it prints. The values hold for Debian 12's GCC, glibc libm
// and Eigen 3.4 on x86-64 (libm's sin/cos/exp results are part of the answer).
#include "io/recording.hpp"
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>

namespace pegsim {
namespace {

class Fnv1a {
 public:
  void bytes(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ c[i]) * 1099511628211ull;
  }
  void value(double x) { word(std::bit_cast<std::uint64_t>(x)); }
  void value(long x) { word(static_cast<std::uint64_t>(x)); }
  void value(int x) { word(static_cast<std::uint64_t>(static_cast<std::int64_t>(x))); }
  void value(const Vec3& v) { for (int i = 0; i < 3; ++i) value(v(i)); }
  void value(const Quat& q) { value(q.w()); value(q.x()); value(q.y()); value(q.z()); }
  void value(const Vec6& v) { for (int i = 0; i < 6; ++i) value(v(i)); }
  template <class T>
  void values(const std::vector<T>& v) {
    value(static_cast<long>(v.size()));
    for (const T& x : v) value(x);
  }
  std::uint64_t digest() const { return h_; }

 private:
  void word(std::uint64_t w) { bytes(&w, sizeof w); }
  std::uint64_t h_ = 14695981039346656037ull;
};

std::uint64_t recording_hash(const Recording& r) {
  Fnv1a f;
  f.value(static_cast<long>(r.steps.size()));
  for (const RecordedStep& s : r.steps) {
    f.value(s.step);
    f.value(s.time);
    f.values(s.position);
    f.values(s.orientation);
    f.values(s.linear_velocity);
    f.values(s.angular_velocity);
    f.values(s.theta);
    f.value(static_cast<long>(s.contacts.size()));
    for (const Contact& c : s.contacts) {
      f.value(static_cast<long>(c.body_a));
      f.value(static_cast<long>(c.body_b));
      f.value(static_cast<int>(c.kind));
      f.value(c.point_a);
      f.value(c.point_b);
      f.value(c.normal);
      f.value(c.gap);
    }
    f.values(s.normal_impulse);
    f.values(s.friction_impulse);
    f.values(s.joint_positions);
    f.values(s.joint_velocities);
    f.values(s.joint_wrenches);
    f.values(s.impulse_events);
    f.value(s.contacts_found);
    f.value(s.solver_iterations);
    f.value(s.solver_calls);
    f.value(s.solver_failures);
    f.value(s.problem_size);
    f.value(s.complementarity);
    f.value(s.max_penetration);
  }
  return f.digest();
}

struct Golden {
  const char* scene;
  const char* solver;  // "": the scene's own
  long steps;
  std::uint64_t hash;
};

// One scene per stepper and contact model the shipped scenes exercise.
// Last changed on purpose: the joint rows' dense fill (joints/joint_problem.cpp)
// sums a pair of joint rows as assemble_matrix does (the lower row against
// M^-1 of the higher), which moved four-bar by rounding (`pegsim run
// scenes/four-bar.yaml --steps 300`: the same summary but the certificate's
// residual, 4.5e-17 -> 6.0e-17); PEG's measures kept in the structure (R - G,
// LcpStructure::measures) moved none of them. Before: the energy bound on every island's impulses
// (sim/impulse_energy.hpp) moved box-stack-2d alone, the standard model's
// failing stack, whose trapped corners ask for contradictory separations:
// over its whole run failed solves 1209 -> 516 of about 2000 (44 of them
// islands the bound scaled, most certified solves that launched boxes),
// largest energy rise 1020 -> 30 J, penetration 4.1 -> 5.1 mm. Before: Lemke's second pivot rules after a failed path
// (lemke.hpp step 4, PivotRules::dependent_rows) moved box-stack-2d alone,
// the standard model's failing stack, whose solves fail from its traps: over
// its whole run (`pegsim run scenes/box-stack-2d.yaml`) failed solves
// 1327 -> 1209 of about 1990, penetration 4.8 -> 4.1 mm; its failed solves'
// uncertified impulses, applied, raise the energy by up to 112 J before and
// 1020 J after (the hazard of keeping them, issue 17). PEG's P8
// (contact/peg_3d.cpp) moved none of them. Before: Lemke's warm start on the
// structure (lemke.hpp, solve_on_structure: w = A z + b summed through G, M^-1 and C) moved
// box-stack-2d, triangle-drop, compare-hulls, curved-rest and compare-tilted
// by rounding; their `pegsim run --steps 300` summaries are unchanged except
// box-stack-2d's, the standard model's documented failing stack (its traps
// fail about 200 of 263 solves either way, and the failures take the rounding
// on different paths from step 86). Before: the no-slip LCP's N P_X N' in Gram form
// (dynamics/normal_lcp.cpp) moved noslip-grasp by rounding (summary
// unchanged: no failure, no penetration, energy and momentum as before).
// Before: friction_basis's axis no longer follows a normal's rounding noise
// (formulation.cpp, kAxisTie) and moved noslip-grasp and box-stack-3d under
// PGS (summaries unchanged); PEG's tie rule for an X-constraint's force
// (peg_rows.cpp) moved none of them.
constexpr Golden kGolden[] = {
    {"box-stack-3d", "", 300, 0xc9759a73653924efull},        // standard model, Stewart-Trinkle, Lemke (the default scene)
    {"box-stack-2d", "", 300, 0xebde5f61f72799bbull},        // 2D, standard model
    {"triangle-drop", "", 300, 0x682e764217836784ull},       // 2D PEG
    {"compare-hulls", "", 300, 0x3d88d1c0734ea365ull},       // 3D PEG, convex hulls
    {"curved-rest", "", 300, 0xde49a7e5bb4eee21ull},         // curved shapes
    {"four-bar", "", 300, 0x6ea35acf911193ecull},            // joints in maximal coordinates, PATH
    {"powerball-arm-tree", "", 300, 0xff539d547b038238ull},  // an articulated tree in joint space
    {"billiards-break", "", 300, 0xb86fcbd44b521ebull},     // Mirtich-Canny impulse stepper
    {"noslip-grasp", "", 300, 0xd47b916562ae272eull},        // Drumwright-Shell no-slip stepper
    {"compare-tilted", "", 300, 0xc363a783bc48cd65ull},  // 3D PEG, round shapes, up to four islands a step
    {"box-stack-3d", "pgs", 300, 0xf63f3493c587ab4eull},  // a solver that works on the factored structure, not A
};

TEST(GoldenHash, ShippedScenesReproduceBitForBit) {
  const auto path = std::filesystem::temp_directory_path() / "pegsim_golden.h5";
  std::vector<std::uint64_t> hashes;
  for (const Golden& g : kGolden) {
    Scene scene = load_scene_file(test::scene_path(g.scene));
    if (*g.solver != '\0') scene.model.options.solver = g.solver;
    World world = test::measuring_world(std::move(scene.model), std::move(scene.state));
    {
      Recorder recorder(path.string(), world.model(), world.state());
      world.add_observer(&recorder);
      for (long i = 0; i < g.steps; ++i) world.step();
      recorder.close();
    }
    hashes.push_back(recording_hash(read_recording(path.string())));
    EXPECT_EQ(hashes.back(), g.hash) << g.scene << " " << g.solver << ": a changed recording (hash 0x" << std::hex << hashes.back() << ")";
  }
  std::filesystem::remove(path);
  if (::testing::Test::HasFailure()) {
    std::printf("GoldenHash: a changed hash is a changed answer; if the change is intended, paste:\n");
    for (std::size_t i = 0; i < hashes.size(); ++i)
      std::printf("    {\"%s\", \"%s\", %ld, 0x%llxull},\n", kGolden[i].scene, kGolden[i].solver, kGolden[i].steps,
                  static_cast<unsigned long long>(hashes[i]));
  }
}

}  // namespace
}  // namespace pegsim
