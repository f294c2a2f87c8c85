// The body shapes of a recording (/bodies/shape_<i>, docs/recording-format.md),
// read and checked once for every reader (replay's page, plot, Python).
#include "geometry/shape.hpp"
#include "io/recording_reader_parts.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim::recording_reader {

RecordedShape read_shape(const h5::Reader& r, std::size_t body) {
  const std::string g = "/bodies/shape_" + std::to_string(body);
  if (!r.exists(g)) h5::fail(r.file(), g, "missing shape group");
  RecordedShape s;
  s.kind = r.string_attribute(g, "kind");
  const std::optional<std::size_t> known = find_shape_kind(s.kind);
  if (!known) h5::fail(r.file(), g, "unknown shape kind '" + s.kind + "'");
  if (*known == kind_index<HalfSpace>) {
    const std::vector<double> n = r.double_attributes(g, "normal", 3);
    s.normal = Vec3(n[0], n[1], n[2]);
    s.offset = r.double_attribute(g, "offset");
    if (!s.normal.allFinite() || std::abs(s.normal.norm() - 1.0) > 1e-6 || !std::isfinite(s.offset))
      h5::fail(r.file(), g, "a half-space needs a finite unit normal and a finite offset");
    return s;
  }
  // every bounded kind: its mesh (a compound: its parts' meshes one after another)
  const auto vertices = r.dataset<double>(g + "/vertices", {0, 3});
  const std::size_t nv = vertices.size() / 3;
  if (nv == 0) h5::fail(r.file(), g + "/vertices", "no vertices");
  for (std::size_t v = 0; v < nv; ++v) s.vertices.push_back(vec3_at(vertices, v));
  const auto in_range = [&](std::int32_t v) { return v >= 0 && static_cast<std::size_t>(v) < nv; };
  const auto triangles = r.dataset<std::int32_t>(g + "/triangles", {0, 3});
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    for (std::size_t k = 0; k < 3; ++k)
      if (!in_range(triangles[t + k]))
        h5::fail(r.file(), g + "/triangles",
                 "vertex index " + std::to_string(triangles[t + k]) + " out of range in triangle " + std::to_string(t / 3));
    s.triangles.push_back({triangles[t], triangles[t + 1], triangles[t + 2]});
  }
  const auto offsets = r.dataset<std::int32_t>(g + "/facet_offsets", {0});
  const auto loops = r.dataset<std::int32_t>(g + "/facet_vertices", {0});
  if (offsets.empty() || offsets.front() != 0 || static_cast<std::size_t>(offsets.back()) != loops.size())
    h5::fail(r.file(), g + "/facet_offsets", "must start at 0 and end at the length of facet_vertices");
  for (std::size_t f = 0; f + 1 < offsets.size(); ++f)
    if (offsets[f + 1] < offsets[f]) h5::fail(r.file(), g + "/facet_offsets", "decreases at facet " + std::to_string(f));
  for (std::size_t k = 0; k < loops.size(); ++k)
    if (!in_range(loops[k]))
      h5::fail(r.file(), g + "/facet_vertices", "vertex index " + std::to_string(loops[k]) + " out of range at entry " + std::to_string(k));
  s.facet_offsets.assign(offsets.begin(), offsets.end());
  s.facet_vertices.assign(loops.begin(), loops.end());
  r.dataset<double>(g + "/facet_normals", {offsets.size() - 1, 3});  // present, one per facet
  if (r.exists(g + "/part_offsets")) {
    const auto parts = r.dataset<std::int32_t>(g + "/part_offsets", {0});
    for (std::size_t k = 0; k < parts.size(); ++k)
      if (!in_range(parts[k]) || (k > 0 && parts[k] < parts[k - 1]))
        h5::fail(r.file(), g + "/part_offsets", "part " + std::to_string(k) + " starts outside the vertices or before the previous part");
  }
  return s;
}

std::size_t feature_bound(const RecordedShape& shape) {
  return std::max({std::size_t{64}, shape.vertices.size(), shape.facet_offsets.size(), shape.facet_vertices.size()});
}

}  // namespace pegsim::recording_reader
