// The joint registry: one table of kinds, their names and aliases.
#include "joints/joint.hpp"

#include <array>

namespace pegsim {
namespace {

struct KindEntry {
  JointKind kind;
  std::string_view name;
  std::array<std::string_view, 2> aliases;  // empty: none
  JointCoordinate coordinate;
  bool in_plane;
};

// thesis Table 2.1 (its 'rigid' is RPIsim's 'fixed'); dvc3D's hinge, slider and
// point-to-point (Bullet's names) as aliases
constexpr std::array<KindEntry, 6> kKinds{{
    {JointKind::Fixed, "fixed", {"rigid", ""}, JointCoordinate::None, true},
    {JointKind::Revolute, "revolute", {"hinge", ""}, JointCoordinate::Angle, true},
    {JointKind::Prismatic, "prismatic", {"slider", ""}, JointCoordinate::Slide, true},
    {JointKind::Cylindrical, "cylindrical", {"", ""}, JointCoordinate::Angle, true},
    {JointKind::Spherical, "spherical", {"ball", "point-to-point"}, JointCoordinate::None, true},
    {JointKind::Universal, "universal", {"hooke", ""}, JointCoordinate::None, false},
}};

const KindEntry& entry(JointKind kind) {
  for (const KindEntry& e : kKinds)
    if (e.kind == kind) return e;
  return kKinds[0];
}

}  // namespace

std::string_view to_string(JointKind kind) { return entry(kind).name; }

bool parse_joint_kind(std::string_view text, JointKind& kind) {
  for (const KindEntry& e : kKinds) {
    bool match = text == e.name;
    for (std::string_view a : e.aliases) match |= !a.empty() && text == a;
    if (match) {
      kind = e.kind;
      return true;
    }
  }
  return false;
}

std::vector<std::string> joint_kind_names() {
  std::vector<std::string> out;
  for (const KindEntry& e : kKinds) out.emplace_back(e.name);
  return out;
}

std::vector<std::string> joint_kind_names_and_aliases() {
  std::vector<std::string> out;
  for (const KindEntry& e : kKinds) {
    out.emplace_back(e.name);
    for (std::string_view a : e.aliases)
      if (!a.empty()) out.emplace_back(a);
  }
  return out;
}

JointCoordinate joint_coordinate(JointKind kind) { return entry(kind).coordinate; }
bool joint_kind_in_plane(JointKind kind) { return entry(kind).in_plane; }

}  // namespace pegsim
