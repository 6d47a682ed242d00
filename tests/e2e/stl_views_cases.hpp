// The view pipelines of the view tests (stl_views_test, stl_views_slicing_test,
// stl_views_compose_test, stl_views_compose_reverse_test, stl_views_float_test), as
// cases for the harness of stl_views_support.hpp: each builds its pipeline from three
// equally long ranges, the same code over gpu::vectors (device) and std::vectors (host
// reference).
#pragma once
#include "stl_views_support.hpp"

namespace stl_test {

// ---------------------------------------------------------------------------------
// Single views.

struct Zip2 {
  static constexpr const char *name = "zip2";
  static constexpr bool writable = true, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) { return view::zip(a, b); }
  template <class E, class I> static void mutate(E &&e, I i) {
    std::get<0>(e) = std::get<0>(e) * 3 + std::get<1>(e) + i;
    std::get<1>(e) = -std::get<1>(e);
  }
};

struct Zip3 {
  static constexpr const char *name = "zip3";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &b, C &c) {
    return view::zip(a, b, c);
  }
  template <class E, class I> static void mutate(E &&e, I i) {
    std::get<2>(e) = std::get<0>(e) - std::get<1>(e) * i;
  }
};

struct ZipWith {
  static constexpr const char *name = "zip_with";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::zip_with(minus, a, b);
  }
};

struct TransformUnary {
  static constexpr const char *name = "transform";
  static constexpr bool writable = false, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::transform(a, square_plus_one);
  }
};

struct TransformOverZip {
  static constexpr const char *name = "zip_transform";
  static constexpr bool writable = false, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::zip(a, b) | view::transform(mult);
  }
};

struct Iota {
  static constexpr const char *name = "iota";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::iota(-7, static_cast<int>(ranges::size(a)) - 7);
  }
};

struct RepeatBoundedByZip {
  static constexpr const char *name = "repeat_in_zip";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    using T = ranges::range_value_t<A>;
    return view::zip(a, view::repeat(static_cast<T>(3)));
  }
  template <class E, class I> static void mutate(E &&e, I i) {
    std::get<0>(e) = std::get<0>(e) * std::get<1>(e) + i;
  }
};

struct RepeatTake {
  static constexpr const char *name = "repeat_take";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    using T = ranges::range_value_t<A>;
    return view::repeat(static_cast<T>(7)) | view::take(ranges::size(a));
  }
};

struct RepeatN {
  static constexpr const char *name = "repeat_n";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    using T = ranges::range_value_t<A>;
    return view::repeat_n(static_cast<T>(-2), static_cast<std::ptrdiff_t>(ranges::size(a)));
  }
};

// Writes that show which elements a subrange view reaches, and in which order.
struct Bump {
  template <class E, class I> static void mutate(E &&e, I i) { e = e * 3 + i; }
};

struct Take : Bump {
  static constexpr const char *name = "take";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::take(a, ranges::size(a) / 2 + 1);
  }
};

struct Drop : Bump {
  static constexpr const char *name = "drop";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::drop(a, ranges::size(a) / 3);
  }
};

struct Slice : Bump {
  static constexpr const char *name = "slice";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    const auto n = static_cast<std::ptrdiff_t>(ranges::size(a));
    return view::slice(a, n / 4, n / 2 + 1 > n ? n : n / 2 + 1);
  }
};

struct Stride : Bump {
  static constexpr const char *name = "stride";
  static constexpr bool writable = true, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::stride(a, 3);
  }
};

struct Reverse : Bump {
  static constexpr const char *name = "reverse";
  static constexpr bool writable = true, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &, C &) { return view::reverse(a); }
};

struct Enumerate {
  static constexpr const char *name = "enumerate";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::enumerate(a);
  }
  template <class E, class I> static void mutate(E &&e, I i) {
    std::get<1>(e) = std::get<1>(e) * 2 + static_cast<I>(std::get<0>(e)) * 5 - i;
  }
};

