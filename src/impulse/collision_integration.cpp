// Integration of one collision in the normal impulse p_z (collision_integration.hpp).
//
// Numerics: while sliding, fixed-step RK4 in p_z on (u, W), W = integral of
// u_z dp_z (the normal work, for the energetic law), with the step
// p_ref / steps, p_ref = ((1 + e)(-u0_z) + floor)/K_zz the frictionless
// normal impulse. Events inside a step (maximum compression u_z = 0, the end
// of restitution) are located by false position on the retaken step; the
// slip's stop by the Euler step to it (exact while the slip keeps its
// direction). Once the flow is linear (sticking, or no friction) every
// remaining event is in closed form. The final impulse is
// p = K^-1 (u_end - u0) (paper eq. 7), not a sum of increments, so that
// u_end and p agree to round-off.
#include "impulse/collision_integration.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pegsim {

std::vector<std::string> restitution_law_names() { return {"poisson", "stronge", "newton"}; }

RestitutionLaw parse_restitution_law(const std::string& name) {
  if (name == "poisson") return RestitutionLaw::Poisson;
  if (name == "stronge") return RestitutionLaw::Stronge;
  if (name == "newton") return RestitutionLaw::Newton;
  throw std::invalid_argument("unknown restitution law '" + name + "' (available: poisson, stronge, newton)");
}

const char* restitution_law_name(RestitutionLaw law) {
  switch (law) {
    case RestitutionLaw::Poisson: return "poisson";
    case RestitutionLaw::Stronge: return "stronge";
    case RestitutionLaw::Newton: return "newton";
  }
  return "?";
}

namespace {

struct Flow {  // the collision's state: relative velocity, normal work, normal impulse
  Vec3 u = Vec3::Zero();
  double W = 0.0;
  double pz = 0.0;
};

class Integrator {
 public:
  explicit Integrator(const CollisionInput& in) : in_(in), K_(in.K) {}

  // Tangential impulse rate (a, b) per unit p_z that keeps u_t = 0: K_tt (a, b) = -K_tz.
  Eigen::Vector2d sticking_rate() const {
    const Eigen::Matrix2d Ktt = K_.topLeftCorner<2, 2>();
    return Ktt.ldlt().solve(-K_.topRightCorner<2, 1>());
  }
  bool sticking_is_stable() const { return sticking_rate().norm() <= in_.mu; }

  void stick() {
    const Eigen::Vector2d ab = sticking_rate();
    stick_rate_ = K_ * Vec3(ab.x(), ab.y(), 1.0);
    stick_rate_.x() = stick_rate_.y() = 0.0;  // exactly: u_t stays 0
    stuck_ = ever_stuck_ = true;
  }
  // whether du/dp_z is constant from here on (sticking, or no friction): the
  // flow is then linear in p_z and integrated in closed form
  bool linear() const { return stuck_ || in_.mu == 0.0; }

  // du/dp_z: sticking, or Coulomb sliding opposite the slip (mu = 0: no friction)
  Vec3 rate(const Vec3& u) const {
    if (stuck_) return stick_rate_;
    const double s = std::hypot(u.x(), u.y());
    if (in_.mu == 0.0 || s == 0.0) return K_.col(2);
    return K_ * Vec3(-in_.mu * u.x() / s, -in_.mu * u.y() / s, 1.0);
  }

  Flow rk4(const Flow& y, double dp) const {
    auto f = [&](const Flow& s) { return std::pair<Vec3, double>(rate(s.u), s.u.z()); };
    auto add = [](const Flow& s, const std::pair<Vec3, double>& k, double h) {
      Flow r = s;
      r.u += h * k.first;
      r.W += h * k.second;
      r.pz += h;
      return r;
    };
    const auto k1 = f(y), k2 = f(add(y, k1, dp / 2)), k3 = f(add(y, k2, dp / 2)), k4 = f(add(y, k3, dp));
    Flow out = y;
    out.u += dp / 6 * (k1.first + 2 * k2.first + 2 * k3.first + k4.first);
    out.W += dp / 6 * (k1.second + 2 * k2.second + 2 * k3.second + k4.second);
    out.pz += dp;
    if (stuck_) out.u.x() = out.u.y() = 0.0;
    return out;
  }

  // Unstable sticking: sliding restarts along a ray u_t = lambda d, lambda > 0,
  // that the sliding flow keeps (its tangential rate K_tt(-mu d) + K_tz is
  // parallel to d and points along it); the fastest-growing one. Found by
  // sampling the direction angle and bisecting sign changes (deterministic).
  Eigen::Vector2d restart_direction() const {
    const Eigen::Matrix2d Ktt = K_.topLeftCorner<2, 2>();
    const Eigen::Vector2d Ktz = K_.topRightCorner<2, 1>();
    auto dir = [](double phi) { return Eigen::Vector2d(std::cos(phi), std::sin(phi)); };
    auto tangential = [&](double phi) { return Eigen::Vector2d(-in_.mu * (Ktt * dir(phi)) + Ktz); };
    auto cross = [&](double phi) {
      const Eigen::Vector2d d = dir(phi), r = tangential(phi);
      return d.x() * r.y() - d.y() * r.x();
    };
    constexpr int kSamples = 720;
    const double step = 2.0 * M_PI / kSamples;
    Eigen::Vector2d best = Ktz.norm() > 0.0 ? Eigen::Vector2d(Ktz.normalized()) : Eigen::Vector2d(1.0, 0.0);
    double best_growth = 0.0;
    for (int i = 0; i < kSamples; ++i) {
      double lo = i * step, hi = (i + 1) * step;
      double flo = cross(lo);
      if ((flo > 0.0) == (cross(hi) > 0.0)) continue;
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        const double fm = cross(mid);
        if ((fm > 0.0) == (flo > 0.0)) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      const double phi = 0.5 * (lo + hi);
      const double growth = dir(phi).dot(tangential(phi));
      if (growth > best_growth) {
        best_growth = growth;
        best = dir(phi);
      }
    }
    return best;
  }

