// The pieces of read_recording() (recording_reader.cpp): the once-per-file
// groups and the body shapes (recording_reader.cpp, recording_shapes_reader.cpp)
// and the per-row data (recording_steps_reader.cpp). Each checks what it reads
// and throws RecordingError "FILE: OBJECT: what" (h5::fail).
#pragma once

#include "io/h5.hpp"
#include "io/recording.hpp"

namespace pegsim::recording_reader {

inline Vec3 vec3_at(const std::vector<double>& v, std::size_t row) {
  return Vec3(v[3 * row], v[3 * row + 1], v[3 * row + 2]);
}

// /bodies/shape_<i>: kind, and the half-space plane or the mesh with every
// vertex and facet index in range
RecordedShape read_shape(const h5::Reader& r, std::size_t body);

// How many features (vertices, facets, facet-loop entries) a shape has: a
// contact's feature index on the body lies below the largest (a compound's
// part-local index too); at least 64, for the few points of a curved pair
std::size_t feature_bound(const RecordedShape& shape);

// /steps and /contacts: every row of a complete file; an incomplete one's rows
// up to the last one that every column holds (out.complete must be set)
void read_steps(const h5::Reader& r, Recording& out);

}  // namespace pegsim::recording_reader
