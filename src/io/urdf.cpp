#include "io/urdf.hpp"

#include "geometry/curved.hpp"
#include "geometry/polyhedron.hpp"
#include "io/mesh_hull.hpp"
#include "io/utf8.hpp"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <set>
#include <stdexcept>

namespace pegsim {
namespace {

using articulated::JointKind;
using articulated::Link;

// urdfdom reports through console_bridge; its messages are collected for ours
class CollectLog : public console_bridge::OutputHandler {
 public:
  CollectLog() { console_bridge::useOutputHandler(this); }
  ~CollectLog() override { console_bridge::restorePreviousOutputHandler(); }
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors += (errors.empty() ? "" : "; ") + text;
  }
  std::string errors;
};

Vec3 vec(const urdf::Vector3& v) { return Vec3(v.x, v.y, v.z); }
Mat3 rotation(const urdf::Rotation& r) { return Quat(r.w, r.x, r.y, r.z).normalized().toRotationMatrix(); }

struct Builder {
  std::string source;
  UrdfRobot robot;
  std::vector<Vec3> coms;  // per tree link, for the shapes

  [[noreturn]] void fail(const std::string& what) const { throw std::runtime_error(source + ": " + what); }

  static std::vector<Vec3> sample(const urdf::Geometry& g, int& approximated) {
    std::vector<Vec3> pts;
    if (g.type == urdf::Geometry::BOX) {
      const Vec3 d = vec(static_cast<const urdf::Box&>(g).dim) / 2;
      for (int k = 0; k < 8; ++k) pts.emplace_back(k & 1 ? d.x() : -d.x(), k & 2 ? d.y() : -d.y(), k & 4 ? d.z() : -d.z());
    } else if (g.type == urdf::Geometry::SPHERE) {
      const double r = static_cast<const urdf::Sphere&>(g).radius;
      pts.emplace_back(0, 0, r);
      pts.emplace_back(0, 0, -r);
      for (int i = 1; i < 12; ++i)
        for (int j = 0; j < 24; ++j) {
          const double th = std::numbers::pi * i / 12, ph = 2 * std::numbers::pi * j / 24;
          pts.emplace_back(r * std::sin(th) * std::cos(ph), r * std::sin(th) * std::sin(ph), r * std::cos(th));
        }
      ++approximated;
    } else if (g.type == urdf::Geometry::CYLINDER) {
      const auto& c = static_cast<const urdf::Cylinder&>(g);
      for (int j = 0; j < 32; ++j) {
        const double ph = 2 * std::numbers::pi * j / 32;
        for (double z : {-c.length / 2, c.length / 2}) pts.emplace_back(c.radius * std::cos(ph), c.radius * std::sin(ph), z);
      }
      ++approximated;
    }
    return pts;
  }

  // a mesh's file name: file:// or a path relative to the URDF file's folder
  std::string mesh_path(const std::string& name, const urdf::Link& link) const {
    if (name.rfind("package://", 0) == 0)
      fail("link '" + link.name + "': collision mesh '" + name +
           "': package:// paths are not resolved (give a path relative to the URDF file)");
    std::filesystem::path path = name.rfind("file://", 0) == 0 ? name.substr(7) : name;
    if (path.is_relative()) path = std::filesystem::path(source).parent_path() / path;
    return path.string();
  }

  // A link whose only collision element is a sphere, or a cylinder whose axis
  // is the link's z, gets the true curved shape (geometry/curved.hpp), its
  // centre moved into the centre-of-mass frame; false otherwise (compound
  // parts are polytopes, and a curved shape's axis is its body's z).
  bool add_curved_shape(const urdf::Link& link, const Vec3& com) {
    if (link.collision_array.size() != 1) return false;
    const urdf::CollisionSharedPtr& c = link.collision_array.front();
    if (!c || !c->geometry) return false;
    const Vec3 centre = vec(c->origin.position) - com;
    try {
      if (c->geometry->type == urdf::Geometry::SPHERE) {
        Sphere sphere = make_sphere(static_cast<const urdf::Sphere&>(*c->geometry).radius);
        sphere.centre = centre;
        robot.shapes.push_back(Shape(sphere));
      } else if (c->geometry->type == urdf::Geometry::CYLINDER &&
                 std::abs((rotation(c->origin.rotation) * Vec3::UnitZ()).z()) >= 1.0 - 1e-12) {
        const auto& g = static_cast<const urdf::Cylinder&>(*c->geometry);
        Cylinder cylinder = make_cylinder(g.radius, g.length);
        cylinder.centre = centre;
        robot.shapes.push_back(Shape(cylinder));
      } else {
        return false;
      }
    } catch (const std::exception& e) {
      fail("link '" + link.name + "': collision: " + e.what());
    }
    robot.collides.push_back(1);
    return true;
  }

