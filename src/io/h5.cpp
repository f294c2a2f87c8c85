#include "io/h5.hpp"

#include "io/h5_heap_check.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <sstream>

namespace pegsim::h5 {

namespace {

// the innermost (most specific) message of the thread's HDF5 error stack
std::string innermost_error() {
  std::string message;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        if (n == 0 && e->desc) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &message);
  // a failed read or write of the file driver: "file write failed: time = ...,
  // filename = ..., errno = 28, error message = 'No space left on device', ..."
  // -> "file write failed: No space left on device" (no clock time in messages)
  const std::size_t colon = message.find(": time = ");
  const std::size_t why = message.find("error message = '");
  if (colon != std::string::npos && why != std::string::npos) {
    const std::size_t start = why + 17, end = message.find('\'', start);
    std::string shorter = message.substr(0, colon);
    shorter += ": ";
    shorter += message.substr(start, end == std::string::npos ? std::string::npos : end - start);
    message = shorter;
  }
  return message;
}

std::string shape_text(const std::vector<hsize_t>& dims, bool star_zero) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) out << ", ";
    if (star_zero && dims[i] == 0) out << '*'; else out << dims[i];
  }
  out << ']';
  return out.str();
}

std::string join_path(const std::string& parent, const std::string& name) {
  return name.empty() || name.front() == '/' ? name : parent + "/" + name;
}

// every object this module creates: no access/modification/change/birth times
Handle creation_plist(hid_t cls) {
  Handle plist(H5Pcreate(cls), H5Pclose);
  H5Pset_obj_track_times(plist.get(), 0);
  return plist;
}

Handle vlen_string_type() {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

Handle simple_space(const std::vector<hsize_t>& dims) {
  if (dims.empty()) return Handle(H5Screate(H5S_SCALAR), H5Sclose);
  return Handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
}

std::string object_name(hid_t object) {
  const ssize_t n = H5Iget_name(object, nullptr, 0);
  if (n <= 0) return "/";
  std::string name(static_cast<std::size_t>(n) + 1, '\0');
  H5Iget_name(object, name.data(), name.size());
  name.resize(static_cast<std::size_t>(n));
  return name;
}

// a scalar attribute read into one value must hold exactly one
void check_scalar(const std::string& file, const std::string& object, const std::string& name, hid_t attr) {
  Handle space(H5Aget_space(attr), H5Sclose);
  if (!space || H5Sget_simple_extent_npoints(space.get()) != 1)
    fail(file, object, "attribute '" + name + "' must hold one value");
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_;
    closer_ = o.closer_;
    o.id_ = -1;
  }
  return *this;
}

