// Interop (issue 12): memory and queues made by the driver's own calls, outside pacxx,
// used by pacxx algorithms (gpu::device_span, pacxx::queue::adopt), and pacxx memory
// used by the driver (gpu::vector::native_handle). On OpenCL: a cl_command_queue of
// pacxx's context, clSVMAlloc'd memory written and read through a cl_mem made over it
// with clCreateBuffer; on CUDA: cuMemAlloc'd memory and a CUstream of the primary
// context. The driver library is opened here as libpacxx opens it (dlopen), so the test
// links no driver.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

template <class F> F symbol(const char *lib, const char *name) {
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return nullptr;
  return reinterpret_cast<F>(dlsym(h, name));
}

bool is(const char *backend) { return std::string(pacxx::native_handles().backend) == backend; }

// ---- OpenCL ------------------------------------------------------------------------
#define CL_FN(f) auto f = symbol<decltype(&::f)>("libOpenCL.so.1", #f)

TEST(Interop, OpenCLQueueSvmAndBuffer) {
  if (!is("opencl"))
    GTEST_SKIP() << "the selected device is not an OpenCL device";
  CL_FN(clCreateCommandQueueWithProperties);
  CL_FN(clReleaseCommandQueue);
  CL_FN(clSVMAlloc);
  CL_FN(clSVMFree);
  CL_FN(clCreateBuffer);
  CL_FN(clReleaseMemObject);
  CL_FN(clEnqueueWriteBuffer);
  CL_FN(clEnqueueReadBuffer);
  CL_FN(clFinish);
  ASSERT_TRUE(clCreateCommandQueueWithProperties && clSVMAlloc && clCreateBuffer &&
              clEnqueueWriteBuffer && clEnqueueReadBuffer);
  pacxx::native_handles_t h = pacxx::native_handles();
  auto ctx = static_cast<cl_context>(h.context);
  auto dev = static_cast<cl_device_id>(h.device);
  cl_int e = CL_SUCCESS;
  cl_command_queue cq = clCreateCommandQueueWithProperties(ctx, dev, nullptr, &e);
  ASSERT_EQ(e, CL_SUCCESS);

  const std::size_t n = 100003;
  std::vector<float> in = pacxx_test::random_floats(n, 3, -2.f, 2.f), out(n);
  void *svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, n * sizeof(float), 0);
  ASSERT_NE(svm, nullptr);
  // A cl_mem over the same memory, as OpenCL code outside pacxx would hold it.
  cl_mem buf =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * sizeof(float), svm, &e);
  ASSERT_EQ(e, CL_SUCCESS);
  ASSERT_EQ(
      clEnqueueWriteBuffer(cq, buf, CL_TRUE, 0, n * sizeof(float), in.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  {
    pacxx::queue q = pacxx::queue::adopt(cq);
    EXPECT_EQ(q.native_handle(), static_cast<void *>(cq));
    gpu::device_span<float> x(static_cast<float *>(svm), n);
    double expect = 0;
    for (float v : in)
      expect += double(v) * 3.0;
    const double got =
        gpu::reduce(q, x | view::transform([](float v) { return double(v) * 3.0; }), 0.0);
    EXPECT_NEAR(got, expect, 1e-6 * n);
    gpu::transform(q, x, x, [](float v) { return v * 0.5f + 1.f; });
    q.wait();
  } // pacxx's queue object goes, the cl_command_queue stays
  ASSERT_EQ(
      clEnqueueReadBuffer(cq, buf, CL_TRUE, 0, n * sizeof(float), out.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], in[i] * 0.5f + 1.f) << i;
  clReleaseMemObject(buf);
  clFinish(cq);
  clSVMFree(ctx, svm);
  clReleaseCommandQueue(cq);
}

TEST(Interop, OpenCLDriverWritesAVectorsMemory) {
  if (!is("opencl"))
    GTEST_SKIP() << "the selected device is not an OpenCL device";
  CL_FN(clEnqueueSVMMemcpy);
  ASSERT_TRUE(clEnqueueSVMMemcpy);
  std::vector<int> h(4097);
  for (std::size_t i = 0; i < h.size(); ++i)
    h[i] = int(i * 7) - 300;
  gpu::vector<int> v(h.size());
  pacxx::queue q;
  ASSERT_EQ(clEnqueueSVMMemcpy(static_cast<cl_command_queue>(q.native_handle()), CL_TRUE,
                               v.native_handle(), h.data(), h.size() * sizeof(int), 0, nullptr,
                               nullptr),
            CL_SUCCESS);
  EXPECT_EQ(gpu::copy(q, v), h);
}

TEST(Interop, OpenCLAdoptRefusesAForeignQueue) {
  if (!is("opencl"))
    GTEST_SKIP() << "the selected device is not an OpenCL device";
  CL_FN(clCreateContext);
  CL_FN(clReleaseContext);
  CL_FN(clCreateCommandQueueWithProperties);
  CL_FN(clReleaseCommandQueue);
  ASSERT_TRUE(clCreateContext && clCreateCommandQueueWithProperties);
  auto dev = static_cast<cl_device_id>(pacxx::native_handles().device);
  cl_int e = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
  ASSERT_EQ(e, CL_SUCCESS);
  cl_command_queue cq = clCreateCommandQueueWithProperties(other, dev, nullptr, &e);
  ASSERT_EQ(e, CL_SUCCESS);
  try {
    pacxx::queue::adopt(cq);
    ADD_FAILURE() << "a queue of another context was adopted";
  } catch (const pacxx::error &err) {
    EXPECT_NE(std::string(err.what()).find("another context"), std::string::npos) << err.what();
  }
  EXPECT_THROW(pacxx::queue::adopt(nullptr), pacxx::error);
  clReleaseCommandQueue(cq);
  clReleaseContext(other);
}

// ---- CUDA --------------------------------------------------------------------------
using CUresult = int;
using CUdeviceptr = unsigned long long;
using CUstream = void *;

TEST(Interop, CudaMemoryAndStream) {
  if (!is("cuda"))
    GTEST_SKIP() << "the selected device is not a CUDA device";
  auto cuMemAlloc =
      symbol<CUresult (*)(CUdeviceptr *, std::size_t)>("libcuda.so.1", "cuMemAlloc_v2");
  auto cuMemFree = symbol<CUresult (*)(CUdeviceptr)>("libcuda.so.1", "cuMemFree_v2");
  auto cuMemcpyHtoD = symbol<CUresult (*)(CUdeviceptr, const void *, std::size_t)>(
      "libcuda.so.1", "cuMemcpyHtoD_v2");
  auto cuMemcpyDtoH =
      symbol<CUresult (*)(void *, CUdeviceptr, std::size_t)>("libcuda.so.1", "cuMemcpyDtoH_v2");
  auto cuStreamCreate =
      symbol<CUresult (*)(CUstream *, unsigned)>("libcuda.so.1", "cuStreamCreate");
  auto cuStreamDestroy = symbol<CUresult (*)(CUstream)>("libcuda.so.1", "cuStreamDestroy_v2");
  auto cuCtxSetCurrent = symbol<CUresult (*)(void *)>("libcuda.so.1", "cuCtxSetCurrent");
  ASSERT_TRUE(cuMemAlloc && cuMemFree && cuMemcpyHtoD && cuMemcpyDtoH && cuStreamCreate &&
              cuStreamDestroy && cuCtxSetCurrent);
  ASSERT_EQ(cuCtxSetCurrent(pacxx::native_handles().context), 0); // pacxx's primary context
  const std::size_t n = 1000003;
  std::vector<float> in = pacxx_test::random_floats(n, 5, -2.f, 2.f), out(n);
  CUdeviceptr mem = 0;
  ASSERT_EQ(cuMemAlloc(&mem, n * sizeof(float)), 0);
  ASSERT_EQ(cuMemcpyHtoD(mem, in.data(), n * sizeof(float)), 0);
  CUstream s = nullptr;
  ASSERT_EQ(cuStreamCreate(&s, 1 /* non-blocking */), 0);
  {
    pacxx::queue q = pacxx::queue::adopt(s);
    EXPECT_EQ(q.native_handle(), s);
    auto x = gpu::device_span<float>::from_native(reinterpret_cast<void *>(mem), n);
    double expect = 0;
    for (float v : in)
      expect += double(v) * 3.0;
    pacxx::future<double> f =
        gpu::reduce_async(q, x | view::transform([](float v) { return double(v) * 3.0; }), 0.0);
    gpu::transform(q, x, x, [](float v) { return v * 0.5f + 1.f; });
    EXPECT_NEAR(f.get(), expect, 1e-6 * n);
    q.wait();
  }
  ASSERT_EQ(cuMemcpyDtoH(out.data(), mem, n * sizeof(float)), 0);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], in[i] * 0.5f + 1.f) << i;
  // The driver writes a gpu::vector's memory through its native handle.
  gpu::vector<float> v(n);
  ASSERT_EQ(
      cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(v.native_handle()), in.data(), n * sizeof(float)),
      0);
  EXPECT_EQ(gpu::copy(v), in);
  cuStreamDestroy(s);
  cuMemFree(mem);
}

TEST(Interop, NativeHandles) {
  pacxx::native_handles_t h = pacxx::native_handles();
  EXPECT_TRUE(is("cuda") || is("opencl")) << h.backend;
  EXPECT_NE(h.context, nullptr);
  pacxx::queue q;
  EXPECT_NE(q.native_handle(), nullptr);
  EXPECT_EQ(pacxx::queue::default_queue().native_handle(), h.default_queue);
}

} // namespace
