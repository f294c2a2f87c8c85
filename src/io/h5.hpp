// A thin C++ layer over the HDF5 C API for recordings: owned identifiers,
// typed attributes and datasets, extendible datasets written a chunk at a
// time, and errors that name the file and the object (RecordingError).
//
// Determinism: every group and dataset is created with object time tracking
// off (H5Pset_obj_track_times(…, 0)), so identical writes give identical bytes.
#pragma once

#include "io/recording.hpp"

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pegsim::h5 {

// An owned HDF5 identifier, closed by the matching H5?close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }
  herr_t reset();  // closes now; returns the close status (0 when nothing was open)

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Silences HDF5's automatic error-stack printing while alive; errors are
// reported through RecordingError instead.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// Throws RecordingError "FILE: OBJECT: what (HDF5: innermost error message)".
[[noreturn]] void fail(const std::string& file, const std::string& object, const std::string& what);

// Element types: memory type and little-endian file type.
template <class T> struct Type;
template <> struct Type<double> {
  static hid_t memory() { return H5T_NATIVE_DOUBLE; }
  static hid_t file() { return H5T_IEEE_F64LE; }
};
template <> struct Type<std::int32_t> {
  static hid_t memory() { return H5T_NATIVE_INT32; }
  static hid_t file() { return H5T_STD_I32LE; }
};
template <> struct Type<std::int64_t> {
  static hid_t memory() { return H5T_NATIVE_INT64; }
  static hid_t file() { return H5T_STD_I64LE; }
};
template <> struct Type<std::uint32_t> {
  static hid_t memory() { return H5T_NATIVE_UINT32; }
  static hid_t file() { return H5T_STD_U32LE; }
};
template <> struct Type<std::uint8_t> {
  static hid_t memory() { return H5T_NATIVE_UINT8; }
  static hid_t file() { return H5T_STD_U8LE; }
};

// ---- writing -------------------------------------------------------------------

class Writer {
 public:
  explicit Writer(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  Handle create_file() const;  // truncates
  Handle create_group(hid_t parent, const std::string& path) const;

  void attribute(hid_t object, const std::string& name, const std::string& value) const;
  void attribute(hid_t object, const std::string& name, const std::vector<std::string>& values) const;
  void attribute(hid_t object, const std::string& name, double value) const;
  void attribute(hid_t object, const std::string& name, std::int32_t value) const;
  void attribute(hid_t object, const std::string& name, const std::vector<double>& values) const;

  // A fixed-size dataset of `dims` (row-major data).
  template <class T>
  void dataset(hid_t parent, const std::string& path, const std::vector<hsize_t>& dims,
               const std::vector<T>& data) const {
    write_dataset(parent, path, dims, Type<T>::file(), Type<T>::memory(), data.data());
  }
  void strings(hid_t parent, const std::string& path, const std::vector<std::string>& values) const;
  void string_scalar(hid_t parent, const std::string& path, const std::string& value) const;

 private:
  void write_dataset(hid_t parent, const std::string& path, const std::vector<hsize_t>& dims,
                     hid_t file_type, hid_t memory_type, const void* data) const;
  std::string file_;
};

// An extendible dataset [N, row_shape...]: rows are appended to a buffer and
// written a whole chunk at a time (each chunk compressed once).
class Column {
 public:
  Column(const Writer& writer, hid_t parent, const std::string& path,
         const std::vector<hsize_t>& row_shape, hid_t file_type, hid_t memory_type,
         std::size_t element_size);
  template <class T>
  static Column of(const Writer& w, hid_t parent, const std::string& path,
                   const std::vector<hsize_t>& row_shape = {}) {
    return Column(w, parent, path, row_shape, Type<T>::file(), Type<T>::memory(), sizeof(T));
  }

  template <class T>
  void append(const T* row) { append_bytes(row); }
  template <class T>
  void append_value(T value) { append_bytes(&value); }

  void flush();  // writes the pending rows
  hid_t id() const { return dataset_.get(); }
  void close();

 private:
  void append_bytes(const void* row);

  std::string file_, path_;
  Handle dataset_;
  std::vector<hsize_t> row_shape_;
  hid_t memory_type_;
  std::size_t row_bytes_;
  hsize_t chunk_rows_;
  hsize_t written_ = 0;
  std::vector<unsigned char> pending_;
};

// ---- reading -------------------------------------------------------------------

class Reader {
 public:
  explicit Reader(std::string file);  // opens read-only; fails if not an HDF5 file
  const std::string& file() const { return file_; }
  hid_t root() const { return handle_.get(); }

  bool exists(const std::string& path) const;
  std::vector<hsize_t> dims(const std::string& path) const;
  // The whole dataset; fails unless its rank and the given dims match (0: any).
  template <class T>
  std::vector<T> dataset(const std::string& path, const std::vector<hsize_t>& expected) const {
    std::vector<T> out(check_dims(path, expected));
    if (!out.empty()) read_raw(path, Type<T>::memory(), out.data());
    return out;
  }
  std::vector<std::string> strings(const std::string& path) const;
  std::string string_scalar(const std::string& path) const;

  std::string string_attribute(const std::string& object, const std::string& name) const;
  double double_attribute(const std::string& object, const std::string& name) const;
  std::int32_t int_attribute(const std::string& object, const std::string& name) const;

 private:
  hsize_t check_dims(const std::string& path, const std::vector<hsize_t>& expected) const;
  void read_raw(const std::string& path, hid_t memory_type, void* data) const;
  Handle open_dataset(const std::string& path) const;
  Handle open_attribute(const std::string& object, const std::string& name) const;

  std::string file_;
  std::uintmax_t file_bytes_ = 0;  // bounds a variable-length string's length (strings())
  Handle handle_;
};

}  // namespace pegsim::h5
