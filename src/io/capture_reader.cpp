#include "io/capture_reader.hpp"

#include <hdf5.h>

#include <cstdio>

namespace pegsim {
namespace {

using h5::Reader;

// rows of the largest problem read: its dense A takes 8 n^2 bytes (2 GiB); the
// simulation's own limit, max_problem_size, defaults to 4000 (docs/reliability.md)
constexpr hsize_t kMaxRows = 16384;

bool has_attribute(const Reader& r, const std::string& object, const std::string& name) {
  return H5Aexists_by_name(r.root(), object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

int read_one_int(const Reader& r, const std::string& path) {
  return r.dataset<std::int32_t>(path, {1}).front();
}

MatX read_matrix(const Reader& r, const std::string& group, int n) {
  const std::string storage = r.string_attribute(group, "storage");
  const auto un = static_cast<hsize_t>(n);
  MatX A = MatX::Zero(n, n);
  if (storage == "dense") {
    const std::vector<double> d = r.dataset<double>(group + "/dense", {un, un});
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) = d[static_cast<std::size_t>(i) * un + static_cast<std::size_t>(j)];
    return A;
  }
  if (storage != "csr") h5::fail(r.file(), group, "unknown storage '" + storage + "' (dense|csr)");
  const auto indptr = r.dataset<std::int32_t>(group + "/indptr", {un + 1});
  const auto indices = r.dataset<std::int32_t>(group + "/indices", {0});
  const auto data = r.dataset<double>(group + "/data", {indices.size()});
  if (indptr.front() != 0 || indptr.back() != static_cast<std::int32_t>(data.size()))
    h5::fail(r.file(), group + "/indptr", "does not span indices");
  // all of indptr first: a row ending past the data with a later row
  // decreasing again read past the arrays (found by fuzz/fuzz_capture.cpp)
  for (int i = 0; i < n; ++i)
    if (indptr[i] > indptr[i + 1]) h5::fail(r.file(), group + "/indptr", "decreases at row " + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    for (std::int32_t k = indptr[i]; k < indptr[i + 1]; ++k) {
      if (indices[k] < 0 || indices[k] >= n)
        h5::fail(r.file(), group + "/indices", "entry " + std::to_string(k) + " is outside the matrix");
      A(i, indices[k]) = data[k];
    }
  }
  return A;
}

// Jacobian rows from <prefix>body_a, <prefix>body_b [rows] and <prefix>ja,
// <prefix>jb [rows, 6] (rows 0: as many as stored), every body below `bodies`.
std::vector<JacobianRow> read_rows(const Reader& r, const std::string& g, const std::string& prefix, hsize_t rows,
                                   std::size_t bodies) {
  const auto body_a = r.dataset<std::uint32_t>(g + "/" + prefix + "body_a", {rows});
  const hsize_t count = body_a.size();
  const auto body_b = r.dataset<std::uint32_t>(g + "/" + prefix + "body_b", {count});
  const auto ja = r.dataset<double>(g + "/" + prefix + "ja", {count, 6});
  const auto jb = r.dataset<double>(g + "/" + prefix + "jb", {count, 6});
  std::vector<JacobianRow> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    JacobianRow& row = out[i];
    row.body_a = body_a[i];
    row.body_b = body_b[i];
    for (int k = 0; k < 6; ++k) {
      row.ja(k) = ja[6 * i + k];
      row.jb(k) = jb[6 * i + k];
    }
    for (std::uint32_t b : {row.body_a, row.body_b})
      if (b != kNoBody && b >= bodies)
        h5::fail(r.file(), g + "/" + prefix + "body_a",
                 "row " + std::to_string(i) + " names body " + std::to_string(b) + " of " + std::to_string(bodies));
  }
  return out;
}

LcpStructure read_structure(const Reader& r, const std::string& g, int n) {
  LcpStructure s;
  const auto un = static_cast<hsize_t>(n);
  const auto minv = r.dataset<double>(g + "/inverse_mass", {0, 6, 6});
  const auto crow = r.dataset<std::int32_t>(g + "/coupling_row", {0});
  const auto ccol = r.dataset<std::int32_t>(g + "/coupling_col", {crow.size()});
  const auto cval = r.dataset<double>(g + "/coupling_value", {crow.size()});
  const std::size_t bodies = minv.size() / 36;
  s.rows = read_rows(r, g, "", un, bodies);
  s.inverse_mass.resize(bodies);
  for (std::size_t b = 0; b < bodies; ++b)
    for (int i = 0; i < 36; ++i) s.inverse_mass[b](i / 6, i % 6) = minv[36 * b + i];
  for (std::size_t k = 0; k < crow.size(); ++k) {
    if (crow[k] < 0 || crow[k] >= n || ccol[k] < 0 || ccol[k] >= n)
      h5::fail(r.file(), g + "/coupling_row", "entry " + std::to_string(k) + " is outside the matrix");
    s.coupling.push_back({crow[k], ccol[k], cval[k]});
  }
  if (!r.exists(g + "/measure_body_a")) return s;  // R = G
  const std::vector<hsize_t> measured = r.dims(g + "/measure_body_a");
  if (measured.size() != 1 || measured[0] > un)
    h5::fail(r.file(), g + "/measure_body_a", "must hold at most " + std::to_string(n) + " rows");
  s.measures = read_rows(r, g, "measure_", measured[0], bodies);
  return s;
}

CapturedProblem read_problem(const Reader& r, const std::string& g) {
  CapturedProblem out;
  out.file = r.file();
  out.group = g;
  out.info.step = r.int_attribute(g, "step");
  out.info.island = r.int_attribute(g, "island");
  out.info.time = r.double_attribute(g, "time");
  out.info.h = r.double_attribute(g, "h");
  out.info.spacedim = r.int_attribute(g, "spacedim");
  out.info.model = r.string_attribute(g, "model");
  out.info.solver = r.string_attribute(g, "solver");
  out.info.solver_status = r.string_attribute(g, "solver_status");

  LcpProblem& p = out.lcp;
  // the row count bounds every allocation below (A is held dense, n^2)
  const std::vector<hsize_t> b_dims = r.dims(g + "/b");
  if (b_dims.size() == 1 && b_dims[0] > kMaxRows)
    h5::fail(r.file(), g + "/b", "a problem of " + std::to_string(b_dims[0]) + " rows, over the reader's limit of " +
                                     std::to_string(kMaxRows) + " (a dense A of 2 GiB)");
  const std::vector<double> b = r.dataset<double>(g + "/b", {0});
  const int n = static_cast<int>(b.size());
  p.b = Eigen::Map<const VecX>(b.data(), n);
  p.A = read_matrix(r, g + "/A", n);
  auto optional_rows = [&](const std::string& name) {  // 0 (absent) or n entries
    const std::string path = g + "/" + name;
    const std::vector<hsize_t> d = r.dims(path);
    if (d.size() != 1 || (d[0] != 0 && d[0] != static_cast<hsize_t>(n)))
      h5::fail(r.file(), path, "must hold 0 or " + std::to_string(n) + " entries");
    return path;
  };
  for (std::uint8_t v : r.dataset<std::uint8_t>(optional_rows("bound"), {0})) {
    if (v > static_cast<std::uint8_t>(RowBound::Free)) h5::fail(r.file(), g + "/bound", "unknown bound " + std::to_string(v));
    p.bound.push_back(static_cast<RowBound>(v));
  }
  for (std::uint8_t v : r.dataset<std::uint8_t>(optional_rows("role"), {0})) {
    if (v > static_cast<std::uint8_t>(RowRole::Other)) h5::fail(r.file(), g + "/role", "unknown role " + std::to_string(v));
    p.role.push_back(static_cast<RowRole>(v));
  }
  for (std::int32_t c : r.dataset<std::int32_t>(optional_rows("contact_of"), {0})) {
    if (c < -1 || c >= n) h5::fail(r.file(), g + "/contact_of", "row " + std::to_string(c) + " is outside the problem");
    p.contact_of.push_back(c);
  }
  if (r.exists(g + "/structure")) p.structure = read_structure(r, g + "/structure", n);
  return out;
}

}  // namespace

std::vector<CapturedProblem> read_captured_problems(const std::string& file) {
  h5::QuietErrors quiet;
  Reader r(file);
  if (!has_attribute(r, "/", "format") || r.string_attribute("/", "format") != "pegsim-capture")
    h5::fail(file, "/", "not a pegsim capture file (root attribute format != 'pegsim-capture')");
  const int count = r.int_attribute("/", "count");
  if (count < 0) h5::fail(file, "/", "attribute 'count' is negative (" + std::to_string(count) + ")");
  std::vector<CapturedProblem> out;
  for (int k = 0; k < count; ++k) {
    char name[40];
    std::snprintf(name, sizeof name, "/problems/%06d", k);
    out.push_back(read_problem(r, name));
  }
  return out;
}

FclibLocal read_fclib_local(const std::string& file, const std::string& g) {
  h5::QuietErrors quiet;
  Reader r(file);
  FclibLocal f;
  f.spacedim = read_one_int(r, g + "/spacedim");
  SparseCsc& W = f.W;
  W.m = read_one_int(r, g + "/W/m");
  W.n = read_one_int(r, g + "/W/n");
  const int nzmax = read_one_int(r, g + "/W/nzmax");
  if (read_one_int(r, g + "/W/nz") != -1) h5::fail(file, g + "/W/nz", "only compressed-column storage (nz = -1) is read");
  if (f.spacedim < 2 || f.spacedim > 3 || W.m != W.n || W.m % f.spacedim != 0 || nzmax < 0)
    h5::fail(file, g, "inconsistent spacedim / W sizes");
  W.p = r.dataset<std::int32_t>(g + "/W/p", {static_cast<hsize_t>(W.n) + 1});
  W.i = r.dataset<std::int32_t>(g + "/W/i", {static_cast<hsize_t>(nzmax)});
  W.x = r.dataset<double>(g + "/W/x", {static_cast<hsize_t>(nzmax)});
  for (int c = 0; c < W.n; ++c)
    for (std::int32_t k = W.p[c]; k < W.p[c + 1]; ++k)
      if (k < 0 || k >= nzmax || W.i[k] < 0 || W.i[k] >= W.m) h5::fail(file, g + "/W", "entry outside the matrix");
  f.contacts = W.m / f.spacedim;
  f.q = r.dataset<double>(g + "/vectors/q", {static_cast<hsize_t>(W.m)});
  f.mu = r.dataset<double>(g + "/vectors/mu", {static_cast<hsize_t>(f.contacts)});
  return f;
}

}  // namespace pegsim
