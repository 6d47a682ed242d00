// pacxx over MPI and NCCL (issue 39): include this one header and link pacxx::dist
// (-lpacxx_dist). docs/distributed.md is the guide.
#pragma once
#include "pacxx/dist/algorithm.hpp"
#include "pacxx/dist/environment.hpp"
#include "pacxx/dist/vector.hpp"
