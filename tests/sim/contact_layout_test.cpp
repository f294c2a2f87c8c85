// The contact blocks the formulations emit (LcpProblem::layout, thesis eq.
// 6.1: per frictional contact its Normal, Friction and Slip rows) agree with
// the blocks derived independently from the rows' roles and contact_of
// (contact_layout() on a copy without the layout: the path of problems read
// from capture files). Checked on the problems of shipped scenes under the
// standard model (Stewart-Trinkle rows, formulation.cpp) and PEG (I- and
// X-constraints, slack rows, several Normal rows per contact: peg_rows.cpp).
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pegsim {
namespace {

void expect_layout_matches_roles(const LcpProblem& p, const std::string& where) {
  ASSERT_EQ(p.layout.rows, p.size()) << where << ": the formulation filled no layout";
  LcpProblem bare = p;
  bare.layout = ContactLayout{};
  ContactLayout derived;
  std::string why;
  const ContactLayout* d = contact_layout(bare, derived, why);
  ASSERT_NE(d, nullptr) << where << ": " << why;
  ASSERT_EQ(d->contacts.size(), p.layout.contacts.size()) << where;
  for (std::size_t k = 0; k < d->contacts.size(); ++k) {
    const ContactRows& e = p.layout.contacts[k];
    const ContactRows& r = d->contacts[k];
    EXPECT_EQ(e.normal, r.normal) << where << " contact " << k;
    EXPECT_EQ(e.slip, r.slip) << where << " contact " << k;
    ASSERT_EQ(e.friction_end - e.friction_begin, r.friction_end - r.friction_begin) << where << " contact " << k;
    for (int f = 0; f < e.friction_end - e.friction_begin; ++f)
      EXPECT_EQ(p.layout.friction[e.friction_begin + f], d->friction[r.friction_begin + f]) << where;
    // the roles the blocks claim
    EXPECT_EQ(p.role[e.normal], RowRole::Normal) << where;
    EXPECT_EQ(p.role[e.slip], RowRole::Slip) << where;
    for (int f = e.friction_begin; f < e.friction_end; ++f) EXPECT_EQ(p.role[p.layout.friction[f]], RowRole::Friction);
  }
  EXPECT_EQ(d->contact_at, p.layout.contact_at) << where;
  // every Friction and Slip row is in a block; PEG slacks never are
  for (int i = 0; i < p.size(); ++i) {
    if (p.role[i] == RowRole::Friction || p.role[i] == RowRole::Slip) {
      EXPECT_GE(p.layout.contact_at[i], 0) << where;
    }
    if (p.role[i] == RowRole::PegSlack) {
      EXPECT_EQ(p.layout.contact_at[i], -1) << where;
    }
  }
}

void check_scene(const std::string& name, const std::string& model, int steps) {
  Scene s = load_scene_file(test::scene_path(name));
  ASSERT_TRUE(parse_contact_model(model, s.model.options.model));
  World w(std::move(s.model), std::move(s.state));
  int problems = 0, contacts = 0;
  for (int step = 0; step < steps; ++step) {
    w.step();
    for (const StepProblem& sp : w.last_problems()) {
      expect_layout_matches_roles(sp.lcp, name + " (" + model + ") step " + std::to_string(step));
      ++problems;
      contacts += static_cast<int>(sp.lcp.layout.contacts.size());
    }
  }
  EXPECT_GT(problems, 0) << name;
  EXPECT_GT(contacts, 0) << name << ": no frictional contact was checked";
}

TEST(ContactLayout, StewartTrinkleRowsOfTheBoxStack) { check_scene("box-stack-3d", "standard", 20); }

TEST(ContactLayout, PegRowsOfThePyramid) { check_scene("pyramid-10", "peg", 30); }

TEST(ContactLayout, PegRowsInTwoDimensions) { check_scene("compound-bucket-2d", "peg", 200); }

TEST(ContactLayout, RolesWithoutTheFormOfEq61AreRefused) {
  LcpProblem p;
  p.A = MatX::Identity(3, 3);
  p.b = VecX::Zero(3);
  p.role = {RowRole::Normal, RowRole::Friction, RowRole::Slip};
  p.contact_of = {-1, 0, 1};  // the slip row names a friction row, not the Normal row
  ContactLayout scratch;
  std::string why;
  EXPECT_EQ(contact_layout(p, scratch, why), nullptr);
  EXPECT_NE(why.find("slip row 2"), std::string::npos) << why;
}

}  // namespace
}  // namespace pegsim
