// A thin C++ layer over the HDF5 C API for recordings: owned identifiers,
// typed attributes and datasets, extendible datasets written a chunk at a
// time, and errors that name the file and the object (RecordingError).
//
// Determinism: every group and dataset is created with object time tracking
// off (H5Pset_obj_track_times(…, 0)), so identical writes give identical bytes.
#pragma once

#include "io/h5_heaps.hpp"
#include "io/recording.hpp"

#include <hdf5.h>

#include <cstdint>
#include <memory>
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

// For a process that ends after its command (the pegsim CLI), called first:
// no automatic HDF5 error printing at all, and no HDF5 shutdown at exit.
// HDF5 1.10.8, having met a damaged object header, cannot shut down and
// prints "HDF5: infinite loop closing library" and its package list at exit;
// the process's end frees everything anyway. (Files must be closed by then.)
void quiet_process();
// The shutdown part alone (a library such as the Python module, whose host may
// use HDF5's error printing): HDF5 1.10.8, after it failed to close a file
// whose writes failed (a full disk), crashes closing it again at exit.
// Effective only before HDF5 starts in this process.
void skip_shutdown_at_exit();

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
  // Switches the file to single-writer/multiple-reader writing (HDF5 >= 1.10):
  // from here on metadata reach the file in an order that keeps it readable,
  // so a writer killed between flushes leaves a file that opens (read-only,
  // H5F_ACC_SWMR_READ) with everything up to its last H5Fflush. No new
  // objects or attributes after this call; open groups must be closed first.
  void start_swmr(hid_t file) const;
  void flush(hid_t file) const;  // H5Fflush: what was written so far reaches the file
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
  // chunks of about 32 KiB, whole rows, at most max_chunk_rows rows
  Column(const Writer& writer, hid_t parent, const std::string& path,
         const std::vector<hsize_t>& row_shape, hid_t file_type, hid_t memory_type,
         std::size_t element_size, hsize_t max_chunk_rows = 4096);
  template <class T>
  static Column of(const Writer& w, hid_t parent, const std::string& path,
                   const std::vector<hsize_t>& row_shape = {}, hsize_t max_chunk_rows = 4096) {
    return Column(w, parent, path, row_shape, Type<T>::file(), Type<T>::memory(), sizeof(T), max_chunk_rows);
  }

  template <class T>
  void append(const T* row) { append_bytes(row); }
  template <class T>
  void append_value(T value) { append_bytes(&value); }

  void flush();  // writes the pending rows
  hid_t id() const { return dataset_.get(); }
  hsize_t chunk_rows() const { return chunk_rows_; }
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
  // Opens read-only; fails if not an HDF5 file. A file whose SWMR writer never
  // closed it (killed) is opened as a SWMR reader: writer_left_open() is true.
  explicit Reader(std::string file);
  const std::string& file() const { return file_; }
  hid_t root() const { return handle_.get(); }
  bool writer_left_open() const { return writer_left_open_; }

  bool exists(const std::string& path) const;
  std::vector<hsize_t> dims(const std::string& path) const;
  // The first `rows` rows of a dataset [N, row_shape...] (N >= rows), row-major;
  // fails unless its rank and row shape match (0 in row_shape: any).
  template <class T>
  std::vector<T> rows(const std::string& path, hsize_t rows, const std::vector<hsize_t>& row_shape) const {
    std::vector<hsize_t> row = row_shape;
    const hsize_t elements = check_rows(path, rows, row);
    std::vector<T> out(elements);
    if (!out.empty()) read_rows(path, rows, row, Type<T>::memory(), out.data());
    return out;
  }
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
  std::vector<double> double_attributes(const std::string& object, const std::string& name, std::size_t n) const;
  bool has_attribute(const std::string& object, const std::string& name) const;
  std::int32_t int_attribute(const std::string& object, const std::string& name) const;

 private:
  hsize_t check_dims(const std::string& path, const std::vector<hsize_t>& expected) const;
  hsize_t check_rows(const std::string& path, hsize_t rows, std::vector<hsize_t>& row_shape) const;
  void read_rows(const std::string& path, hsize_t rows, const std::vector<hsize_t>& row_shape, hid_t memory_type,
                 void* data) const;
  void read_raw(const std::string& path, hid_t memory_type, void* data) const;
  Handle open_dataset(const std::string& path) const;
  Handle open_attribute(const std::string& object, const std::string& name) const;

  const GlobalHeaps& heaps() const;  // scanned at the first string read (h5_heaps.hpp)

  std::string file_;
  std::uintmax_t file_bytes_ = 0;  // bounds a variable-length string's length (strings())
  Handle handle_;
  bool writer_left_open_ = false;
  mutable std::unique_ptr<GlobalHeaps> heaps_;
};

}  // namespace pegsim::h5
