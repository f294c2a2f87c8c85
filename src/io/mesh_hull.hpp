// Collision meshes (STL, COLLADA, OBJ, ... through Debian's libassimp) as
// convex parts: each mesh of the file is one part, the convex hull of its
// vertices (hulled by the caller, geometry/polyhedron.hpp's qhull). Vertices
// are placed by the file's node transforms and scaled per axis.
#pragma once

#include "math/types.hpp"

#include <string>
#include <vector>

namespace pegsim {

// Per mesh of the file, its vertices. Throws std::runtime_error "PATH: what"
// when the file cannot be read or holds no mesh with vertices.
std::vector<std::vector<Vec3>> mesh_part_points(const std::string& path, const Vec3& scale);

}  // namespace pegsim
