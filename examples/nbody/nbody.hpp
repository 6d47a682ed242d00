// All-pairs gravitational N-body (the CUDA SDK's nbody, Accelerate's benchmark): bodies
// are (x, y, z, mass) structs; the acceleration of body i is
//   a_i = sum over j of m_j (p_j - p_i) / (|p_j - p_i|^2 + eps^2)^(3/2)
// (G = 1; the softening eps keeps a body's own term, and close pairs, finite). One
// gpu::pairwise_reduce computes every a_i: a thread per body, the other bodies staged
// through shared memory in tiles, the loop the SDK writes by hand. Shared by the example
// program, its test (tests/e2e/stl_pairwise_test.cpp) and benchmarks/nbody.cpp.
#pragma once
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstddef>
#include <tuple>
#include <vector>

#include <range/v3/view/zip.hpp>

namespace nbody {

// 16-byte aligned as CUDA's float4: a body is one 128-bit load from global and shared
// memory (ld.shared.v4.f32) instead of four.
struct alignas(16) body {
  float x, y, z, mass;
};
struct vec3 {
  float x, y, z;
};
struct add {
  vec3 operator()(const vec3 &a, const vec3 &b) const { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
};

// The acceleration that body j gives body i.
struct gravity {
  float eps2; // softening squared
  vec3 operator()(const body &i, const body &j) const {
    const float dx = j.x - i.x, dy = j.y - i.y, dz = j.z - i.z;
    const float d2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = 1.0f / std::sqrt(d2);
    const float s = j.mass * inv * inv * inv;
    return {dx * s, dy * s, dz * s};
  }
};

// acc[i] for every body of pos.
template <class Bodies, class Acc> void accelerations(Bodies &&pos, Acc &&acc, float eps2) {
  gpu::pairwise_reduce(pos, pos, acc, vec3{0.f, 0.f, 0.f}, add{}, gravity{eps2});
}

// One step of the SDK's integrator (semi-implicit Euler): the velocities from the
// accelerations, then the positions from the velocities. Two kernels.
inline void step(gpu::vector<body> &pos, gpu::vector<vec3> &vel, gpu::vector<vec3> &acc, float dt,
                 float eps2) {
  accelerations(pos, acc, eps2);
  gpu::for_each(ranges::views::zip(pos, vel, acc), [dt](auto t) {
    body &p = std::get<0>(t);
    vec3 &v = std::get<1>(t);
    const vec3 a = std::get<2>(t);
    v = vec3{v.x + a.x * dt, v.y + a.y * dt, v.z + a.z * dt};
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
  });
}

// The host's reference, in double.
inline std::vector<vec3> host_accelerations(const std::vector<body> &pos, float eps2) {
  std::vector<vec3> a(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) {
    double ax = 0, ay = 0, az = 0;
    for (const body &j : pos) {
      const double dx = double(j.x) - pos[i].x, dy = double(j.y) - pos[i].y,
                   dz = double(j.z) - pos[i].z;
      const double d2 = dx * dx + dy * dy + dz * dz + eps2;
      const double s = j.mass / (d2 * std::sqrt(d2));
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    a[i] = vec3{float(ax), float(ay), float(az)};
  }
  return a;
}
inline void host_step(std::vector<body> &pos, std::vector<vec3> &vel, float dt, float eps2) {
  const std::vector<vec3> a = host_accelerations(pos, eps2);
  for (std::size_t i = 0; i < pos.size(); ++i) {
    vel[i] = vec3{vel[i].x + a[i].x * dt, vel[i].y + a[i].y * dt, vel[i].z + a[i].z * dt};
    pos[i].x += vel[i].x * dt;
    pos[i].y += vel[i].y * dt;
    pos[i].z += vel[i].z * dt;
  }
}

// n bodies in a unit ball, masses in [0.5, 1.5] / n (a deterministic generator).
inline std::vector<body> random_bodies(std::size_t n, unsigned long long seed) {
  auto next = [&seed]() {
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    return double((seed * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
  };
  std::vector<body> b(n);
  for (auto &p : b) {
    double x, y, z;
    do {
      x = 2 * next() - 1;
      y = 2 * next() - 1;
      z = 2 * next() - 1;
    } while (x * x + y * y + z * z > 1);
    p = body{float(x), float(y), float(z), float((0.5 + next()) / double(n))};
  }
  return b;
}

// The largest |a - ref| over the bodies, relative to the largest |ref| (so that bodies
// whose forces nearly cancel are not judged by their own tiny magnitude).
inline double relative_error(const std::vector<vec3> &a, const std::vector<vec3> &ref) {
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double ex = a[i].x - ref[i].x, ey = a[i].y - ref[i].y, ez = a[i].z - ref[i].z;
    const double e = std::sqrt(ex * ex + ey * ey + ez * ez);
    const double r = std::sqrt(double(ref[i].x) * ref[i].x + double(ref[i].y) * ref[i].y +
                               double(ref[i].z) * ref[i].z);
    worst = e > worst ? e : worst;
    scale = r > scale ? r : scale;
  }
  return scale > 0 ? worst / scale : worst;
}

} // namespace nbody
