#include "io/mesh_hull.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <stdexcept>

namespace pegsim {
namespace {

void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, const Vec3& scale,
             std::vector<std::vector<Vec3>>& parts) {
  const aiMatrix4x4 T = parent * node.mTransformation;
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    std::vector<Vec3> pts;
    pts.reserve(mesh.mNumVertices);
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = T * mesh.mVertices[v];
      pts.emplace_back(scale.x() * p.x, scale.y() * p.y, scale.z() * p.z);
    }
    if (!pts.empty()) parts.push_back(std::move(pts));
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) collect(scene, *node.mChildren[c], T, scale, parts);
}

}  // namespace

std::vector<std::vector<Vec3>> mesh_part_points(const std::string& path, const Vec3& scale) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, aiProcess_JoinIdenticalVertices);
  if (!scene || !scene->mRootNode) throw std::runtime_error(path + ": cannot read the mesh: " + importer.GetErrorString());
  std::vector<std::vector<Vec3>> parts;
  collect(*scene, *scene->mRootNode, aiMatrix4x4(), scale, parts);
  if (parts.empty()) throw std::runtime_error(path + ": the file holds no mesh with vertices");
  return parts;
}

}  // namespace pegsim
