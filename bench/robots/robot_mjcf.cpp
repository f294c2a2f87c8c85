// Trees as MJCF (robot_mjcf.hpp).
#include "robot_mjcf.hpp"

#include "../peers/mjcf_text.hpp"

#include "geometry/curved.hpp"
#include "geometry/polyhedron.hpp"
#include "geometry/shape.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace pegsim::bench {
namespace {

std::string num(double v) { return mjcf_number(v); }
// "b<k>", "t<t>_<i>", "<id>_<part>" (by snprintf: GCC 12 warns falsely, -Wrestrict, on "literal" + std::to_string)
std::string label(const char* format, std::size_t a, std::size_t b = 0) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}
std::string vec(const Vec3& v) { return mjcf_vector(v); }
std::string placed(const Vec3& p, const Quat& q) { return "pos=\"" + vec(p) + "\" quat=\"" + mjcf_quaternion(q) + "\""; }

class Writer {
 public:
  Writer(const Model& model, const State& state) : model_(model), state_(state) {
    if (model.options.dimension != Dimension::Spatial) throw std::invalid_argument("robot_mjcf: a 3D scene only");
    mu_ = model.friction.empty() ? 0.0 : model.friction[0];
  }

  std::string text() {
    std::vector<char> in_tree(model_.bodies.size(), 0);
    for (const TreeModel& t : model_.trees)
      for (std::uint32_t b : t.link_body) in_tree[b] = 1;
    joint_tree();
    std::ostringstream world;
    for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
      if (in_tree[b]) continue;
      if (parent_joint_[b] >= 0) {  // nested in its parent's body, or at the top under the world
        const JointModel& j = model_.joints[static_cast<std::size_t>(parent_joint_[b])];
        if (j.body_a == kWorldBody) jointed(b, Pose{}, world, "    ");
        continue;
      }
      const BodyModel& body = model_.bodies[b];
      const BodyState& s = state_.bodies[b];
      const std::string id = label("b%zu", b);
      if (body.is_static) {
        if (const auto* hs = std::get_if<HalfSpace>(&body.shape)) {
          const Vec3 n = s.pose.orientation * hs->normal;
          world << "    <geom name=\"" << id << "\" type=\"plane\" size=\"0 0 1\" "
                << placed(s.pose.position + hs->offset * n, Quat::FromTwoVectors(Vec3::UnitZ(), n)) << " "
                << other() << "/>\n";
        } else {
          world << "    <body name=\"" << id << "\" " << placed(s.pose.position, s.pose.orientation) << ">\n"
                << geoms(body.shape, Vec3::Zero(), id, false, "      ") << "    </body>\n";
        }
        continue;
      }
      world << "    <body name=\"" << id << "\" " << placed(s.pose.position, s.pose.orientation) << "><freejoint name=\""
            << id << "\"/>\n      " << inertial(Vec3::Zero(), body.mass, body.inertia) << "\n"
            << geoms(body.shape, Vec3::Zero(), id, false, "      ");
      children(b, s.pose, world, "      ");
      world << "    </body>\n";
    }
    for (std::size_t t = 0; t < model_.trees.size(); ++t) tree(t, world);
    std::ostringstream x;
    x << "<mujoco model=\"robots\">\n"
      << "  <compiler angle=\"radian\"/>\n"  // joint ranges in rad (MJCF's default unit is the degree)
      << "  <option timestep=\"" << num(model_.options.h) << "\" gravity=\"" << vec(model_.options.gravity) << "\"/>\n"
      << "  <size nconmax=\"500\" njmax=\"2000\"/>\n";
    if (!assets_.str().empty()) x << "  <asset>\n" << assets_.str() << "  </asset>\n";
    x << "  <worldbody>\n" << world.str() << "  </worldbody>\n</mujoco>\n";
    return x.str();
  }

 private:
  std::string friction() const { return "friction=\"" + num(mu_) + " 0.005 0.0001\""; }
  std::string other() const { return "contype=\"1\" conaffinity=\"3\" " + friction(); }
  std::string link_geom() const { return "contype=\"2\" conaffinity=\"1\" " + friction(); }

  static std::string inertial(const Vec3& com, double mass, const Mat3& I) {
    return "<inertial pos=\"" + vec(com) + "\" mass=\"" + num(mass) + "\" fullinertia=\"" + num(I(0, 0)) + " " +
           num(I(1, 1)) + " " + num(I(2, 2)) + " " + num(I(0, 1)) + " " + num(I(0, 2)) + " " + num(I(1, 2)) + "\"/>";
  }

  // The half extents of a polyhedron that is an axis-aligned box centred on the origin (a
  // scene's box: shape), none for any other.
  static std::optional<Vec3> box_half_extents(const Polyhedron& p) {
    if (p.vertices.size() != 8 || p.faces.size() != 6) return std::nullopt;
    const Vec3 half = p.vertices[0].cwiseAbs();
    for (const Vec3& v : p.vertices)
      if ((v.cwiseAbs() - half).cwiseAbs().maxCoeff() > 1e-12 * half.maxCoeff()) return std::nullopt;
    if (!(half.minCoeff() > 0.0)) return std::nullopt;
    return half;
  }

  // the shape's geoms; `offset`: the body frame's origin in the geom parent's frame (a link's centre of mass)
  std::string geoms(const Shape& shape, const Vec3& offset, const std::string& id, bool link, const std::string& indent) {
    const std::string flags = link ? link_geom() : other();
    std::ostringstream g;
    for (int part = 0; part < part_count(shape); ++part) {
      const Shape& s = part_of(shape, part);
      const std::string name = id + label("_%zu", static_cast<std::size_t>(part));
      if (const auto* p = std::get_if<Polyhedron>(&s); p && box_half_extents(*p)) {
        // a box centred on its frame's origin: MuJoCo's own box (its box-box test gives up to
        // 8 contacts, its mesh pairs one)
        g << indent << "<geom name=\"" << name << "\" type=\"box\" size=\"" << vec(*box_half_extents(*p)) << "\" pos=\""
          << vec(offset) << "\" " << flags << "/>\n";
      } else if (p) {
        assets_ << "    <mesh name=\"" << name << "\" vertex=\"";
        for (std::size_t v = 0; v < p->vertices.size(); ++v) assets_ << (v ? " " : "") << vec(p->vertices[v] + offset);
        assets_ << "\"/>\n";
        g << indent << "<geom name=\"" << name << "\" type=\"mesh\" mesh=\"" << name << "\" " << flags << "/>\n";
      } else if (const auto* sp = std::get_if<Sphere>(&s)) {
        g << indent << "<geom name=\"" << name << "\" type=\"sphere\" size=\"" << num(sp->radius) << "\" pos=\""
          << vec(sp->centre + offset) << "\" " << flags << "/>\n";
      } else if (const auto* c = std::get_if<Cylinder>(&s)) {
        g << indent << "<geom name=\"" << name << "\" type=\"cylinder\" size=\"" << num(c->radius) << " "
          << num(0.5 * c->height) << "\" pos=\"" << vec(c->centre + offset) << "\" " << flags << "/>\n";
      } else {
        throw std::invalid_argument("robot_mjcf: body '" + id + "': a shape kind it does not write");
      }
    }
    return g.str();
  }

  // Maximal-coordinate joints (Model::joints) written as nested bodies: each
  // revolute or prismatic joint makes its body B a child of its body A (the
  // world: a top-level body) with a hinge or slide at B's joint frame, so the
  // joints must form a tree (each body B of at most one joint, A the world or
  // a dynamic body). qpos = 0 is the scene's initial pose, where pegsim's
  // joint coordinate is 0 as well. Other kinds, loops and static ends throw.
  void joint_tree() {
    parent_joint_.assign(model_.bodies.size(), -1);
    for (std::size_t k = 0; k < model_.joints.size(); ++k) {
      const JointModel& j = model_.joints[k];
      if (j.kind != JointKind::Revolute && j.kind != JointKind::Prismatic)
        throw std::invalid_argument("robot_mjcf: joint '" + j.name + "': only revolute and prismatic joints are written");
      if (j.body_b == kWorldBody || model_.bodies[j.body_b].is_static ||
          (j.body_a != kWorldBody && model_.bodies[j.body_a].is_static))
        throw std::invalid_argument("robot_mjcf: joint '" + j.name + "': its body B must be dynamic, A the world or dynamic");
      if (parent_joint_[j.body_b] >= 0)
        throw std::invalid_argument("robot_mjcf: joint '" + j.name + "': body B has two joints (the joints must form a tree)");
      parent_joint_[j.body_b] = static_cast<int>(k);
    }
    for (std::size_t b = 0; b < model_.bodies.size(); ++b)  // every chain ends at the world or a free body
      for (std::size_t at = b, hops = 0; parent_joint_[at] >= 0; ++hops) {
        const std::uint32_t up = model_.joints[static_cast<std::size_t>(parent_joint_[at])].body_a;
        if (up == kWorldBody) break;
        if (hops > model_.bodies.size())
          throw std::invalid_argument("robot_mjcf: the joints form a loop (the joints must form a tree)");
        at = up;
      }
  }

  // Body b under joint parent_joint_[b], placed relative to its parent's pose `parent`.
  void jointed(std::size_t b, const Pose& parent, std::ostringstream& out, const std::string& indent) {
    const JointModel& j = model_.joints[static_cast<std::size_t>(parent_joint_[b])];
    const BodyModel& body = model_.bodies[b];
    const Pose& pose = state_.bodies[b].pose;
    const std::string id = label("b%zu", b), in = indent + "  ";
    const Quat relative = parent.orientation.conjugate() * pose.orientation;
    out << indent << "<body name=\"" << id << "\" " << placed(parent.to_body(pose.position), relative) << ">\n"
        << in << "<joint name=\"" << j.name << "\" type=\"" << (j.kind == JointKind::Revolute ? "hinge" : "slide")
        << "\" pos=\"" << vec(j.anchor_b) << "\" axis=\"" << vec(j.frame_b.col(2)) << "\"";
    if (j.limit.enabled) out << " limited=\"true\" range=\"" << num(j.limit.lower) << " " << num(j.limit.upper) << "\"";
    if (j.damping > 0.0) out << " damping=\"" << num(j.damping) << "\"";
    if (j.friction > 0.0) out << " frictionloss=\"" << num(j.friction) << "\"";
    out << "/>\n" << in << inertial(Vec3::Zero(), body.mass, body.inertia) << "\n"
        << geoms(body.shape, Vec3::Zero(), id, false, in);
    children(b, pose, out, in);
    out << indent << "</body>\n";
  }

  // The bodies whose joint's body A is b (pose: b's).
  void children(std::size_t b, const Pose& pose, std::ostringstream& out, const std::string& indent) {
    for (std::size_t c = 0; c < model_.bodies.size(); ++c)
      if (parent_joint_[c] >= 0 && model_.joints[static_cast<std::size_t>(parent_joint_[c])].body_a == b)
        jointed(c, pose, out, indent);
  }

  void tree(std::size_t t, std::ostringstream& world) {
    const TreeModel& tm = model_.trees[t];
    const articulated::ArticulatedTree& tree = tm.tree;
    const int n = tree.link_count();
    std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
    std::vector<int> roots;
    for (int i = 0; i < n; ++i) (tree.link(i).parent < 0 ? roots : children[tree.link(i).parent]).push_back(i);
    for (int r : roots) link(t, r, children, world, "    ");
  }

  void link(std::size_t t, int i, const std::vector<std::vector<int>>& children, std::ostringstream& out,
            const std::string& indent) {
    const TreeModel& tm = model_.trees[t];
    const articulated::Link& l = tm.tree.link(i);
    const std::string id = label("t%zu_%zu", t, static_cast<std::size_t>(i));
    const Mat3 R = l.joint_placement.E.transpose();  // the joint frame's axes in the parent frame
    out << indent << "<body name=\"" << id << "\" " << placed(l.joint_placement.r, Quat(R)) << ">\n";
    const std::string in = indent + "  ";
    switch (l.joint) {
      case articulated::JointKind::Fixed:
        break;
      case articulated::JointKind::Revolute:
      case articulated::JointKind::Prismatic: {
        out << in << "<joint name=\"" << id << "\" type=\""
            << (l.joint == articulated::JointKind::Revolute ? "hinge" : "slide") << "\" axis=\"" << vec(l.axis) << "\"";
        if (std::isfinite(l.lower) && std::isfinite(l.upper))
          out << " limited=\"true\" range=\"" << num(l.lower) << " " << num(l.upper) << "\"";
        if (l.damping > 0.0) out << " damping=\"" << num(l.damping) << "\"";
        if (l.friction > 0.0) out << " frictionloss=\"" << num(l.friction) << "\"";
        out << "/>\n";
        break;
      }
      default:
        throw std::invalid_argument("robot_mjcf: link '" + l.name + "': a spherical or floating joint");
    }
    if (l.mass > 0.0) out << in << inertial(l.com, l.mass, l.inertia) << "\n";
    const std::size_t link = static_cast<std::size_t>(i);
    if (tm.link_collides.empty() || tm.link_collides[link])
      out << geoms(model_.bodies[tm.link_body[link]].shape, l.com, id, true, in);
    for (int c : children[link]) this->link(t, c, children, out, in);
    out << indent << "</body>\n";
  }

  const Model& model_;
  const State& state_;
  std::vector<int> parent_joint_;  // per body: the joint whose body B it is (-1: none)
  double mu_ = 0.0;
  std::ostringstream assets_;
};

}  // namespace

std::string robot_mjcf(const Model& model, const State& state) { return Writer(model, state).text(); }

}  // namespace pegsim::bench
