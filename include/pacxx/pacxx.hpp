// pacxx: composable GPU programming in standard C++14. Include this one header.
#pragma once
#include "pacxx/atomic.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/stage.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/vector.hpp"

// The GPU STL: views over device memory, eager algorithms and actions, gpu::async.
#include <range/v3/view.hpp>

#include "pacxx/action/transform.hpp"
#include "pacxx/algorithm/copy.hpp"
#include "pacxx/algorithm/for_each.hpp"
#include "pacxx/algorithm/gather.hpp"
#include "pacxx/algorithm/histogram.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/algorithm/reduce_by_key.hpp"
#include "pacxx/algorithm/scan.hpp"
#include "pacxx/algorithm/scan_by_key.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/async.hpp"
#include "pacxx/device_range.hpp"
