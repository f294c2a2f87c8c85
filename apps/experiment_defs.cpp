// The experiments `pegsim experiment NAME` runs (docs/experiments.md).
#include "experiment.hpp"

namespace pegsim::cli::experiment {

const std::vector<Definition>& definitions() {
  static const std::vector<Definition> table = {
      {"triangle-drop", "thesis 5.2.1, Figs. 5.5-5.6: a triangle dropped onto a triangle's apex, h swept",
       triangle_drop},
      {"box-stack-2d", "thesis 5.2.2, Figs. 5.7-5.9: ten staggered squares stacked", box_stack_2d},
      {"box-of-polygons", "thesis 5.2.3, Figs. 5.10-5.13: random polygons poured into a container, ten seeds",
       box_of_polygons},
      {"box-of-polyhedra", "thesis 5.2.4, Figs. 5.14-5.15: random polyhedra poured into a box", box_of_polyhedra},
      {"rotation-overlap", "thesis 5.3, Fig. 5.25: overlap after one step of two spinning bars", rotation_overlap},
      {"momentum-chain", "thesis 5.4, Figs. 5.26-5.27: momentum through a chain of inelastic impacts",
       momentum_chain},
      {"grasp-2d", "thesis 5.2.5, Figs. 5.17-5.20: a PD-driven gripper grasps ten random polygons, h swept", grasp_2d},
      {"grasp-2d-friction", "thesis 5.2.6, Figs. 5.21-5.22: grasp-2d with mu = 0.25", grasp_2d_friction},
      {"arm-grasp-ball", "Drumwright-Shell 000 sec. 4: the 7-DOF arm holds a ball, drift in the gripper, PEG / no-slip / convex",
       arm_grasp_ball},
      {"noslip-quadruped", "Drumwright-Shell 002: the quadruped trots 10 s on flat and uneven ground, PEG and no-slip",
       noslip_quadruped},
      {"viscous-quadruped",
       "Drumwright-Shell 002: the trot under the viscous model, ppm against Lemke, impulse form and RK4, mu_v swept",
       viscous_quadruped},
      {"spinning-platter", "Mirtich & Canny 6: a ball on a kinematic turntable, impulse (eps swept) and LCP (h swept)",
       spinning_platter},
  };
  return table;
}

const Definition* find_definition(const std::string& name) {
  for (const Definition& d : definitions())
    if (name == d.name) return &d;
  return nullptr;
}

}  // namespace pegsim::cli::experiment
