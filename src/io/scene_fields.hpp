// Reading typed values out of a YAML scene, with errors that say where.
//
// A Field is a YAML node together with its place in the file: the field path
// (`bodies[2].mass`) and a line to report. Every accessor checks the node's
// type and range and, on failure, throws SceneError formatted as
//   FILE:LINE: FIELD.PATH: what is wrong
// (lines 1-based; yaml-cpp's marks are 0-based). An absent field reports the
// line of the map that should have held it.
//
// Numbers are parsed here rather than by yaml-cpp, so that NaN, infinities,
// out-of-range literals and quoted strings are caught with a clear message.
#pragma once

#include "io/scene.hpp"
#include "math/types.hpp"

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pegsim::scene_detail {

class Field {
 public:
  Field(YAML::Node node, std::string path, const std::string* source, int line);

  const std::string& path() const { return path_; }
  int line() const { return line_; }  // 0-based
  const std::string& source() const { return *source_; }
  bool present() const { return node_.IsDefined(); }
  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }

  // Throws SceneError "SOURCE:LINE: PATH: what".
  [[noreturn]] void fail(const std::string& what) const;

  // maps
  // Fails unless this is a map whose keys are all in `allowed`, each once.
  void expect_keys(std::initializer_list<std::string_view> allowed) const;
  bool has(std::string_view key) const;
  Field operator[](std::string_view key) const;  // absent: !present(), this map's line
  Field require(std::string_view key) const;     // absent: fails "required field is missing"
  // Map entries in file order; `what` names the keys in the duplicate message.
  std::vector<std::pair<std::string, Field>> entries(std::string_view what = "key") const;

  // sequences
  std::vector<Field> items() const;                    // fails unless a sequence
  std::vector<Field> items(std::size_t count) const;   // ... of exactly `count` items

  // scalars
  double number() const;        // finite
  double positive() const;      // > 0
  double non_negative() const;  // >= 0
  int integer() const;
  int integer_at_least(int lowest) const;
  bool boolean() const;
  std::string text() const;  // a non-empty string scalar
  std::string choice(std::initializer_list<std::string_view> allowed) const;
  std::string choice(const std::vector<std::string>& allowed) const;  // a registry's names

  // fixed-size numeric lists
  Vec2 vec2() const;
  Vec3 vec3() const;
  std::vector<double> numbers(std::size_t count) const;

  // "-1", "a list", "a map", "nothing": what the node holds, for messages
  std::string describe() const;

 private:
  Field child(const YAML::Node& node, std::string path, const YAML::Node& key) const;

  YAML::Node node_;
  std::string path_;
  const std::string* source_;
  int line_;
};

// Magnitude limits (io/scene_limits.hpp): fail at `f` unless |x| <= limit
// (for a vector, its norm), e.g. within(f, v, kMaxSpeed, "m/s"); return x.
double within(const Field& f, double x, double limit, const char* unit);

// x as printf's %g writes it, for the limits' messages.
std::string g(double x);
Vec3 within(const Field& f, const Vec3& v, double limit, const char* unit);
// A positive length of a shape, at most scene_limits::kMaxLength.
double length(const Field& f);

// The root Field of a document, with path "".
Field root_field(const YAML::Node& root, const std::string* source);

// "SOURCE:LINE: PATH: what" (PATH and its colon left out when empty).
std::string located_message(const std::string& source, int line, const std::string& path,
                            const std::string& what);

}  // namespace pegsim::scene_detail
