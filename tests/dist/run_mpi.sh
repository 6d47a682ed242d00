#!/usr/bin/env bash
# Runs a gpu::dist test program under mpirun with NP ranks:
#   run_mpi.sh MPIEXEC PACXX_INFO NP opencl|cuda|cuda-no-nccl PROGRAM [ARGS...]
# opencl: every rank on PoCL (host-staged transport). cuda: one GPU per rank (the local
# rank picks it; NCCL where libnccl.so.2 opens); cuda-no-nccl: the same with PACXX_NCCL=0
# (host-staged, or CUDA-aware MPI). Exit 77 (skipped) without NP CUDA GPUs.
set -u
[ -n "${PACXX_CACHE_DIR:-}" ] && mkdir -p "$PACXX_CACHE_DIR"
mpiexec="$1" info="$2" np="$3" mode="$4"; shift 4
# Open MPI refuses root without these; shared memory only (no network probing).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}"
# Never NVLink multicast on the lent machines.
export NCCL_NVLS_ENABLE=0
case "$mode" in
  opencl) export PACXX_DEVICE=opencl ;;
  cuda|cuda-no-nccl)
    gpus=$("$info" | grep -c '^  cuda:')
    if [ "$gpus" -lt "$np" ]; then
      echo "SKIPPED: $np ranks need $np CUDA GPUs; this machine has $gpus"
      exit 77
    fi
    unset PACXX_DEVICE
    [ "$mode" = cuda-no-nccl ] && export PACXX_NCCL=0 ;;
  *) echo "run_mpi.sh: unknown mode $mode"; exit 2 ;;
esac
exec "$mpiexec" --oversubscribe --bind-to none -np "$np" "$@"