herr_t Handle::reset() {
  herr_t status = 0;
  if (id_ >= 0 && closer_) status = closer_(id_);
  id_ = -1;
  return status;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

void quiet_process() {
  skip_shutdown_at_exit();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

void skip_shutdown_at_exit() {
  H5dont_atexit();  // before the library starts: it registers its exit handler then
  H5open();
}

void fail(const std::string& file, const std::string& object, const std::string& what) {
  const std::string detail = innermost_error();
  std::string message = file + ": ";
  if (!object.empty()) message += object + ": ";
  message += what;
  if (!detail.empty()) message += " (HDF5: " + detail + ")";
  throw RecordingError(message);
}

// ---- Writer ----------------------------------------------------------------------

Handle Writer::create_file() const {
  Handle fcpl = creation_plist(H5P_FILE_CREATE);  // the root group's times too
  // the HDF5 1.10 file format: chunk indices and groups about 2.5 times smaller
  // than the 1.8-compatible default; readable by HDF5 >= 1.10 (h5py >= 2.8)
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110);
  Handle file(H5Fcreate(file_.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose);
  if (!file) fail(file_, "", "cannot create the recording file");
  return file;
}

void Writer::start_swmr(hid_t file) const {
  if (H5Fstart_swmr_write(file) < 0) fail(file_, "", "cannot start SWMR writing");
}

void Writer::flush(hid_t file) const {
  if (H5Fflush(file, H5F_SCOPE_LOCAL) < 0) fail(file_, "", "cannot write the file");
}

Handle Writer::create_group(hid_t parent, const std::string& path) const {
  Handle gcpl = creation_plist(H5P_GROUP_CREATE);
  Handle group(H5Gcreate2(parent, path.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
  if (!group) fail(file_, join_path(object_name(parent), path), "cannot create group");
  return group;
}

namespace {

void write_attribute(const std::string& file, hid_t object, const std::string& name, hid_t type,
                     const std::vector<hsize_t>& dims, const void* data) {
  Handle space = simple_space(dims);
  Handle attr(H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
  if (!attr || H5Awrite(attr.get(), type, data) < 0)
    fail(file, object_name(object), "cannot write attribute '" + name + "'");
}

}  // namespace

void Writer::attribute(hid_t object, const std::string& name, const std::string& value) const {
  Handle type = vlen_string_type();
  const char* text = value.c_str();
  write_attribute(file_, object, name, type.get(), {}, &text);
}

void Writer::attribute(hid_t object, const std::string& name,
                       const std::vector<std::string>& values) const {
  Handle type = vlen_string_type();
  std::vector<const char*> texts;
  for (const std::string& v : values) texts.push_back(v.c_str());
  write_attribute(file_, object, name, type.get(), {values.size()}, texts.data());
}

void Writer::attribute(hid_t object, const std::string& name, double value) const {
  write_attribute(file_, object, name, H5T_NATIVE_DOUBLE, {}, &value);
}

void Writer::attribute(hid_t object, const std::string& name, std::int32_t value) const {
  write_attribute(file_, object, name, H5T_NATIVE_INT32, {}, &value);
}

void Writer::attribute(hid_t object, const std::string& name, const std::vector<double>& values) const {
  write_attribute(file_, object, name, H5T_NATIVE_DOUBLE, {values.size()}, values.data());
}

void Writer::write_dataset(hid_t parent, const std::string& path, const std::vector<hsize_t>& dims,
                           hid_t file_type, hid_t memory_type, const void* data) const {
  Handle space = simple_space(dims);
  Handle dcpl = creation_plist(H5P_DATASET_CREATE);
  Handle set(H5Dcreate2(parent, path.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(),
                        H5P_DEFAULT),
             H5Dclose);
  const hsize_t count = std::accumulate(dims.begin(), dims.end(), hsize_t{1}, std::multiplies<>());
  if (!set || (count > 0 && H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0))
    fail(file_, join_path(object_name(parent), path), "cannot write dataset");
}

void Writer::strings(hid_t parent, const std::string& path, const std::vector<std::string>& values) const {
  Handle type = vlen_string_type();
  std::vector<const char*> texts;
  for (const std::string& v : values) texts.push_back(v.c_str());
  write_dataset(parent, path, {values.size()}, type.get(), type.get(), texts.data());
}

void Writer::string_scalar(hid_t parent, const std::string& path, const std::string& value) const {
  Handle type = vlen_string_type();
  const char* text = value.c_str();
  write_dataset(parent, path, {}, type.get(), type.get(), &text);
}

// ---- Column ----------------------------------------------------------------------

Column::Column(const Writer& writer, hid_t parent, const std::string& path,
               const std::vector<hsize_t>& row_shape, hid_t file_type, hid_t memory_type,
               std::size_t element_size, hsize_t max_chunk_rows)
    : file_(writer.file()), path_(join_path(object_name(parent), path)), row_shape_(row_shape),
      memory_type_(memory_type) {
  const hsize_t row_elements =
      std::accumulate(row_shape.begin(), row_shape.end(), hsize_t{1}, std::multiplies<>());
  row_bytes_ = static_cast<std::size_t>(row_elements) * element_size;
  chunk_rows_ = std::clamp<hsize_t>(32768 / std::max<std::size_t>(row_bytes_, 1), 1, std::max<hsize_t>(max_chunk_rows, 1));

  std::vector<hsize_t> dims{0}, max_dims{H5S_UNLIMITED}, chunk{chunk_rows_};
  for (hsize_t d : row_shape) {
    dims.push_back(d);
    max_dims.push_back(d);
    chunk.push_back(d);
  }
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.data()), H5Sclose);
  Handle dcpl = creation_plist(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data());
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    H5Pset_shuffle(dcpl.get());
    H5Pset_deflate(dcpl.get(), 1);
  }
  dataset_ = Handle(H5Dcreate2(parent, path.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(),
                               H5P_DEFAULT),
                    H5Dclose);
  if (!dataset_) fail(file_, path_, "cannot create dataset");
  pending_.reserve(static_cast<std::size_t>(chunk_rows_) * row_bytes_);
}

void Column::append_bytes(const void* row) {
  if (row_bytes_ == 0) return;  // rows of no elements: nothing to store
  const auto* bytes = static_cast<const unsigned char*>(row);
  pending_.insert(pending_.end(), bytes, bytes + row_bytes_);
  // written at chunk boundaries: after an early flush() of a partial chunk the
  // next write completes that chunk, and every later one is a whole chunk
  if ((written_ + pending_.size() / row_bytes_) % chunk_rows_ == 0) flush();
}

void Column::flush() {
  if (!dataset_ || row_bytes_ == 0 || pending_.empty()) return;
  const hsize_t rows = pending_.size() / row_bytes_;
  std::vector<hsize_t> extent{written_ + rows}, start{written_}, count{rows};
  for (hsize_t d : row_shape_) {
    extent.push_back(d);
    start.push_back(0);
    count.push_back(d);
  }
  const int rank = static_cast<int>(extent.size());
  bool ok = H5Dset_extent(dataset_.get(), extent.data()) >= 0;
  Handle file_space(ok ? H5Dget_space(dataset_.get()) : -1, H5Sclose);
  Handle memory_space(H5Screate_simple(rank, count.data(), nullptr), H5Sclose);
  ok = ok && file_space &&
       H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                           nullptr) >= 0 &&
       H5Dwrite(dataset_.get(), memory_type_, memory_space.get(), file_space.get(), H5P_DEFAULT,
                pending_.data()) >= 0;
  if (!ok) fail(file_, path_, "cannot append rows " + std::to_string(written_) + ".." +
                                  std::to_string(written_ + rows - 1));
  written_ += rows;
  pending_.clear();
}

void Column::close() {
  flush();
  if (dataset_.reset() < 0) fail(file_, path_, "cannot close dataset");
}

// ---- Reader ----------------------------------------------------------------------

Reader::Reader(std::string file) : file_(std::move(file)) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file_, ec)) fail(file_, "", "no such recording file");
  if (H5Fis_hdf5(file_.c_str()) <= 0) fail(file_, "", "not an HDF5 file");
  check_global_heaps(file_);  // before HDF5 parses one (io/h5_heap_check.hpp: a hang in HDF5 1.10)
  file_bytes_ = std::filesystem::file_size(file_, ec);
  handle_ = Handle(H5Fopen(file_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!handle_) {
    // a SWMR writer that never closed the file (killed, or still running)
    // leaves it marked open for writing; a SWMR reader may still open it
    const std::string plain = innermost_error();
    // A SWMR reader retries a metadata read whose checksum fails (a live
    // writer may be mid-flush), sleeping between tries from 1 ns up, doubling
    // to at most an hour, 100 tries by default: on a damaged file that is a
    // sleep without end (fuzz_recording; tests/data/fuzz/recording/
    // swmr-superblock-retries.h5). 20 tries wait about 1 ms in all.
    const Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (!access || H5Pset_metadata_read_attempts(access.get(), 20) < 0)
      fail(file_, "", "cannot set up a file access property list");
    handle_ = Handle(H5Fopen(file_.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, access.get()), H5Fclose);
    writer_left_open_ = static_cast<bool>(handle_);
    if (!handle_) {
      std::string message = file_ + ": cannot open the file (truncated or damaged?)";
      if (!plain.empty()) message += " (HDF5: " + plain + ")";
      throw RecordingError(message);
    }
  }
}

