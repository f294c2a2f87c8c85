#include "mujoco_mjcf.hpp"

#include "mjcf_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace pegsim::bench {
namespace {

std::string num(double v) { return mjcf_number(v); }
std::string vec(const Vec3& v) { return mjcf_vector(v); }
std::string quat(const Quat& q) { return mjcf_quaternion(q); }
// "prefix<k>" (by snprintf: GCC 12 warns falsely, -Wrestrict, on "literal" + std::to_string)
std::string label(const std::string& prefix, std::size_t k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%zu", k);
  return prefix + buf;
}
std::string placed(const Pose& p) { return "pos=\"" + vec(p.position) + "\" quat=\"" + quat(p.orientation) + "\""; }

struct Geom {
  std::string name;
  int body;  // -1: the world (planes and static bodies)
  int material;
};

class Writer {
 public:
  explicit Writer(const BenchScene& scene) : scene_(scene), pairs_(!scene.uniform_friction()) {}

  std::string text() {
    std::ostringstream world;
    for (std::size_t k = 0; k < scene_.planes.size(); ++k) {
      const BenchPlane& p = scene_.planes[k];
      Pose pose;
      pose.position = p.offset * p.normal;
      pose.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), p.normal);
      world << "    <geom " << geom(label("plane", k), -1, p.material) << " type=\"plane\" size=\"0 0 1\" "
            << placed(pose) << "/>\n";
    }
    int dynamic = 0;
    for (std::size_t i = 0; i < scene_.bodies.size(); ++i) {
      const BenchBody& b = scene_.bodies[i];
      const std::string id = label("b", i);
      if (b.is_static) {  // world geoms, each at the body's pose composed with its own
        for (const auto& [name, shape, offset] : parts(b, id))
          world << "    <geom " << geom(name, -1, b.material) << " " << shape << " " << placed(compose(b.pose, offset)) << "/>\n";
        continue;
      }
      world << "    <body name=\"" << id << "\" " << placed(b.pose) << "><freejoint/>"
            << "<inertial pos=\"0 0 0\" mass=\"" << num(b.mass) << "\" diaginertia=\"" << vec(b.principal_inertia())
            << "\"/>\n";
      for (const auto& [name, shape, offset] : parts(b, id))
        world << "      <geom " << geom(name, dynamic, b.material) << " " << shape << " " << placed(offset) << "/>\n";
      world << "    </body>\n";
      ++dynamic;
    }
    std::ostringstream x;
    x << "<mujoco model=\"" << scene_.name << "\">\n"
      << "  <option timestep=\"" << num(scene_.h) << "\" gravity=\"" << vec(scene_.gravity) << "\"/>\n"
      << "  <size nconmax=\"" << nconmax() << "\" njmax=\"" << njmax() << "\"/>\n";
    if (!assets_.str().empty()) x << "  <asset>\n" << assets_.str() << "  </asset>\n";
    x << "  <worldbody>\n" << world.str() << "  </worldbody>\n";
    if (pairs_) x << "  <contact>\n" << pair_list() << "  </contact>\n";
    x << "</mujoco>\n";
    return x.str();
  }

 private:
  struct Part {
    std::string name, shape;
    Pose offset;
  };

  std::vector<Part> parts(const BenchBody& b, const std::string& id) {
    std::vector<Part> out;
    if (b.is_box()) return {{id, "type=\"box\" size=\"" + vec(0.5 * b.size) + "\"", Pose{}}};
    for (std::size_t k = 0; k < b.parts.size(); ++k) {
      const BenchPart& given = b.parts[k];
      const std::string name = label(id + "_", k);
      switch (given.kind) {  // MuJoCo's sizes are half lengths; its capsule and cylinder axes are local z, as ours
        case BenchPart::Kind::Box:
          out.push_back({name, "type=\"box\" size=\"" + vec(0.5 * given.size) + "\"", given.offset});
          continue;
        case BenchPart::Kind::Sphere:
          out.push_back({name, "type=\"sphere\" size=\"" + num(given.radius) + "\"", given.offset});
          continue;
        case BenchPart::Kind::Capsule:  // size: radius, half the core segment
          out.push_back({name, "type=\"capsule\" size=\"" + num(given.radius) + " " + num(0.5 * given.length) + "\"",
                         given.offset});
          continue;
        case BenchPart::Kind::Cylinder:  // size: radius, half the height
          out.push_back({name, "type=\"cylinder\" size=\"" + num(given.radius) + " " + num(0.5 * given.length) + "\"",
                         given.offset});
          continue;
        case BenchPart::Kind::Hull:
        case BenchPart::Kind::Cone:  // MuJoCo has no cone: a mesh of its hull (cone_hull)
          break;
      }
      const BenchPart part = given.kind == BenchPart::Kind::Cone ? cone_hull(given) : given;
      assets_ << "    <mesh name=\"" << name << "\" vertex=\"";
      for (std::size_t v = 0; v < part.vertices.size(); ++v) assets_ << (v ? " " : "") << vec(part.vertices[v]);
      assets_ << "\"/>\n";
      out.push_back({name, "type=\"mesh\" mesh=\"" + name + "\"", Pose{}});
    }
    return out;
  }

  std::string geom(const std::string& name, int body, int material) {
    geoms_.push_back({name, body, material});
    if (pairs_) return "name=\"" + name + "\" contype=\"0\" conaffinity=\"0\"";
    return "name=\"" + name + "\" friction=\"" + num(scene_.mu_between(material, material)) + " 0.005 0.0001\"";
  }

  std::string pair_list() const {
    std::ostringstream x;
    for (std::size_t a = 0; a < geoms_.size(); ++a)
      for (std::size_t b = a + 1; b < geoms_.size(); ++b) {
        if (geoms_[a].body == geoms_[b].body) continue;  // one body's parts, or two world geoms
        const double mu = scene_.mu_between(geoms_[a].material, geoms_[b].material);
        x << "    <pair geom1=\"" << geoms_[a].name << "\" geom2=\"" << geoms_[b].name << "\" friction=\"" << num(mu)
          << " " << num(mu) << " 0.005 0.0001 0.0001\"/>\n";
      }
    return x.str();
  }

  // contacts a scene may need: 8 per geom (a face on the ground and one on a
  // neighbour), 4 rows each (pyramidal cone, condim 3). MuJoCo 2.2 preallocates
  // about njmax * nv * 24 + njmax^2 * 12 bytes (efc_J, efc_JT, efc_AR and their
  // indices) and cannot make mjData past 2 GB, so njmax is capped to keep that
  // near 1.5 GB; a scene that needs more rows gets MuJoCo's "constraint buffer
  // full" warning (contacts dropped), which the bench reports.
  int nconmax() const { return 8 * static_cast<int>(geoms_.size()) + 50; }
  int njmax() const {
    const double nv = 6.0 * scene_.dynamic_count();
    const double fit = (-24 * nv + std::sqrt(576 * nv * nv + 48 * 1.5e9)) / 24;
    return std::min(4 * nconmax(), static_cast<int>(fit));
  }

  const BenchScene& scene_;
  bool pairs_;
  std::vector<Geom> geoms_;
  std::ostringstream assets_;
};

}  // namespace

std::string mjcf(const BenchScene& scene) { return Writer(scene).text(); }

}  // namespace pegsim::bench
