# Bank conflicts of the merge sort's blocked shared-memory writes (thread l writes tile
# element l * I + k; agent/merge.hpp's merge_tile pads one element per 32 where I is even,
# agent/merge_sort.hpp's block sort does not pad), in a model of 32 four-byte banks. The
# access widths are those of the kernels' PTX (pacxx-kernels --ptx, 2026-11-26): 64-bit
# keys move as one 8-byte access (a warp served 16 threads at a time), structs as one
# 4-byte access per 32-bit member. Prints the worst conflict degree over k.
def degree(addrs, w):
    per = 32 // w
    worst = 0
    for ph in range(0, 32, per):
        banks = {}
        for a in addrs[ph:ph + per]:
            for j in range(w):
                banks.setdefault((a + j) % 32, set()).add(a + j)
        worst = max(worst, max(len(v) for v in banks.values()))
    return worst

def run(name, words, access, I, pad):
    worst = 0
    for k in range(I):
        base = [pad(l * I + k) * words for l in range(32)]
        for r in range(0, words, access):  # one access per member (or one for the key)
            worst = max(worst, degree([a + r for a in base], access))
    print(f"{name:34s} {4 * words:2d}-byte elements, {I} items: {worst}-way")

p32 = lambda e: e + e // 32
none = lambda e: e
for what, words, access, I in [("u32 keys", 1, 1, 8), ("u64 keys", 2, 2, 8), ("u64 keys", 2, 2, 6),
                               ("12-byte struct", 3, 1, 5), ("12-byte struct", 3, 1, 4),
                               ("16-byte struct", 4, 1, 4), ("16-byte struct", 4, 1, 3)]:
    run(f"merge tile write, {what}", words, access, I, p32 if I % 2 == 0 else none)
    run(f"block sort write, {what}", words, access, I, none)