struct Chunk {
  static constexpr const char *name = "chunk";
  static constexpr bool writable = true, copyable = false, big = true;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::chunk(a, 7);
  }
  template <class E, class I> static void mutate(E &&chunk, I i) { // a range of references
    I k = 0;
    for (auto &&x : chunk)
      x = x * 2 + i - k++;
  }
};

// ---------------------------------------------------------------------------------
// Compositions.

struct ZipIotaTransformStrideReverse {
  static constexpr const char *name = "zip_iota_transform_stride_reverse";
  static constexpr bool writable = false, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::zip(view::iota(0, static_cast<int>(ranges::size(a))), a) | view::transform(mult) |
           view::stride(2) | view::reverse;
  }
};

struct TakeOfDrop : Bump {
  static constexpr const char *name = "take_of_drop";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    const std::size_t n = ranges::size(a);
    return view::take(view::drop(a, n / 5), n / 2);
  }
};

struct ZipOfTransforms {
  static constexpr const char *name = "zip_of_transforms";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::zip(view::transform(a, square_plus_one), view::transform(b, negate));
  }
};

struct ZipTransformTakeStride {
  static constexpr const char *name = "zip_transform_take_stride";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    const std::size_t n = ranges::size(a);
    return view::zip(a, b) | view::transform(mult) | view::take(n - n / 3) | view::stride(2);
  }
};

struct ReverseStrideZip3 {
  static constexpr const char *name = "reverse_stride_zip3";
  static constexpr bool writable = true, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &b, C &c) {
    return view::reverse(view::stride(view::zip(a, b, c), 2));
  }
  template <class E, class I> static void mutate(E &&e, I i) {
    std::get<0>(e) = std::get<1>(e) * 2 + i;
    std::get<2>(e) = -std::get<2>(e);
  }
};

struct EnumerateStride {
  static constexpr const char *name = "enumerate_stride";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::enumerate(view::stride(a, 3)) | view::transform([](const auto &p) {
             return static_cast<int>(std::get<0>(p)) * std::get<1>(p);
           });
  }
};

struct ChunkOfPipeline {
  static constexpr const char *name = "chunk_of_pipeline";
  static constexpr bool writable = false, copyable = false, big = true;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::chunk(view::zip(a, b) | view::transform(mult), 16);
  }
};

struct ZipWithReverseDrop {
  static constexpr const char *name = "zip_with_reverse_drop";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::zip_with(minus, view::reverse(a), view::drop(b, ranges::size(b) / 7));
  }
};

struct SliceReverseZip {
  static constexpr const char *name = "slice_reverse_zip";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &c) {
    const auto n = static_cast<std::ptrdiff_t>(ranges::size(a));
    return view::slice(view::reverse(view::zip(a, c)), n / 5, n / 2);
  }
  template <class E, class I> static void mutate(E &&e, I i) {
    std::get<1>(e) = std::get<0>(e) - i;
    std::get<0>(e) = std::get<0>(e) * 2;
  }
};

struct DropStrideReverse : Bump {
  static constexpr const char *name = "drop_stride_reverse";
  static constexpr bool writable = true, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::drop(view::stride(view::reverse(a), 2), 1);
  }
};

// a * x + y with a from repeat_n (Listing 7's saxpy, eagerly).
struct RepeatNSaxpy {
  static constexpr const char *name = "repeat_n_saxpy";
  static constexpr bool writable = false, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    using T = ranges::range_value_t<A>;
    return view::zip(
               view::repeat_n(static_cast<T>(2), static_cast<std::ptrdiff_t>(ranges::size(a))), a,
               b) |
           view::transform(
               [](const auto &t) { return std::get<0>(t) * std::get<1>(t) + std::get<2>(t); });
  }
};

struct Dot {
  static constexpr const char *name = "dot";
  static constexpr bool writable = false, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::zip(a, b) | view::transform(mult);
  }
};

// A gtest name generator for with<Case, T>: the case's name and the element type.
struct case_names {
  template <class P> static std::string GetName(int) {
    return std::string(P::Case::name) +
           (std::is_same<typename P::Element, float>::value ? "_float" : "");
  }
};

} // namespace stl_test
