#include "io/scene_fields.hpp"

#include "io/scene_limits.hpp"
#include "io/utf8.hpp"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <map>
#include <system_error>

namespace pegsim::scene_detail {

namespace {

std::string join(std::initializer_list<std::string_view> words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

int line_of(const YAML::Node& node, int fallback) {
  if (!node.IsDefined()) return fallback;
  const int line = node.Mark().line;
  return line >= 0 ? line : fallback;
}

// A plain (unquoted) scalar: yaml-cpp tags it "?", a quoted one "!".
bool is_plain(const YAML::Node& node) { return node.Tag() != "!"; }

enum class Parse { Ok, NotANumber, NotFinite };

// YAML 1.2 core-schema floats, plus what std::from_chars reads.
Parse parse_double(std::string_view s, double& out) {
  static const std::map<std::string_view, double> special = {
      {".inf", INFINITY}, {".Inf", INFINITY}, {".INF", INFINITY}, {"+.inf", INFINITY},
      {"+.Inf", INFINITY}, {"+.INF", INFINITY}, {"-.inf", -INFINITY}, {"-.Inf", -INFINITY},
      {"-.INF", -INFINITY}, {".nan", NAN}, {".NaN", NAN}, {".NAN", NAN}};
  if (auto it = special.find(s); it != special.end()) {
    out = it->second;
    return Parse::NotFinite;
  }
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return Parse::NotANumber;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (end != s.data() + s.size()) return Parse::NotANumber;
  if (ec == std::errc::result_out_of_range) return Parse::NotFinite;
  if (ec != std::errc()) return Parse::NotANumber;
  return std::isfinite(out) ? Parse::Ok : Parse::NotFinite;
}

}  // namespace

std::string located_message(const std::string& source, int line, const std::string& path,
                            const std::string& what) {
  std::string out = source + ":" + std::to_string(line + 1) + ": ";
  if (!path.empty()) out += path + ": ";
  return out + what;
}

std::string g(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

double within(const Field& f, double x, double limit, const char* unit) {
  if (!(std::abs(x) <= limit))
    f.fail("must be at most " + g(limit) + " " + unit + " in size (docs/scene-format.md, Limits), got " + g(x));
  return x;
}

Vec3 within(const Field& f, const Vec3& v, double limit, const char* unit) {
  const double size = v.stableNorm();  // norm() squares: 1e300 read as inf
  if (!(size <= limit))
    f.fail("must be at most " + g(limit) + " " + unit + " in size (docs/scene-format.md, Limits), got one of size " +
           g(size));
  return v;
}

double length(const Field& f) { return within(f, f.positive(), scene_limits::kMaxLength, "m"); }

Field root_field(const YAML::Node& root, const std::string* source) {
  return Field(root, "", source, line_of(root, 0));
}

Field::Field(YAML::Node node, std::string path, const std::string* source, int line)
    : node_(std::move(node)), path_(std::move(path)), source_(source), line_(line) {}

void Field::fail(const std::string& what) const {
  throw SceneError(located_message(*source_, line_, path_, what));
}

std::string Field::describe() const {
  if (!node_.IsDefined() || node_.IsNull()) return "nothing";
  if (node_.IsMap()) return "a map";
  if (node_.IsSequence()) return "a list";
  const std::string& s = node_.Scalar();
  return is_plain(node_) ? s : "'" + s + "'";
}

Field Field::child(const YAML::Node& node, std::string path, const YAML::Node& key) const {
  return Field(node, std::move(path), source_, line_of(node, line_of(key, line_)));
}

// ---- maps ------------------------------------------------------------------

std::vector<std::pair<std::string, Field>> Field::entries(std::string_view what) const {
  if (!node_.IsMap()) fail("expected a map, got " + describe());
  std::vector<std::pair<std::string, Field>> out;
  std::map<std::string, int> first_line;
  for (const auto& entry : node_) {  // a copy of each pair: yaml-cpp's it->first is a temporary
    const YAML::Node key = entry.first;
    const Field key_field(key, path_, source_, line_of(key, line_));
    if (!key.IsScalar()) key_field.fail("a key must be a plain name, got " + key_field.describe());
    const std::string name = key.Scalar();
    const std::string path = path_.empty() ? name : path_ + "." + name;
    if (name == "<<")
      Field(key, path, source_, key_field.line())
          .fail("YAML merge keys (<<) are not supported; use named shapes instead");
    if (auto [pos, fresh] = first_line.emplace(name, key_field.line()); !fresh)
      Field(key, path, source_, key_field.line())
          .fail("duplicate " + std::string(what) + " '" + name + "' (first given at line " +
                std::to_string(pos->second + 1) + ")");
    out.emplace_back(name, child(entry.second, path, key));
  }
  return out;
}

void Field::expect_keys(std::initializer_list<std::string_view> allowed) const {
  for (const auto& [name, value] : entries()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == name;
    if (!known) value.fail("unknown key (expected one of: " + join(allowed) + ")");
  }
}

bool Field::has(std::string_view key) const { return (*this)[key].present(); }

Field Field::operator[](std::string_view key) const {
  const std::string path = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  if (node_.IsMap()) {
    for (const auto& entry : node_)
      if (entry.first.IsScalar() && entry.first.Scalar() == key) return child(entry.second, path, entry.first);
  }
  return Field(YAML::Node(YAML::NodeType::Undefined), path, source_, line_);
}

Field Field::require(std::string_view key) const {
  if (!node_.IsMap()) fail("expected a map, got " + describe());
  Field f = (*this)[key];
  if (!f.present()) f.fail("required field is missing");
  return f;
}

// ---- sequences ---------------------------------------------------------------

std::vector<Field> Field::items() const {
  if (!node_.IsSequence()) fail("expected a list, got " + describe());
  std::vector<Field> out;
  std::size_t i = 0;
  for (const auto& item : node_)
    out.push_back(child(item, path_ + "[" + std::to_string(i++) + "]", YAML::Node()));
  return out;
}

std::vector<Field> Field::items(std::size_t count) const {
  if (!node_.IsSequence() || node_.size() != count)
    fail("expected a list of " + std::to_string(count) + " items, got " +
         (node_.IsSequence() ? "a list of " + std::to_string(node_.size()) : describe()));
  return items();
}

// ---- scalars -------------------------------------------------------------------

double Field::number() const {
  if (!node_.IsScalar() || !is_plain(node_)) fail("expected a number, got " + describe());
  double value = 0.0;
  switch (parse_double(node_.Scalar(), value)) {
    case Parse::Ok: return value;
    case Parse::NotFinite: fail("must be a finite number, got " + describe());
    case Parse::NotANumber: break;
  }
  fail("expected a number, got " + describe());
}

double Field::positive() const {
  const double v = number();
  if (!(v > 0.0)) fail("must be positive, got " + describe());
  return v;
}

double Field::non_negative() const {
  const double v = number();
  if (!(v >= 0.0)) fail("must not be negative, got " + describe());
  return v;
}

int Field::integer() const {
  if (!node_.IsScalar() || !is_plain(node_)) fail("expected an integer, got " + describe());
  std::string_view s = node_.Scalar();
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  int value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) fail("integer out of range, got " + describe());
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    fail("expected an integer, got " + describe());
  return value;
}

int Field::integer_at_least(int lowest) const {
  const int v = integer();
  if (v < lowest) fail("must be at least " + std::to_string(lowest) + ", got " + describe());
  return v;
}

bool Field::boolean() const {
  bool value = false;
  if (!node_.IsScalar() || !is_plain(node_) || !YAML::convert<bool>::decode(node_, value))
    fail("expected true or false, got " + describe());
  return value;
}

std::string Field::text() const {
  if (!node_.IsScalar() || node_.Scalar().empty()) fail("expected a name, got " + describe());
  const std::string& s = node_.Scalar();
  // names reach terminals, recordings (HDF5 strings end at a NUL) and the replay page's JSON
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      fail(std::string("a name must not hold control characters (byte ") + hex + " at " + std::to_string(i) + ")");
    }
  }
  if (const std::size_t bad = first_invalid_utf8(s); bad != std::string::npos)
    fail("a name must be UTF-8 text (a bad byte at " + std::to_string(bad) + ")");
  return s;
}

std::string Field::choice(std::initializer_list<std::string_view> allowed) const {
  const std::string s = text();
  for (std::string_view a : allowed)
    if (a == s) return s;
  fail("unknown value '" + s + "' (expected one of: " + join(allowed) + ")");
}

std::string Field::choice(const std::vector<std::string>& allowed) const {
  const std::string s = text();
  std::string list;
  for (const std::string& a : allowed) {
    if (a == s) return s;
    list += (list.empty() ? "" : ", ") + a;
  }
  fail("unknown value '" + s + "' (expected one of: " + list + ")");
}

// ---- numeric lists ---------------------------------------------------------------

std::vector<double> Field::numbers(std::size_t count) const {
  std::vector<double> out;
  for (const Field& f : items(count)) out.push_back(f.number());
  return out;
}

Vec2 Field::vec2() const {
  const auto v = numbers(2);
  return Vec2(v[0], v[1]);
}

Vec3 Field::vec3() const {
  const auto v = numbers(3);
  return Vec3(v[0], v[1], v[2]);
}

}  // namespace pegsim::scene_detail
