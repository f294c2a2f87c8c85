// numpy <-> Eigen conversions with checked shapes.
#include "bindings.hpp"

#include <stdexcept>

namespace pegsim::python {

namespace {

Array matrix(long rows, long cols) { return Array(std::vector<py::ssize_t>{rows, cols}); }

std::string shape_text(const py::array& a) {
  std::string out = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) out += (i ? ", " : "") + std::to_string(a.shape(i));
  return out + (a.ndim() == 1 ? ",)" : ")");
}

Array as_array(py::handle value, const std::string& what) {
  Array a = Array::ensure(value);  // clears the Python error when it cannot convert
  if (!a) throw std::invalid_argument(what + ": expected numbers (a sequence or a numpy array)");
  return a;
}

}  // namespace

Array rows_of(const std::vector<Vec3>& rows) {
  Array out = matrix(static_cast<long>(rows.size()), 3);
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (int k = 0; k < 3; ++k) r(static_cast<py::ssize_t>(i), k) = rows[i][k];
  return out;
}

Array rows_of(const std::vector<Vec2>& rows) {
  Array out = matrix(static_cast<long>(rows.size()), 2);
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (int k = 0; k < 2; ++k) r(static_cast<py::ssize_t>(i), k) = rows[i][k];
  return out;
}

Array vector_of(const Vec3& v) {
  Array out(3);
  for (int k = 0; k < 3; ++k) out.mutable_at(k) = v[k];
  return out;
}

Array matrix_of(const Mat3& m) {
  Array out = matrix(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.mutable_at(i, j) = m(i, j);
  return out;
}

Vec3 vec3_from(py::handle value, const std::string& what, bool allow_2d) {
  const Array a = as_array(value, what);
  const bool ok = a.ndim() == 1 && (a.shape(0) == 3 || (allow_2d && a.shape(0) == 2));
  if (!ok)
    throw std::invalid_argument(what + ": expected " + (allow_2d ? "2 or 3" : "3") + " numbers, got shape " +
                                shape_text(a));
  Vec3 v = Vec3::Zero();
  for (py::ssize_t k = 0; k < a.shape(0); ++k) v[k] = a.at(k);
  return v;
}

std::vector<double> numbers_from(py::handle value, long n, const std::string& what) {
  const Array a = as_array(value, what);
  if (a.ndim() != 1 || a.shape(0) != n)
    throw std::invalid_argument(what + ": expected " + std::to_string(n) + " numbers, got shape " + shape_text(a));
  std::vector<double> out(static_cast<std::size_t>(n));
  for (long k = 0; k < n; ++k) out[static_cast<std::size_t>(k)] = a.at(k);
  return out;
}

std::vector<std::vector<double>> table_from(py::handle value, long rows, long cols, const std::string& what) {
  const Array a = as_array(value, what);
  if (a.ndim() != 2 || a.shape(1) != cols || (rows >= 0 && a.shape(0) != rows))
    throw std::invalid_argument(what + ": expected an array of shape (" + (rows >= 0 ? std::to_string(rows) : "n") +
                                ", " + std::to_string(cols) + "), got shape " + shape_text(a));
  std::vector<std::vector<double>> out(static_cast<std::size_t>(a.shape(0)), std::vector<double>(cols));
  auto r = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    for (long k = 0; k < cols; ++k) out[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] = r(i, k);
  return out;
}

}  // namespace pegsim::python
