// PEG and LNC: contacts grouped by body pair, each pair's configurations
// turned into constraints by the 2D or 3D reading (see peg.hpp).
#include "contact/peg.hpp"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace pegsim {
namespace {

class PegModel final : public ContactModel {
 public:
  explicit PegModel(PegVariant variant) : variant_(variant) {}
  std::string_view name() const override { return variant_ == PegVariant::Peg ? "peg" : "lnc"; }

  void build(const Model& model, const State& state, const std::vector<Contact>& contacts,
             ConstraintSet& out) override {
    out.clear();
    // contacts of one body pair, in order of first appearance (they arrive
    // grouped); for compound bodies, of one pair of convex parts (thesis 4.5:
    // PEG applies to each pair of parts independently). Sorted by (pair,
    // contact), each pair's contacts are a run in contact order; the runs are
    // then taken in order of their first contact. Storage kept: a steady step
    // allocates nothing here (issue 11 item 5).
    const int n = static_cast<int>(contacts.size());
    keyed_.resize(contacts.size());
    for (int i = 0; i < n; ++i) keyed_[static_cast<std::size_t>(i)] = {part_pair_key(contacts[static_cast<std::size_t>(i)]), i};
    std::sort(keyed_.begin(), keyed_.end());
    runs_.clear();  // (first contact, start in keyed_, end)
    for (int k = 0; k < n;) {
      int end = k + 1;
      while (end < n && keyed_[static_cast<std::size_t>(end)].first == keyed_[static_cast<std::size_t>(k)].first) ++end;
      runs_.push_back({keyed_[static_cast<std::size_t>(k)].second, k, end});
      k = end;
    }
    std::sort(runs_.begin(), runs_.end());
    PegWriter writer(model, contacts, out, variant_, writer_storage_);
    const bool planar = model.options.dimension == Dimension::Planar;
    for (const auto& [first, start, end] : runs_) {
      pair_.clear();
      for (int k = start; k < end; ++k) pair_.push_back(keyed_[static_cast<std::size_t>(k)].second);
      if (planar) peg_2d_body_pair(model, state, contacts, pair_, writer);
      else peg_3d_body_pair(model, state, contacts, pair_, writer);
    }
  }

 private:
  PegVariant variant_;
  std::vector<std::pair<PartPairKey, int>> keyed_;  // (part pair, contact)
  std::vector<std::tuple<int, int, int>> runs_;
  std::vector<int> pair_;  // one pair's contacts, in order
  PegWriter::Storage writer_storage_;
};

}  // namespace

std::unique_ptr<ContactModel> make_peg_model(PegVariant variant) { return std::make_unique<PegModel>(variant); }

}  // namespace pegsim
