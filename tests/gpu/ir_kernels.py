"""Kernels written in LLVM IR, standing in for what kiln.cuda.jit will lower
from Python: they exercise the NVPTX path (special registers, address
spaces, libdevice, shared memory, barriers, atomics) without the front end.
bench/gpu_vs_numba_cuda.py uses them too."""

SREGS = """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
"""

# start = cuda.grid(1) and stride = cuda.gridsize(1), as i64 %start, %stride.
GRID_STRIDE_HEAD = """
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nc = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = mul i32 %c, %nt
  %g = add i32 %b, %t
  %s = mul i32 %nt, %nc
  %start = zext i32 %g to i64
  %stride = zext i32 %s to i64
"""

# Seed 004's add_kernel: for i in range(cuda.grid(1), n, cuda.gridsize(1)):
# out[i] = x[i] + y[i]   (float32)
ADD = SREGS + """
define void @add(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %out, i64 %n) {
entry:""" + GRID_STRIDE_HEAD + """
  br label %cond
cond:
  %i = phi i64 [%start, %entry], [%next, %body]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %v = fadd float %vx, %vy
  store float %v, ptr addrspace(1) %po, align 4
  %next = add i64 %i, %stride
  br label %cond
done:
  ret void
}
"""

# out[i] = math.sin(x[i]) * scale, float64 through libdevice's __nv_sin.
SIN = SREGS + """
declare double @__nv_sin(double)
define void @sin_scale(ptr addrspace(1) %x, ptr addrspace(1) %out, i64 %n, double %scale) {
entry:""" + GRID_STRIDE_HEAD + """
  br label %cond
cond:
  %i = phi i64 [%start, %entry], [%next, %body]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %px = getelementptr inbounds double, ptr addrspace(1) %x, i64 %i
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %i
  %vx = load double, ptr addrspace(1) %px, align 8
  %sx = call double @__nv_sin(double %vx)
  %v = fmul double %sx, %scale
  store double %v, ptr addrspace(1) %po, align 8
  %next = add i64 %i, %stride
  br label %cond
done:
  ret void
}
"""

# Each thread draws `draws` uniform float32 numbers from its own state and
# writes the last one: out[tid] (link _kiln.cuda_xoroshiro_ir()).
UNIFORM = SREGS + """
declare float @kiln_xoroshiro128p_uniform_float32(ptr, i64)
define void @uniform(ptr %states, ptr addrspace(1) %out, i64 %n, i64 %draws) {
entry:""" + GRID_STRIDE_HEAD + """
  %inside = icmp slt i64 %start, %n
  br i1 %inside, label %loop, label %done
loop:
  %k = phi i64 [0, %entry], [%k1, %loop]
  %v = call float @kiln_xoroshiro128p_uniform_float32(ptr %states, i64 %start)
  %k1 = add i64 %k, 1
  %again = icmp slt i64 %k1, %draws
  br i1 %again, label %loop, label %store
store:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %start
  store float %v, ptr addrspace(1) %po, align 4
  br label %done
done:
  ret void
}
"""

# out[tid] = xoroshiro128p_normal_float64(states, tid): one Box-Muller draw.
NORMAL = SREGS + """
declare double @kiln_xoroshiro128p_normal_float64(ptr, i64)
define void @normal(ptr %states, ptr addrspace(1) %out, i64 %n) {
entry:""" + GRID_STRIDE_HEAD + """
  %inside = icmp slt i64 %start, %n
  br i1 %inside, label %draw, label %done
draw:
  %v = call double @kiln_xoroshiro128p_normal_float64(ptr %states, i64 %start)
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %start
  store double %v, ptr addrspace(1) %po, align 8
  br label %done
done:
  ret void
}
"""

# Seed 004's histogram, with a block-shared histogram of 16 int32 bins:
# zero it, barrier, shared atomics per element (values are bin numbers,
# outside 0..15 skipped), barrier, global atomics to out.
HISTOGRAM = SREGS + """
@bins = internal addrspace(3) global [16 x i32] undef, align 4
define void @histogram(ptr addrspace(1) %x, i64 %n, ptr addrspace(1) %out) {
entry:""" + GRID_STRIDE_HEAD + """
  %mine = icmp ult i32 %t, 16
  %slot = getelementptr inbounds [16 x i32], ptr addrspace(3) @bins, i32 0, i32 %t
  br i1 %mine, label %zero, label %zeroed
zero:
  store i32 0, ptr addrspace(3) %slot, align 4
  br label %zeroed
zeroed:
  call void @llvm.nvvm.barrier0()
  br label %cond
cond:
  %i = phi i64 [%start, %zeroed], [%next, %skip]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %flush
body:
  %px = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %i
  %v = load i32, ptr addrspace(1) %px, align 4
  %ok = icmp ult i32 %v, 16
  br i1 %ok, label %count, label %skip
count:
  %bin = getelementptr inbounds [16 x i32], ptr addrspace(3) @bins, i32 0, i32 %v
  %old = atomicrmw add ptr addrspace(3) %bin, i32 1 monotonic
  br label %skip
skip:
  %next = add i64 %i, %stride
  br label %cond
flush:
  call void @llvm.nvvm.barrier0()
  br i1 %mine, label %add, label %done
add:
  %local = load i32, ptr addrspace(3) %slot, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  %old2 = atomicrmw add ptr addrspace(1) %po, i32 %local monotonic
  br label %done
done:
  ret void
}
"""

# Reverses each block's slice of x through dynamic shared memory (the
# launch's sharedmem bytes; the extern array kg_target_dynamic_shared makes).
REVERSE_DYNAMIC = SREGS + """
@kiln_dynamic_shared = external addrspace(3) global [0 x i8], align 16
define void @reverse_blocks(ptr addrspace(1) %x, ptr addrspace(1) %out) {
entry:""" + GRID_STRIDE_HEAD + """
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %start
  %v = load float, ptr addrspace(1) %px, align 4
  %slot = getelementptr inbounds float, ptr addrspace(3) @kiln_dynamic_shared, i32 %t
  store float %v, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %last = sub i32 %nt, 1
  %mirror = sub i32 %last, %t
  %pm = getelementptr inbounds float, ptr addrspace(3) @kiln_dynamic_shared, i32 %mirror
  %w = load float, ptr addrspace(3) %pm, align 4
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %start
  store float %w, ptr addrspace(1) %po, align 4
  ret void
}
"""

# A launch that does nothing with one device-array argument: launch overhead.
EMPTY = """
define void @empty(ptr addrspace(1) %x) {
  ret void
}
"""

# Writes through a wild pointer: an illegal-address fault, for the recovery
# test. %where is an address no allocation has.
FAULT = """
define void @wild_store(i64 %where) {
  %p = inttoptr i64 %where to ptr addrspace(1)
  store volatile i32 1, ptr addrspace(1) %p, align 4
  ret void
}
"""