  // the link's collision elements as one shape in its centre-of-mass frame
  void add_shape(const urdf::Link& link, const Vec3& com) {
    if (add_curved_shape(link, com)) return;
    std::vector<Shape> parts;
    for (const urdf::CollisionSharedPtr& c : link.collision_array) {
      if (!c || !c->geometry) continue;
      std::vector<std::vector<Vec3>> point_sets;
      if (c->geometry->type == urdf::Geometry::MESH) {
        const auto& mesh = static_cast<const urdf::Mesh&>(*c->geometry);
        try {
          point_sets = mesh_part_points(mesh_path(mesh.filename, link), vec(mesh.scale));
        } catch (const std::runtime_error& e) {
          fail("link '" + link.name + "': collision mesh: " + e.what());
        }
      } else {
        const int before = robot.approximated;
        point_sets.push_back(sample(*c->geometry, robot.approximated));
        if (robot.approximated != before)
          robot.warnings.push_back(source + ": link '" + link.name + "': a sphere or cylinder approximated by a polytope");
      }
      const Mat3 R = rotation(c->origin.rotation);
      const Vec3 p = vec(c->origin.position);
      for (std::vector<Vec3>& pts : point_sets) {
        for (Vec3& x : pts) x = p + R * x - com;
        try {
          parts.push_back(Shape(polyhedron_from_points(pts)));
        } catch (const std::exception& e) {
          fail("link '" + link.name + "': collision: " + e.what());
        }
      }
    }
    robot.collides.push_back(!parts.empty());
    if (parts.empty()) robot.shapes.push_back(Shape(make_box(Vec3(0.01, 0.01, 0.01))));  // a marker, never colliding
    else if (parts.size() == 1) robot.shapes.push_back(std::move(parts[0]));
    else if (static_cast<int>(parts.size()) > kMaxCompoundParts)
      fail("link '" + link.name + "': more than " + std::to_string(kMaxCompoundParts) + " collision elements");
    else robot.shapes.push_back(Shape(make_compound(std::move(parts))));
  }

  Link inertial_link(const urdf::Link& link) const {
    Link l;
    l.name = link.name;
    if (const urdf::InertialSharedPtr& in = link.inertial) {
      const std::string who = "link '" + link.name + "': inertial: ";
      if (!(in->mass >= 0.0) || !std::isfinite(in->mass)) fail(who + "mass must be >= 0");
      Mat3 I;
      I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
      const Mat3 R = rotation(in->origin.rotation);
      l.mass = in->mass;
      l.com = vec(in->origin.position);
      l.inertia = R * I * R.transpose();
    }
    return l;
  }

  int add(Link l, const urdf::Link& link, const std::string& who) {
    try {
      const int i = robot.tree.add_link(std::move(l));
      coms.push_back(robot.tree.link(i).com);
      return i;
    } catch (const std::invalid_argument& e) {
      fail(who + e.what());
    }
  }

  // a massless, non-colliding link carrying one axis of a planar joint
  int add_virtual(const std::string& name, int parent, const articulated::Transform& X, JointKind kind, const Vec3& axis) {
    Link l;
    l.name = name;
    l.parent = parent;
    l.joint = kind;
    l.joint_placement = X;
    l.axis = axis;
    const int i = robot.tree.add_link(l);
    coms.push_back(Vec3::Zero());
    robot.collides.push_back(0);
    robot.shapes.push_back(Shape(make_box(Vec3(0.01, 0.01, 0.01))));
    return i;
  }