const GlobalHeaps& Reader::heaps() const {
  if (!heaps_) heaps_ = std::make_unique<GlobalHeaps>(file_);
  return *heaps_;
}

bool Reader::exists(const std::string& path) const {
  // every link along the path must exist before asking for the next one
  for (std::size_t pos = path.find('/', 1); ; pos = path.find('/', pos + 1)) {
    const std::string prefix = path.substr(0, pos);
    if (H5Lexists(handle_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (pos == std::string::npos) return true;
  }
}

Handle Reader::open_dataset(const std::string& path) const {
  if (!exists(path)) fail(file_, path, "missing dataset");
  Handle set(H5Dopen2(handle_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!set) fail(file_, path, "cannot open dataset");
  return set;
}

std::vector<hsize_t> Reader::dims(const std::string& path) const {
  Handle set = open_dataset(path);
  Handle space(H5Dget_space(set.get()), H5Sclose);
  const int rank = space ? H5Sget_simple_extent_ndims(space.get()) : -1;
  if (rank < 0) fail(file_, path, "cannot read the dataset's shape");
  std::vector<hsize_t> out(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), out.data(), nullptr);
  return out;
}

hsize_t Reader::check_dims(const std::string& path, const std::vector<hsize_t>& expected) const {
  const std::vector<hsize_t> actual = dims(path);
  bool ok = actual.size() == expected.size();
  for (std::size_t i = 0; ok && i < actual.size(); ++i) ok = expected[i] == 0 || expected[i] == actual[i];
  if (!ok)
    fail(file_, path, "has shape " + shape_text(actual, false) + ", expected " + shape_text(expected, true));
  return std::accumulate(actual.begin(), actual.end(), hsize_t{1}, std::multiplies<>());
}

hsize_t Reader::check_rows(const std::string& path, hsize_t rows, std::vector<hsize_t>& row_shape) const {
  const std::vector<hsize_t> actual = dims(path);
  bool ok = actual.size() == row_shape.size() + 1 && actual[0] >= rows;
  for (std::size_t i = 0; ok && i < row_shape.size(); ++i) ok = row_shape[i] == 0 || row_shape[i] == actual[i + 1];
  if (!ok) {
    std::vector<hsize_t> expected{rows};
    expected.insert(expected.end(), row_shape.begin(), row_shape.end());
    fail(file_, path, "has shape " + shape_text(actual, false) + ", expected at least " + shape_text(expected, true));
  }
  row_shape.assign(actual.begin() + 1, actual.end());
  return std::accumulate(row_shape.begin(), row_shape.end(), rows, std::multiplies<>());
}

void Reader::read_rows(const std::string& path, hsize_t rows, const std::vector<hsize_t>& row_shape,
                       hid_t memory_type, void* data) const {
  Handle set = open_dataset(path);
  std::vector<hsize_t> start(row_shape.size() + 1, 0), count{rows};
  count.insert(count.end(), row_shape.begin(), row_shape.end());
  Handle file_space(H5Dget_space(set.get()), H5Sclose);
  Handle memory_space(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose);
  if (!file_space || !memory_space ||
      H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) < 0 ||
      H5Dread(set.get(), memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data) < 0)
    fail(file_, path, "cannot read dataset (truncated or damaged file?)");
}

void Reader::read_raw(const std::string& path, hid_t memory_type, void* data) const {
  Handle set = open_dataset(path);
  if (H5Dread(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    fail(file_, path, "cannot read dataset (truncated or damaged file?)");
}

std::vector<std::string> Reader::strings(const std::string& path) const {
  Handle set = open_dataset(path);
  Handle file_type(H5Dget_type(set.get()), H5Tclose);
  if (H5Tget_class(file_type.get()) != H5T_STRING || H5Tis_variable_str(file_type.get()) <= 0)
    fail(file_, path, "expected variable-length strings");
  Handle space(H5Dget_space(set.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  // each element's heap object checked first: HDF5 trusts them (h5_heaps.hpp)
  Handle dcpl(H5Dget_create_plist(set.get()), H5Pclose);
  const haddr_t offset = H5Dget_offset(set.get());
  if (n > 0 && (H5Pget_layout(dcpl.get()) != H5D_CONTIGUOUS || offset == HADDR_UNDEF ||
                H5Dget_storage_size(set.get()) != 16 * static_cast<hsize_t>(n) ||
                !heaps().strings_fit(offset, static_cast<std::uint64_t>(n))))
    fail(file_, path, "damaged strings (their lengths or heap objects do not match)");
  std::vector<char*> texts(static_cast<std::size_t>(std::max<hssize_t>(n, 0)), nullptr);
  Handle type = vlen_string_type();
  check_string_descriptors(file_, file_bytes_, set.get(), path, static_cast<std::size_t>(std::max<hssize_t>(n, 0)));
  if (n > 0 && H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()) < 0)
    fail(file_, path, "cannot read dataset (truncated or damaged file?)");
  std::vector<std::string> out;
  for (char* t : texts) out.emplace_back(t ? t : "");
  if (n > 0) H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, texts.data());
  return out;
}

std::string Reader::string_scalar(const std::string& path) const {
  const std::vector<std::string> values = strings(path);
  if (values.size() != 1) fail(file_, path, "expected one string");
  return values.front();
}

Handle Reader::open_attribute(const std::string& object, const std::string& name) const {
  if (object != "/" && !exists(object)) fail(file_, object, "missing group");
  if (H5Aexists_by_name(handle_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) <= 0)
    fail(file_, object, "missing attribute '" + name + "'");
  Handle attr(H5Aopen_by_name(handle_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
  if (!attr) fail(file_, object, "cannot open attribute '" + name + "'");
  return attr;
}

std::string Reader::string_attribute(const std::string& object, const std::string& name) const {
  heaps();  // the string's heap collection checked first (h5_heaps.hpp)
  Handle attr = open_attribute(object, name);
  check_scalar(file_, object, name, attr.get());
  Handle file_type(H5Aget_type(attr.get()), H5Tclose);
  if (H5Tget_class(file_type.get()) != H5T_STRING || H5Tis_variable_str(file_type.get()) <= 0)
    fail(file_, object, "attribute '" + name + "' is not a string");
  Handle type = vlen_string_type();
  char* text = nullptr;
  if (H5Aread(attr.get(), type.get(), &text) < 0)
    fail(file_, object, "cannot read attribute '" + name + "'");
  std::string out = text ? text : "";
  H5free_memory(text);
  return out;
}

double Reader::double_attribute(const std::string& object, const std::string& name) const {
  Handle attr = open_attribute(object, name);
  check_scalar(file_, object, name, attr.get());
  double value = 0.0;
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value) < 0)
    fail(file_, object, "cannot read attribute '" + name + "' as a number");
  return value;
}

std::vector<double> Reader::double_attributes(const std::string& object, const std::string& name,
                                             std::size_t n) const {
  Handle attr = open_attribute(object, name);
  Handle space(H5Aget_space(attr.get()), H5Sclose);
  if (!space || H5Sget_simple_extent_npoints(space.get()) != static_cast<hssize_t>(n))
    fail(file_, object, "attribute '" + name + "' must hold " + std::to_string(n) + " values");
  std::vector<double> out(n, 0.0);
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, out.data()) < 0)
    fail(file_, object, "cannot read attribute '" + name + "' as numbers");
  return out;
}

bool Reader::has_attribute(const std::string& object, const std::string& name) const {
  return (object == "/" || exists(object)) &&
         H5Aexists_by_name(handle_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

std::int32_t Reader::int_attribute(const std::string& object, const std::string& name) const {
  Handle attr = open_attribute(object, name);
  check_scalar(file_, object, name, attr.get());
  std::int32_t value = 0;
  if (H5Aread(attr.get(), H5T_NATIVE_INT32, &value) < 0)
    fail(file_, object, "cannot read attribute '" + name + "' as an integer");
  return value;
}

}  // namespace pegsim::h5