  bool stuck_ = false;
  bool ever_stuck_ = false;

 private:
  Vec3 stick_rate_ = Vec3::Zero();
  const CollisionInput& in_;
  Mat3 K_;
};

// The fraction f of a step at which the event function g of the flow crosses
// zero upwards (g(0) < 0 <= g(1)): false position with the Illinois
// modification on the retaken step (the flow is smooth inside one mode).
// The fraction of a linear change from ga < 0 to gb >= 0 at which it is zero.
double crossing(double ga, double gb) { return std::clamp(-ga / (gb - ga), 0.0, 1.0); }

template <class Step, class G>
double locate(const Step& step, const G& g, double g0, double g1) {
  double lo = 0.0, hi = 1.0, glo = g0, ghi = g1;
  int side = 0;
  for (int k = 0; k < 60 && hi - lo > 1e-15; ++k) {
    const double f = std::clamp(lo - glo * (hi - lo) / (ghi - glo), lo, hi);
    const double gf = g(step(f));
    if (gf >= 0.0) {
      if (gf == 0.0) return f;
      hi = f;
      ghi = gf;
      if (side == 1) glo *= 0.5;
      side = 1;
    } else {
      lo = f;
      glo = gf;
      if (side == -1) ghi *= 0.5;
      side = -1;
    }
  }
  return hi;  // the side where the event has happened
}

}  // namespace

