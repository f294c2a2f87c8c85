// count_standard_model_traps (see traps.hpp for the definition).
#include "contact/traps.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace pegsim {
namespace {

bool is_vertex_facet(FeatureKind kind) {
  return kind == FeatureKind::VertexEdge || kind == FeatureKind::VertexFace || kind == FeatureKind::VertexPlane;
}

struct VertexContact {
  std::uint32_t vertex_body = 0;  // body_b: owns the vertex
  int vertex_part = 0;            // part_b (compound bodies, thesis 4.5)
  int vertex = -1;                // feature_b
  std::uint32_t facet_body = 0;   // body_a: owns the facets
  int facet_part = 0;             // part_a
  double gap = 0.0;
  auto key() const { return std::tie(vertex_body, vertex_part, vertex, facet_body, facet_part); }
};

}  // namespace

int count_standard_model_traps(const std::vector<Contact>& contacts, double eps_feasible) {
  thread_local std::vector<VertexContact> vc;  // kept from step to step (issue 11 item 5)
  vc.clear();
  for (const Contact& c : contacts)
    if (is_vertex_facet(c.kind)) vc.push_back({c.body_b, c.part_b, c.features.feature_b, c.body_a, c.part_a, c.gap});
  std::sort(vc.begin(), vc.end(), [](const VertexContact& a, const VertexContact& b) { return a.key() < b.key(); });

  // one pass over the groups of equal (vertex body, vertex, facet body)
  int traps = 0;
  for (std::size_t first = 0; first < vc.size();) {
    std::size_t last = first + 1;
    double lowest = vc[first].gap;
    while (last < vc.size() && vc[last].key() == vc[first].key()) lowest = std::min(lowest, vc[last++].gap);
    if (last - first >= 2 && lowest < -eps_feasible) ++traps;
    first = last;
  }
  return traps;
}

}  // namespace pegsim
