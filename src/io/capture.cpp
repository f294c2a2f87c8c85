// The capture layout (docs/capture-format.md), written with io/h5.hpp.
#include "io/capture.hpp"

#include "io/fclib_local.hpp"

#include <cmath>
#include <cstdio>

namespace pegsim {
namespace {

constexpr int kFormatVersion = 1;

// A stored entry: anything but +0.0, so -0.0 survives the round trip bit for bit.
bool stored(double v) { return v != 0.0 || std::signbit(v); }

template <class T, class F>
std::vector<T> per_row(std::size_t n, F f) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = f(i);
  return out;
}

// A large array, chunked and deflated (h5::Column): rows of `row_shape`.
template <class T>
void packed(const h5::Writer& w, hid_t parent, const char* name, const std::vector<hsize_t>& row_shape,
            const std::vector<T>& data) {
  std::size_t row = 1;
  for (hsize_t d : row_shape) row *= static_cast<std::size_t>(d);
  h5::Column column = h5::Column::of<T>(w, parent, name, row_shape);
  for (std::size_t k = 0; k + row <= data.size(); k += row) column.append(data.data() + k);
  column.close();
}

// A: dense [n, n] row-major, or CSR when at most a third of the entries are stored
void write_matrix(const h5::Writer& w, hid_t parent, const MatX& A) {
  const auto n = static_cast<hsize_t>(A.rows());
  h5::Handle group = w.create_group(parent, "A");
  std::vector<std::int32_t> indptr{0}, indices;
  std::vector<double> data;
  for (Eigen::Index r = 0; r < A.rows(); ++r) {
    for (Eigen::Index c = 0; c < A.cols(); ++c)
      if (stored(A(r, c))) {
        indices.push_back(static_cast<std::int32_t>(c));
        data.push_back(A(r, c));
      }
    indptr.push_back(static_cast<std::int32_t>(data.size()));
  }
  if (3 * data.size() <= n * n) {
    w.attribute(group.get(), "storage", std::string("csr"));
    w.dataset(group.get(), "indptr", {n + 1}, indptr);
    packed(w, group.get(), "indices", {}, indices);
    packed(w, group.get(), "data", {}, data);
  } else {
    w.attribute(group.get(), "storage", std::string("dense"));
    std::vector<double> dense(static_cast<std::size_t>(n * n));
    for (hsize_t r = 0; r < n; ++r)
      for (hsize_t c = 0; c < n; ++c) dense[r * n + c] = A(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
    packed(w, group.get(), "dense", {n}, dense);
  }
}

void write_structure(const h5::Writer& w, hid_t parent, const LcpStructure& s) {
  h5::Handle group = w.create_group(parent, "structure");
  const std::size_t rows = s.rows.size(), bodies = s.inverse_mass.size(), k = s.coupling.size();
  w.dataset(group.get(), "body_a", {rows}, per_row<std::uint32_t>(rows, [&](std::size_t i) { return s.rows[i].body_a; }));
  w.dataset(group.get(), "body_b", {rows}, per_row<std::uint32_t>(rows, [&](std::size_t i) { return s.rows[i].body_b; }));
  packed(w, group.get(), "ja", {6}, per_row<double>(6 * rows, [&](std::size_t i) { return s.rows[i / 6].ja(i % 6); }));
  packed(w, group.get(), "jb", {6}, per_row<double>(6 * rows, [&](std::size_t i) { return s.rows[i / 6].jb(i % 6); }));
  w.dataset(group.get(), "inverse_mass", {bodies, 6, 6}, per_row<double>(36 * bodies, [&](std::size_t i) {
              return s.inverse_mass[i / 36]((i % 36) / 6, i % 6);  // row-major 6 x 6 blocks
            }));
  w.dataset(group.get(), "coupling_row", {k}, per_row<std::int32_t>(k, [&](std::size_t i) { return s.coupling[i].row; }));
  w.dataset(group.get(), "coupling_col", {k}, per_row<std::int32_t>(k, [&](std::size_t i) { return s.coupling[i].col; }));
  w.dataset(group.get(), "coupling_value", {k}, per_row<double>(k, [&](std::size_t i) { return s.coupling[i].value; }));
  const std::size_t m = s.measures.size();  // PEG's R - G of the first m rows (absent: R = G)
  if (m == 0) return;
  const std::vector<JacobianRow>& x = s.measures;
  w.dataset(group.get(), "measure_body_a", {m}, per_row<std::uint32_t>(m, [&](std::size_t i) { return x[i].body_a; }));
  w.dataset(group.get(), "measure_body_b", {m}, per_row<std::uint32_t>(m, [&](std::size_t i) { return x[i].body_b; }));
  packed(w, group.get(), "measure_ja", {6}, per_row<double>(6 * m, [&](std::size_t i) { return x[i / 6].ja(i % 6); }));
  packed(w, group.get(), "measure_jb", {6}, per_row<double>(6 * m, [&](std::size_t i) { return x[i / 6].jb(i % 6); }));
}

// fclib's local problem group (see fclib_local.hpp): one-element int datasets
// for the sizes, W compressed-column (nz = -1), vectors/q and vectors/mu
void write_fclib(const h5::Writer& w, hid_t parent, const FclibLocal& f) {
  h5::Handle group = w.create_group(parent, "fclib_local");
  w.attribute(group.get(), "numberOfContacts", static_cast<std::int32_t>(f.contacts));
  w.attribute(group.get(), "description",
              std::string("Stewart-Trinkle LCP (thesis eq. 6.1) as a local frictional contact problem: "
                          "r = (r_n, r_t1[, r_t2]) per contact, W = H M^-1 H', q = H nu* (+ psi_n/h)"));
  auto one = [&](hid_t g, const char* name, int value) {
    w.dataset(g, name, {1}, std::vector<std::int32_t>{value});
  };
  one(group.get(), "spacedim", f.spacedim);
  h5::Handle W = w.create_group(group.get(), "W");
  one(W.get(), "nzmax", static_cast<int>(f.W.x.size()));
  one(W.get(), "m", f.W.m);
  one(W.get(), "n", f.W.n);
  one(W.get(), "nz", -1);  // compressed column
  w.dataset(W.get(), "p", {f.W.p.size()}, f.W.p);
  packed(w, W.get(), "i", {}, f.W.i);
  packed(w, W.get(), "x", {}, f.W.x);
  h5::Handle vectors = w.create_group(group.get(), "vectors");
  w.dataset(vectors.get(), "q", {f.q.size()}, f.q);
  w.dataset(vectors.get(), "mu", {f.mu.size()}, f.mu);
}

}  // namespace

CaptureWriter::CaptureWriter(std::string file, const std::string& source) : writer_(std::move(file)) {
  file_ = writer_.create_file();
  writer_.attribute(file_.get(), "format", std::string("pegsim-capture"));
  writer_.attribute(file_.get(), "version", static_cast<std::int32_t>(kFormatVersion));
  writer_.attribute(file_.get(), "source", source);
  problems_ = writer_.create_group(file_.get(), "problems");
}

CaptureWriter::~CaptureWriter() {
  try {
    close();
  } catch (...) {  // a destructor must not throw; close() explicitly to see the error
  }
}

std::string CaptureWriter::add(const LcpProblem& p, const CaptureInfo& info) {
  char name[32];
  std::snprintf(name, sizeof name, "%06d", count_);
  const h5::Writer& w = writer_;
  h5::Handle group = w.create_group(problems_.get(), name);
  w.attribute(group.get(), "step", static_cast<std::int32_t>(info.step));
  w.attribute(group.get(), "island", static_cast<std::int32_t>(info.island));
  w.attribute(group.get(), "time", info.time);
  w.attribute(group.get(), "h", info.h);
  w.attribute(group.get(), "spacedim", static_cast<std::int32_t>(info.spacedim));
  w.attribute(group.get(), "model", info.model);
  w.attribute(group.get(), "solver", info.solver);
  w.attribute(group.get(), "solver_status", info.solver_status);

  const auto n = static_cast<std::size_t>(p.size());
  write_matrix(w, group.get(), p.A);
  w.dataset(group.get(), "b", {n}, std::vector<double>(p.b.data(), p.b.data() + n));
  w.dataset(group.get(), "bound", {p.bound.size()},
            per_row<std::uint8_t>(p.bound.size(), [&](std::size_t i) { return static_cast<std::uint8_t>(p.bound[i]); }));
  w.dataset(group.get(), "role", {p.role.size()},
            per_row<std::uint8_t>(p.role.size(), [&](std::size_t i) { return static_cast<std::uint8_t>(p.role[i]); }));
  w.dataset(group.get(), "contact_of", {p.contact_of.size()},
            per_row<std::int32_t>(p.contact_of.size(), [&](std::size_t i) { return p.contact_of[i]; }));
  if (!p.structure.empty()) write_structure(w, group.get(), p.structure);

  FclibLocal fclib;
  std::string why;
  if (make_fclib_local(p, info.spacedim, fclib, why)) {
    write_fclib(w, group.get(), fclib);
    ++fclib_count_;
  } else {
    w.attribute(group.get(), "fclib_skipped", why);
  }
  ++count_;
  return std::string("/problems/") + name;
}

void CaptureWriter::close() {
  if (!file_) return;
  writer_.attribute(file_.get(), "count", static_cast<std::int32_t>(count_));
  writer_.attribute(file_.get(), "fclib_count", static_cast<std::int32_t>(fclib_count_));
  problems_.reset();
  if (file_.reset() < 0) h5::fail(writer_.file(), "", "cannot close the capture file");
}

}  // namespace pegsim
