// PEG and LNC: contacts grouped by body pair, each pair's configurations
// turned into constraints by the 2D or 3D reading (see peg.hpp).
#include "contact/peg.hpp"

#include <map>

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
    // PEG applies to each pair of parts independently)
    pairs_.clear();
    pair_of_.clear();
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      const auto [it, added] = pair_of_.try_emplace(part_pair_key(contacts[i]), static_cast<int>(pairs_.size()));
      if (added) pairs_.emplace_back();
      pairs_[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(i));
    }
    PegWriter writer(model, contacts, out, variant_);
    const bool planar = model.options.dimension == Dimension::Planar;
    for (const std::vector<int>& pair : pairs_) {
      if (planar) peg_2d_body_pair(model, state, contacts, pair, writer);
      else peg_3d_body_pair(model, state, contacts, pair, writer);
    }
  }

 private:
  PegVariant variant_;
  std::vector<std::vector<int>> pairs_;
  std::map<PartPairKey, int> pair_of_;
};

}  // namespace

std::unique_ptr<ContactModel> make_peg_model(PegVariant variant) { return std::make_unique<PegModel>(variant); }

}  // namespace pegsim
