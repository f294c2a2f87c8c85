// pegsim replay's page data: the recording (read and checked by
// read_recording(), shapes included) as the viewer's
// "pegsim-replay" JSON, bulk arrays as little-endian typed arrays in base64
// (docs/viewer.md).
#include "replay_page.hpp"

#include "geometry/shape.hpp"
#include "io/recording.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace pegsim::cli {

std::string base64(const void* data, std::size_t bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* p = static_cast<const unsigned char*>(data);
  std::string out;
  out.reserve(4 * ((bytes + 2) / 3));
  for (std::size_t i = 0; i < bytes; i += 3) {
    const unsigned v = (unsigned{p[i]} << 16) | (i + 1 < bytes ? unsigned{p[i + 1]} << 8 : 0u) |
                       (i + 2 < bytes ? unsigned{p[i + 2]} : 0u);
    out += digits[(v >> 18) & 63];
    out += digits[(v >> 12) & 63];
    out += i + 1 < bytes ? digits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes ? digits[v & 63] : '=';
  }
  return out;
}

namespace {

template <class T>
std::string b64(const std::vector<T>& v) {
  return '"' + base64(v.data(), v.size() * sizeof(T)) + '"';
}

// A JSON string; '<' escaped so no text can close the page's <script> element.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == '<') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + '"';
}

std::string number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// One body's shape as a JSON object (vertices, triangles, facet-outline edges),
// from the shape read_recording() read and checked.
std::string shape_json(const RecordedShape& shape, const std::string& name, bool is_static) {
  std::string out = "{\"name\":" + quoted(name) + ",\"static\":" + (is_static ? "true" : "false") +
                    ",\"kind\":" + quoted(shape.kind);
  if (shape.vertices.empty()) {  // a half-space
    const Vec3& n = shape.normal;
    return out + ",\"normal\":[" + number(n[0]) + "," + number(n[1]) + "," + number(n[2]) +
           "],\"offset\":" + number(shape.offset) + "}";
  }
  // facet outlines -> unique edges (an ordered set: the page is the same on every run)
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  const std::vector<int>& offsets = shape.facet_offsets;
  const std::vector<int>& loops = shape.facet_vertices;
  for (std::size_t f = 0; f + 1 < offsets.size(); ++f) {
    const int a = offsets[f], b = offsets[f + 1];
    for (int k = a; k < b; ++k) {
      const int u = loops[k], v = loops[k + 1 < b ? k + 1 : a];
      if (u != v) edges.emplace(std::min(u, v), std::max(u, v));
    }
  }
  std::vector<float> v32;
  for (const Vec3& v : shape.vertices)
    v32.insert(v32.end(), {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())});
  std::vector<std::uint32_t> t32;
  for (const auto& t : shape.triangles) t32.insert(t32.end(), t.begin(), t.end());
  std::vector<std::uint32_t> e32;
  for (const auto& [u, v] : edges) e32.insert(e32.end(), {u, v});
  return out + ",\"vertex_count\":" + std::to_string(shape.vertices.size()) + ",\"vertices\":" + b64(v32) +
         ",\"triangle_count\":" + std::to_string(t32.size() / 3) + ",\"triangles\":" + b64(t32) +
         ",\"edge_count\":" + std::to_string(edges.size()) + ",\"edges\":" + b64(e32) + "}";
}

struct Series {
  std::string label;
  std::vector<float> values;
};

std::string plot_json(const std::string& title, const std::string& unit, bool log, const std::vector<Series>& series) {
  std::string out = "{\"title\":" + quoted(title) + ",\"unit\":" + quoted(unit) + ",\"log\":" + (log ? "true" : "false") +
                    ",\"series\":[";
  for (std::size_t s = 0; s < series.size(); ++s) {
    if (s) out += ',';
    out += "{\"label\":" + quoted(series[s].label) + ",\"values\":" + b64(series[s].values) + "}";
  }
  return out + "]}";
}

