// Scene files: the top level, materials and friction; the other sections are
// parsed in scene_options.cpp, scene_shapes.cpp and scene_bodies.cpp.
#include "io/scene.hpp"

#include "io/scene_fields.hpp"
#include "io/scene_limits.hpp"
#include "io/scene_parts.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

namespace pegsim {

namespace scene_detail {

MaterialId find_material(const Field& f, const Model& model) {
  const std::string name = f.text();
  for (std::size_t i = 0; i < model.materials.size(); ++i)
    if (model.materials[i].name == name) return MaterialId{static_cast<std::uint32_t>(i)};
  std::string known;  // only for the message: built per lookup, it made 1000 materials quadratic in text
  for (const Material& m : model.materials) {
    if (known.size() > 300) {
      known += ", ...";
      break;
    }
    if (!known.empty()) known += ", ";
    known += m.name;
  }
  f.fail("unknown material '" + name + "' (materials: " + known + ")");
}

// material 0 is the built-in "default", worn by bodies that name none
void parse_materials(const Field& materials, Model& model) {
  if (!materials.present()) {
    model.add_material("default");
    return;
  }
  const std::vector<Field> items = materials.items();
  if (items.size() + 1 > scene_limits::kMaxMaterials)
    materials.fail(std::to_string(items.size()) + " materials, more than the limit of " +
                   std::to_string(scene_limits::kMaxMaterials - 1) + " (with default: its friction table is materials^2)");
  std::vector<std::string> names{"default"};
  std::map<std::string, int> first_line;
  for (const Field& item : items) {
    Field name_field = item;
    if (item.is_map()) {
      item.expect_keys({"name"});
      name_field = item.require("name");
    }
    const std::string name = name_field.text();
    if (name == "default")
      name_field.fail("'default' is the built-in material of bodies that name none; choose another name");
    if (auto [it, fresh] = first_line.emplace(name, name_field.line()); !fresh)
      name_field.fail("duplicate material name '" + name + "' (first given at line " +
                      std::to_string(it->second + 1) + ")");
    names.push_back(name);
  }
  model.add_materials(std::move(names));  // the tables grown once
}

// every pair gets default_mu (options.friction), then the listed pairs their own mu
void parse_friction(const Field& friction, double default_mu, Model& model) {
  const std::size_t n = model.materials.size();
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a; b < n; ++b)
      model.set_friction(MaterialId{static_cast<std::uint32_t>(a)},
                         MaterialId{static_cast<std::uint32_t>(b)}, default_mu);
  if (!friction.present()) return;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> first_line;
  for (const Field& item : friction.items()) {
    item.expect_keys({"materials", "mu"});
    const Field pair = item.require("materials");
    const auto names = pair.items(2);
    MaterialId a = find_material(names[0], model), b = find_material(names[1], model);
    const double mu = item.require("mu").non_negative();
    const auto key = std::minmax(a.index, b.index);
    if (auto [it, fresh] = first_line.emplace(key, pair.line()); !fresh)
      pair.fail("duplicate friction pair (first given at line " + std::to_string(it->second + 1) + ")");
    model.set_friction(a, b, mu);
  }
}

// every pair gets default_e (options.restitution), then the listed pairs their
// own e (read by the impulse stepper, sim/impulse_stepping.hpp)
void parse_restitution(const Field& restitution, double default_e, Model& model) {
  const std::size_t n = model.materials.size();
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a; b < n; ++b)
      model.set_restitution(MaterialId{static_cast<std::uint32_t>(a)}, MaterialId{static_cast<std::uint32_t>(b)},
                            default_e);
  if (!restitution.present()) return;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> first_line;
  for (const Field& item : restitution.items()) {
    item.expect_keys({"materials", "e"});
    const Field pair = item.require("materials");
    const auto names = pair.items(2);
    MaterialId a = find_material(names[0], model), b = find_material(names[1], model);
    const Field e_field = item.require("e");
    const double e = e_field.non_negative();
    if (e > 1.0) e_field.fail("a coefficient of restitution lies in [0, 1], got " + e_field.describe());
    const auto key = std::minmax(a.index, b.index);
    if (auto [it, fresh] = first_line.emplace(key, pair.line()); !fresh)
      pair.fail("duplicate restitution pair (first given at line " + std::to_string(it->second + 1) + ")");
    model.set_restitution(a, b, e);
  }
}

}  // namespace scene_detail