  void visit(const urdf::Link& link, int parent, const UrdfOptions& options) {
    Link l = inertial_link(link);
    l.parent = parent;
    std::string who = "link '" + link.name + "': ";
    if (parent < 0) {
      l.joint = options.fixed_base ? JointKind::Fixed : JointKind::Floating;
      l.joint_placement = articulated::placement(options.base.position, options.base.orientation.toRotationMatrix());
    } else {
      const urdf::Joint& j = *link.parent_joint;
      who = "joint '" + j.name + "': ";
      l.joint_name = j.name;
      const urdf::Pose& o = j.parent_to_joint_origin_transform;
      l.joint_placement = articulated::placement(vec(o.position), rotation(o.rotation));
      l.axis = vec(j.axis);
      if (j.dynamics) {
        l.damping = j.dynamics->damping;
        l.friction = j.dynamics->friction;
      }
      switch (j.type) {
        case urdf::Joint::REVOLUTE: l.joint = JointKind::Revolute; break;
        case urdf::Joint::CONTINUOUS: l.joint = JointKind::Revolute; break;
        case urdf::Joint::PRISMATIC: l.joint = JointKind::Prismatic; break;
        case urdf::Joint::FIXED: l.joint = JointKind::Fixed; break;
        case urdf::Joint::FLOATING: l.joint = JointKind::Floating; break;
        case urdf::Joint::PLANAR: {
          // translation in the plane normal to the axis, rotation about it
          const Vec3 n = l.axis.norm() > 0 ? Vec3(l.axis.normalized()) : Vec3::UnitZ();
          const Vec3 u = n.unitOrthogonal(), w = n.cross(u);
          const int x = add_virtual(j.name + "/x", parent, l.joint_placement, JointKind::Prismatic, u);
          const int y = add_virtual(j.name + "/y", x, articulated::Transform{}, JointKind::Prismatic, w);
          l.parent = y;
          l.joint_placement = articulated::Transform{};
          l.joint = JointKind::Revolute;
          l.axis = n;
          break;
        }
        default: fail(who + "unknown joint type");
      }
      if ((j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::PRISMATIC)) {
        if (!j.limits) fail(who + "a revolute or prismatic joint needs <limit>");
        l.lower = j.limits->lower;
        l.upper = j.limits->upper;
      }
    }
    add(std::move(l), link, who);
    add_shape(link, coms.back());
    const int me = robot.tree.link_count() - 1;
    for (const urdf::LinkSharedPtr& child : link.child_links)
      if (child) visit(*child, me, options);
  }
};

}  // namespace

UrdfRobot load_urdf_string(const std::string& xml, const std::string& source, const UrdfOptions& options) {
  // urdfdom parses with TinyXML 2.6, which in UTF-8 mode steps over a lead
  // byte's announced continuation bytes without looking at them: a lead byte
  // at the end of the text (found by fuzz_urdf: "...</robot>\xe9" inside an
  // open element) takes it past the terminating NUL, and it reads on through
  // the heap. Malformed text is refused here, before the parser sees it, as
  // is a NUL (TinyXML would stop there and parse a silently shortened file).
  {
    std::size_t bad = first_invalid_utf8(xml);
    const std::size_t nul = xml.find('\0');
    const char* what = "is not UTF-8 text";
    if (nul < bad) bad = nul, what = "holds a NUL byte";
    if (bad != std::string::npos) {
      const std::size_t line_start = bad == 0 ? 0 : xml.rfind('\n', bad - 1) + 1;  // npos + 1 = 0
      const auto line = 1 + std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
      throw std::runtime_error(source + ":" + std::to_string(line) + ":" + std::to_string(bad - line_start + 1) +
                               ": the URDF text " + what + " (byte " + std::to_string(bad) + ")");
    }
  }
  urdf::ModelInterfaceSharedPtr model;
  {
    CollectLog log;
    model = urdf::parseURDF(xml);
    if (!model) throw std::runtime_error(source + ": " + (log.errors.empty() ? "not a URDF robot" : log.errors));
  }
  // urdfdom's links hold their children by shared_ptr; a cycle of joints away
  // from the root (which parseURDF accepts) would keep its links alive for ever
  struct ReleaseLinks {
    urdf::ModelInterface& model;
    ~ReleaseLinks() {
      for (auto& [name, link] : model.links_)
        if (link) link->clear();
    }
  } release{*model};
  const urdf::LinkConstSharedPtr root = model->getRoot();
  if (!root) throw std::runtime_error(source + ": the robot has no root link");
  Builder b;
  b.source = source;
  b.robot.name = model->getName();
  b.visit(*root, -1, options);
  // every link must hang from the root: urdfdom leaves a cycle of joints out
  // of the tree without a word (found by fuzz/fuzz_urdf.cpp)
  std::set<std::string> reached;
  for (int i = 0; i < b.robot.tree.link_count(); ++i) reached.insert(b.robot.tree.link(i).name);
  for (const auto& [name, link] : model->links_) {
    if (!reached.count(name))
      b.fail("link '" + name + "': not connected to the root link '" + root->name + "' (its joints form a cycle?)");
  }
  return std::move(b.robot);
}

UrdfRobot load_urdf_file(const std::string& path, const UrdfOptions& options) {
  constexpr std::size_t kMaxUrdfBytes = 16u << 20;  // as scene files (io/scene.cpp)
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": is a directory, not a URDF file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the URDF file");
  std::string text;
  char chunk[65536];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {  // capped: /dev/zero never ends
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxUrdfBytes)
      throw std::runtime_error(path + ": the URDF file is larger than " + std::to_string(kMaxUrdfBytes >> 20) + " MB");
  }
  if (in.bad()) throw std::runtime_error(path + ": cannot read the URDF file");
  return load_urdf_string(text, path, options);
}

}  // namespace pegsim