// The per-row statistics the side panel plots. Energy and momentum are
// computed here from the recorded velocities as src/sim/world.cpp's
// mechanical_energy() and linear_momentum() do: kinetic + gravitational
// potential energy, and the total linear momentum of the moving bodies.
std::string plots_json(const Recording& rec, const Vec3& gravity) {
  const std::size_t n = rec.steps.size(), nb = rec.body_names.size();
  const auto column = [&](auto value) {
    std::vector<float> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<float>(value(rec.steps[k]));
    return v;
  };
  std::vector<float> energy(n), px(n), py(n), pz(n);
  for (std::size_t k = 0; k < n; ++k) {
    const RecordedStep& s = rec.steps[k];
    double e = 0.0;
    Vec3 p = Vec3::Zero();
    for (std::size_t b = 0; b < nb; ++b) {
      if (rec.body_static[b]) continue;
      const double m = rec.body_mass[b];
      const Mat3 R = s.orientation[b].normalized().toRotationMatrix();
      const Mat3 J = R * rec.body_inertia[b] * R.transpose();
      const Vec3& v = s.linear_velocity[b];
      const Vec3& w = s.angular_velocity[b];
      e += 0.5 * m * v.squaredNorm() + 0.5 * w.dot(J * w) - m * gravity.dot(s.position[b]);
      p += m * v;
    }
    energy[k] = static_cast<float>(e);
    px[k] = static_cast<float>(p.x());
    py[k] = static_cast<float>(p.y());
    pz[k] = static_cast<float>(p.z());
  }
  std::vector<Series> momentum = {{"px", px}, {"py", py}};
  if (rec.dimension == 3) momentum.push_back({"pz", pz});
  std::vector<std::string> plots = {
      plot_json("contacts", "", false,
                {{"model", column([](const RecordedStep& s) { return s.contacts.size(); })},
                 {"found", column([](const RecordedStep& s) { return s.contacts_found; })}}),
      plot_json("constraints U / I / X", "", false,
                {{"U", column([](const RecordedStep& s) { return s.constraints.u; })},
                 {"I", column([](const RecordedStep& s) { return s.constraints.i; })},
                 {"X", column([](const RecordedStep& s) { return s.constraints.x; })}}),
      plot_json("solver iterations", "", false,
                {{"iterations", column([](const RecordedStep& s) { return s.solver_iterations; })}}),
      plot_json("solver residuals", "", true,
                {{"compl.", column([](const RecordedStep& s) { return s.complementarity; })},
                 {"feas.", column([](const RecordedStep& s) { return s.feasibility; })}}),
      plot_json("energy", "J", false, {{"energy", energy}}),
      plot_json("linear momentum", "N s", false, momentum),
      plot_json("largest penetration", "m", false,
                {{"depth", column([](const RecordedStep& s) { return s.max_penetration; })}}),
      plot_json("standard-model traps", "", false, {{"traps", column([](const RecordedStep& s) { return s.traps; })}}),
  };
  if (!rec.joints.empty() && !rec.steps.front().joint_errors.empty())
    plots.push_back(plot_json("joint errors (after correction)", "", true,
                              {{"position", column([](const RecordedStep& s) { return s.joint_errors[2]; })},
                               {"velocity", column([](const RecordedStep& s) { return s.joint_errors[3]; })}}));
  if (!rec.joints.empty() && !rec.steps.front().joint_positions.empty()) {
    std::vector<Series> angles;
    for (std::size_t j = 0; j < rec.joints.size() && j < 8; ++j)  // the first eight: a plot stays readable
      angles.push_back({rec.joints[j].name, column([j](const RecordedStep& s) { return s.joint_positions[j]; })});
    plots.push_back(plot_json("joint coordinates", "rad or m", false, angles));
  }
  std::string out = "[";
  for (std::size_t i = 0; i < plots.size(); ++i) {
    if (i) out += ',';
    out += plots[i];
  }
  return out + "]";
}

// The joints the viewer draws: ends (-1: world), each end's anchor in its
// body frame, and A's joint axes x and z in A's body frame (the world's when
// A is the world). Recordings written before the frames were stored: none.
std::string joints_json(const Recording& rec) {
  std::string j = "[";
  bool first = true;
  // appended piecewise: GCC 12's -Wrestrict misfires on long operator+ chains
  auto vec = [](std::string& out, const char* key, const Vec3& v) {
    out += key;
    out += '[';
    for (int i = 0; i < 3; ++i) {
      if (i) out += ',';
      out += number(v[i]);
    }
    out += ']';
  };
  for (const RecordedJoint& joint : rec.joints) {
    if (joint.body_a < 0 && joint.body_b < 0) continue;  // no frames stored
    if (!first) j += ',';
    first = false;
    j += "{\"name\":";
    j += quoted(joint.name);
    j += ",\"kind\":";
    j += quoted(joint.kind);
    j += ",\"a\":";
    j += std::to_string(joint.body_a);
    j += ",\"b\":";
    j += std::to_string(joint.body_b);
    vec(j, ",\"anchor_a\":", joint.anchor_a);
    vec(j, ",\"anchor_b\":", joint.anchor_b);
    vec(j, ",\"x_a\":", joint.frame_a.col(0));
    vec(j, ",\"z_a\":", joint.frame_a.col(2));
    j += '}';
  }
  return j + "]";
}

}  // namespace