CollisionResult integrate_collision(const CollisionInput& in) {
  if (!(in.u0.z() < 0.0)) throw std::invalid_argument("integrate_collision: the bodies do not approach (u0_z >= 0)");
  const Eigen::LLT<Mat3> llt(in.K);
  if (llt.info() != Eigen::Success || !(in.K(2, 2) > 0.0))
    throw std::invalid_argument("integrate_collision: K is not positive definite");

  CollisionResult result;
  Integrator flow(in);
  const double u0z = in.u0.z();
  const double floor = std::max(0.0, in.floor_speed);
  const double p_ref = ((1.0 + in.e) * -u0z + floor) / in.K(2, 2);
  const double dp = p_ref / std::max(1, in.steps);
  const double slip_zero = 1e-14 * (in.u0.norm() + floor);  // below: the slip has stopped (round-off)

  // The end of the collision: every event function g >= 0 (restitution law, micro-collision floor).
  bool compressing = true;
  double pz_end = 0.0, W_end = 0.0;  // set at maximum compression
  auto law_g = [&](const Flow& y) {
    switch (in.law) {
      case RestitutionLaw::Poisson: return y.pz - pz_end;       // p_z = (1 + e) p_z,mc   (paper 4.1)
      case RestitutionLaw::Stronge: return y.W - W_end;         // W = (1 - e^2) W_c      (Stronge 1991)
      case RestitutionLaw::Newton: return y.u.z() + in.e * u0z;  // u_z = -e u0_z
    }
    return 0.0;
  };
  auto floor_g = [&](const Flow& y) { return y.u.z() - floor; };
  auto done = [&](const Flow& y) { return !compressing && law_g(y) >= 0.0 && (floor == 0.0 || floor_g(y) >= 0.0); };

  auto finish = [&](const Vec3& u_end) {
    result.u_end = u_end;
    result.impulse = llt.solve(u_end - in.u0);
    result.stuck = flow.ever_stuck_;
    return result;
  };
  // Paper footnote 1: sliding friction may drive u_z down as p_z grows, and
  // compression would never end. Fallback: the impulse that stops the slip
  // and leaves u_z at the law's nominal end (counted; never a loop).
  auto jam = [&]() {
    result.jam = true;
    return finish(Vec3(0.0, 0.0, std::max(-in.e * u0z, floor)));
  };

  Flow y;
  y.u = in.u0;
  auto settle_slip = [&](Flow& s) {  // u_t at zero: stick if the cone allows, else restart sliding
    if (in.mu == 0.0) return;
    s.u.x() = s.u.y() = 0.0;
    if (flow.sticking_is_stable()) {
      flow.stick();
    } else {
      const Eigen::Vector2d d = flow.restart_direction();
      s.u.x() = slip_zero * d.x();
      s.u.y() = slip_zero * d.y();
    }
  };
  if (std::hypot(y.u.x(), y.u.y()) <= slip_zero) settle_slip(y);

  const int max_steps = 64 * std::max(1, in.steps);
  // A linear flow u(p_z) = u + r p_z, W(p_z) = W + u_z p_z + r_z p_z^2 / 2:
  // every event in closed form.
  auto linear_advance = [&](Flow& s, double dpz, const Vec3& r) {
    s.W += dpz * (s.u.z() + 0.5 * r.z() * dpz);
    s.u += dpz * r;
    s.pz += dpz;
  };
  auto linear_finish = [&]() {
    const Vec3 r = flow.rate(y.u);
    if (compressing) {
      linear_advance(y, -y.u.z() / r.z(), r);
      y.u.z() = 0.0;
      compressing = false;
      pz_end = (1.0 + in.e) * y.pz;
      W_end = (1.0 - in.e * in.e) * y.W;
    }
    double dpz = 0.0;
    switch (in.law) {
      case RestitutionLaw::Poisson: dpz = pz_end - y.pz; break;
      case RestitutionLaw::Newton: dpz = (-in.e * u0z - y.u.z()) / r.z(); break;
      case RestitutionLaw::Stronge: {  // r_z/2 p^2 + u_z p - (W_end - W) = 0, the positive root
        const double c = W_end - y.W;  // >= 0 after compression (W rises back from W_c)
        dpz = c <= 0.0 ? 0.0 : 2.0 * c / (y.u.z() + std::sqrt(y.u.z() * y.u.z() + 2.0 * r.z() * c));
        break;
      }
    }
    if (floor > 0.0) dpz = std::max(dpz, (floor - y.u.z()) / r.z());
    linear_advance(y, std::max(dpz, 0.0), r);
    if (floor > 0.0) y.u.z() = std::max(y.u.z(), floor);
    return finish(y.u);
  };

  for (int step = 0; step < max_steps; ++step) {
    if (compressing && flow.rate(y.u).z() <= 0.0) return jam();
    if (flow.linear()) return linear_finish();
    double h = dp;
    if (!compressing && in.law == RestitutionLaw::Poisson && law_g(y) < 0.0) h = std::min(dp, pz_end - y.pz);
    auto retake = [&](double f) { return flow.rk4(y, f * h); };
    // sliding: does the slip reach zero inside the step? With the rate at the
    // step's start, |u_t| reaches zero after p_z = |u_t|^2 / (-u_t . du_t/dp_z);
    // the step is cut there and taken by Euler (exact while the slip keeps its
    // direction, as the rate is then constant; RK4 stages past the zero would
    // see the friction reversed)
    if (!flow.stuck_ && in.mu > 0.0) {
      const Eigen::Vector2d a(y.u.x(), y.u.y());
      const Vec3 r = flow.rate(y.u);
      const double closing = a.dot(Eigen::Vector2d(r.x(), r.y()));  // d(|u_t|^2 / 2)/dp_z
      if (closing < 0.0 && a.squaredNorm() <= -closing * h) {
        auto euler = [&](double dp_e) {
          Flow e = y;
          e.u += dp_e * r;
          e.W += dp_e * 0.5 * (y.u.z() + e.u.z());
          e.pz += dp_e;
          return e;
        };
        const double to_zero = a.squaredNorm() / -closing;
        Flow next = euler(to_zero);
        ++result.steps;
        if (compressing && next.u.z() >= 0.0) {  // compression ends first, still sliding: stop there
          next = euler(to_zero * crossing(y.u.z(), next.u.z()));
          next.u.z() = std::max(next.u.z(), 0.0);
        } else {
          settle_slip(next);
        }
        y = next;
        if (compressing && y.u.z() >= 0.0) {
          compressing = false;
          pz_end = (1.0 + in.e) * y.pz;
          W_end = (1.0 - in.e * in.e) * y.W;
        }
        if (done(y)) return finish(y.u);
        continue;
      }
    }
    Flow next = retake(1.0);
    ++result.steps;
    if (compressing && next.u.z() >= 0.0) {  // maximum compression inside the step
      auto uz = [](const Flow& s) { return s.u.z(); };
      next = retake(locate(retake, uz, y.u.z(), next.u.z()));
      next.u.z() = std::max(next.u.z(), 0.0);
      compressing = false;
      pz_end = (1.0 + in.e) * next.pz;
      W_end = (1.0 - in.e * in.e) * next.W;
      y = next;
      if (done(y)) return finish(y.u);
      continue;
    }
    if (done(next)) {  // the end inside the step: the later of the law's and the floor's crossings
      double f = 0.0;
      if (law_g(y) < 0.0) f = std::max(f, locate(retake, law_g, law_g(y), law_g(next)));
      if (floor > 0.0 && floor_g(y) < 0.0) f = std::max(f, locate(retake, floor_g, floor_g(y), floor_g(next)));
      Flow end = retake(f);
      if (floor > 0.0) end.u.z() = std::max(end.u.z(), floor);  // the last ulp below the floor
      return finish(end.u);
    }
    y = next;
  }
  return jam();  // the restitution phase did not end within the step cap: counted as a jam
}

}  // namespace pegsim
