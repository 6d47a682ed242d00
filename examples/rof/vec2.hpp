// The value of the gradient at a pixel and of its dual variable: two floats, stored
// interleaved in one gpu::vector (8 bytes a pixel, coalesced; aligned to 8 so that a
// pixel is one 64-bit load or store, as CUDA's float2).
#pragma once
#include <cmath>

namespace rof {

struct alignas(8) vec2 {
  float x, y;
};
inline vec2 operator+(vec2 a, vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline vec2 operator-(vec2 a, vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline vec2 operator*(float s, vec2 a) { return {s * a.x, s * a.y}; }
inline float norm(vec2 a) { return std::sqrt(a.x * a.x + a.y * a.y); }
inline float norm(float a) { return std::fabs(a); }

} // namespace rof