ReplayData replay_data(const std::string& path, std::size_t max_contacts) {
  const Recording rec = read_recording(path);  // checks every dataset, index and count, shapes included
  const Vec3& g = rec.gravity;
  const std::size_t n = rec.steps.size(), nb = rec.body_names.size();
  ReplayData out;
  out.complete = rec.complete;
  if (!rec.complete) out.note = incomplete_note(path, rec);

  out.rows = n;
  out.bodies = nb;
  std::vector<std::int32_t> step(n);
  std::vector<double> time(n);
  std::vector<float> poses;
  poses.reserve(n * nb * 7);
  std::vector<std::uint32_t> offset(n + 1, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const RecordedStep& s = rec.steps[k];
    step[k] = static_cast<std::int32_t>(s.step);
    time[k] = s.time;
    for (std::size_t b = 0; b < nb; ++b) {
      const Vec3& x = s.position[b];
      const Quat& q = s.orientation[b];
      poses.insert(poses.end(), {static_cast<float>(x.x()), static_cast<float>(x.y()), static_cast<float>(x.z()),
                                 static_cast<float>(q.w()), static_cast<float>(q.x()), static_cast<float>(q.y()),
                                 static_cast<float>(q.z())});
    }
    out.contacts += s.contacts.size();
  }
  out.contacts_included = out.contacts <= max_contacts;

  std::string j = "{\"format\":\"pegsim-replay\",\"version\":1,\"source\":" + quoted(path) +
                  ",\"dimension\":" + std::to_string(rec.dimension) + ",\"h\":" + number(rec.h) +
                  ",\"every\":" + std::to_string(rec.every) + ",\"model\":" + quoted(rec.model) +
                  ",\"solver\":" + quoted(rec.solver) + ",\"gravity\":[" + number(g[0]) + "," + number(g[1]) + "," +
                  number(g[2]) + "],\"rows\":" + std::to_string(n) + ",\"bodies\":[";
  for (std::size_t b = 0; b < nb; ++b) {
    if (b) j += ',';
    j += shape_json(rec.shapes[b], rec.body_names[b], rec.body_static[b]);
  }
  j += "],\"step\":" + b64(step) + ",\"time\":" + b64(time) + ",\"poses\":" + b64(poses) + ",\"contacts\":";
  if (out.contacts_included) {
    std::vector<float> point, normal;
    point.reserve(3 * out.contacts);
    normal.reserve(3 * out.contacts);
    for (std::size_t k = 0; k < n; ++k) {
      for (const Contact& c : rec.steps[k].contacts) {
        point.insert(point.end(), {static_cast<float>(c.point_a.x()), static_cast<float>(c.point_a.y()),
                                   static_cast<float>(c.point_a.z())});
        normal.insert(normal.end(), {static_cast<float>(c.normal.x()), static_cast<float>(c.normal.y()),
                                     static_cast<float>(c.normal.z())});
      }
      offset[k + 1] = static_cast<std::uint32_t>(point.size() / 3);
    }
    j += "{\"included\":true,\"count\":" + std::to_string(out.contacts) + ",\"offset\":" + b64(offset) +
         ",\"point\":" + b64(point) + ",\"normal\":" + b64(normal) + "}";
  } else {
    j += "{\"included\":false,\"note\":" +
         quoted(std::to_string(out.contacts) + " contacts left out (more than --max-contacts " +
                std::to_string(max_contacts) + ")") + "}";
  }
  j += ",\"joints\":";
  j += joints_json(rec);
  j += ",\"plots\":" + plots_json(rec, g) + "}";
  out.json = std::move(j);
  return out;
}

std::string replay_page(const std::string& title, const std::string& bundle, const std::string& data_json) {
  // "</script" cannot occur in the JSON (every '<' is escaped); in the bundle it
  // could only sit in a string or regular expression, where "<\/" means the same
  std::string script;
  script.reserve(bundle.size());
  for (std::size_t i = 0; i < bundle.size(); ++i) {
    script += bundle[i];
    if (bundle[i] == '<' && bundle.compare(i + 1, 7, "/script") == 0) script += '\\';
  }
  std::string t;
  for (const char c : title) t += c == '<' ? std::string("&lt;") : c == '&' ? std::string("&amp;") : std::string(1, c);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pegsim replay: " + t +
         "</title>\n<script>\n" + script + "\n</script>\n</head>\n<body>\n<p>Loading the recording&hellip;</p>\n"
         "<script id=\"pegsim-data\" type=\"application/json\">" + data_json + "</script>\n</body>\n</html>\n";
}

}  // namespace pegsim::cli
