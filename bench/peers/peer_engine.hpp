// The one interface pegsim_peers and pegsim_compare drive every engine through
// (pegsim itself and its peers): load a neutral BenchScene, step it by its h,
// and hand back the dynamic bodies' poses and velocities, from which the bench
// measures everything itself.
// One adapter file per engine; a peer's factory exists only when the bench was
// built with that engine (PEGSIM_PEERS_HAVE_<ENGINE>).
#pragma once

#include "bench_scene.hpp"
#include "math/pose.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pegsim::bench {

class PeerEngine {
 public:
  virtual ~PeerEngine() = default;
  virtual std::string name() const = 0;
  // why the engine cannot hold the scene (a feature it lacks), "" when it can;
  // load() is called only when this is ""
  virtual std::string unsupported(const BenchScene&) const { return ""; }
  virtual void load(const BenchScene& scene) = 0;  // replaces what was loaded
  virtual void step() = 0;                          // advances scene.h
  // the dynamic bodies' poses (principal frames), in the scene's order (static bodies left out)
  virtual void poses(std::vector<Pose>& out) const = 0;
  // their velocities: of the centre of mass and angular, world frame
  virtual void velocities(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const = 0;
  // contacts the last step used, the engine's own count (its meaning differs
  // between engines: see each adapter); -1 if the engine does not say
  virtual int contacts() const = 0;
  // The engine's own answer, in the state just loaded (before any step), to
  // "how deep is dynamic body k in this half-space, and where": the depth
  // (m, > 0 inside) and a point on the contact normal through the body's
  // deepest point (engines place contact points on either surface or between:
  // only the point's place along the plane is compared). From the engine's
  // collision detection or its support mapping (each adapter says which);
  // false where it finds no contact (or cannot say). For the conversion check
  // of pegsim_compare --check-geometry.
  virtual bool deepest_point(int /*k*/, const BenchPlane& /*plane*/, Vec3& /*point*/, double& /*depth*/) const {
    return false;
  }
  // anything the run should be read with (solver failures, dropped contacts); "" if none
  virtual std::string warnings() const { return ""; }
};

std::unique_ptr<PeerEngine> make_pegsim_engine();
std::unique_ptr<PeerEngine> make_pegsim_pyramid_engine();  // 4 friction directions, the peers' cone
#ifdef PEGSIM_PEERS_HAVE_BULLET
std::unique_ptr<PeerEngine> make_bullet_engine();
#endif
#ifdef PEGSIM_PEERS_HAVE_MUJOCO
std::unique_ptr<PeerEngine> make_mujoco_engine();
#endif
#ifdef PEGSIM_PEERS_HAVE_ODE
std::unique_ptr<PeerEngine> make_ode_engine();
#endif

}  // namespace pegsim::bench