namespace {

// Largest scene text read (bytes): scene files are hand-written, a few kB; a
// 1000-body pour is 1 MB. Bigger input (or /dev/zero) is an error, not a read
// that grows without end.
using scene_limits::kMaxSceneBytes;

// Counts the YAML documents of the text, at most two, and the values of the
// first, without building them. yaml-cpp's LoadAll loops for ever on a text
// holding only "," (each document starts where the last one did, and it
// allocates each): a document that does not advance the stream ends the
// count as an error. yaml-cpp's node tree costs about 600 bytes a value (a
// 1e6-point hull, 14 MB of text, took 2.1 GB and 37 s to build before its
// length could be checked): a document of more than kMaxYamlValues values is
// refused here, at the value past the limit, before any tree is built.
class DocumentCounter : public YAML::EventHandler {
 public:
  explicit DocumentCounter(const std::string& source) : source_(source) {}
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    count(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(mark);
  }
  void OnMapEnd() override {}
  std::vector<YAML::Mark> starts;

 private:
  void count(const YAML::Mark& mark) {
    if (++values_ <= scene_limits::kMaxYamlValues) return;
    throw SceneError(scene_detail::located_message(
        source_, std::max(mark.line, 0), "",
        "the scene holds more than " + std::to_string(scene_limits::kMaxYamlValues) +
            " YAML values (keys, numbers, lists, maps), the limit (docs/scene-format.md, Limits)"));
  }
  const std::string& source_;
  std::size_t values_ = 0;
};

std::string default_name(const std::string& source) {
  const std::string builtin = "<builtin:";
  if (source.rfind(builtin, 0) == 0 && source.size() > builtin.size() + 1)
    return source.substr(builtin.size(), source.size() - builtin.size() - 1);
  if (!source.empty() && source.front() == '<') return "scene";
  return std::filesystem::path(source).stem().string();
}

}  // namespace

Scene load_scene_string(const std::string& yaml_text, const std::string& source) {
  using namespace scene_detail;
  if (yaml_text.size() > kMaxSceneBytes)
    throw SceneError(source + ": the scene text is larger than " + std::to_string(kMaxSceneBytes >> 20) + " MB");
  YAML::Node root;
  try {
    std::istringstream in(yaml_text);
    YAML::Parser parser(in);
    DocumentCounter counter(source);
    while (counter.starts.size() < 2 && parser.HandleNextDocument(counter)) {
    }
    if (counter.starts.size() == 2) {
      const YAML::Mark& second = counter.starts[1];
      if (second.pos <= counter.starts[0].pos)
        throw SceneError(located_message(source, std::max(second.line, 0), "",
                                         "YAML syntax error: no document can be read here (a stray ',' or flow indicator?)"));
      throw SceneError(located_message(source, std::max(second.line, 0), "",
                                       "a scene file holds one YAML document, found a second one"));
    }
    root = YAML::Load(yaml_text);
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard (2000 levels of its parser)
    throw SceneError(located_message(source, std::max(e.mark.line, 0), "",
                                     "YAML nesting too deep (the parser stops at " + std::to_string(e.depth()) +
                                     " levels; a scene needs fewer than 10)"));
  } catch (const YAML::Exception& e) {
    throw SceneError(located_message(source, std::max(e.mark.line, 0), "", "YAML syntax error: " + e.msg));
  }
  const Field top = root_field(root, &source);
  if (root.IsNull()) top.fail("the scene is empty (it needs at least bodies:)");
  if (!root.IsMap())
    top.fail("a scene is a map with keys options, materials, friction, restitution, shapes, bodies, joints, robots, controllers");
  top.expect_keys({"options", "materials", "friction", "restitution", "shapes", "bodies", "joints", "robots", "controllers"});

  Scene scene;
  scene.source = source;
  scene.text = yaml_text;
  try {
    // sections in dependency order: the dimension decides shapes, materials precede friction
    SceneOptions options = parse_options(top["options"]);
    scene.model.options = options.sim;
    scene.name = options.name.empty() ? default_name(source) : options.name;
    parse_materials(top["materials"], scene.model);
    parse_friction(top["friction"], options.default_friction, scene.model);
    parse_restitution(top["restitution"], options.default_restitution, scene.model);
    const ShapeLibrary shapes = parse_shape_library(top["shapes"], options.sim.dimension);
    std::vector<Vec3> shape_origins;
    parse_bodies(top.require("bodies"), shapes, scene.model, scene.state, &shape_origins);
    parse_joints(top["joints"], shape_origins, scene.model, scene.state);
    parse_robots(top["robots"], scene.model, scene.state);
    parse_controllers(top["controllers"], scene.model);
  } catch (const YAML::Exception& e) {  // not expected: every access is checked first
    throw SceneError(located_message(source, std::max(e.mark.line, 0), "", e.msg));
  }
  return scene;
}

Scene load_scene_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw SceneError(path + ": is a directory, not a scene file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path + ": cannot open the scene file: " + std::strerror(errno));
  std::string text;
  char chunk[65536];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {  // capped: /dev/zero never ends
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxSceneBytes)
      throw SceneError(path + ": the scene file is larger than " + std::to_string(kMaxSceneBytes >> 20) + " MB");
  }
  if (in.bad()) throw SceneError(path + ": cannot read the scene file");
  return load_scene_string(text, path);
}

}  // namespace pegsim
