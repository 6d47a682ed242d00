// pacxx: composable GPU programming in standard C++14. Include this one header.
#pragma once
#include "pacxx/atomic.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/vector.hpp"
