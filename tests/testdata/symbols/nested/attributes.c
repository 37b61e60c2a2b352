#include <stddef.h>

static int helper(int a);

static __always_inline __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)
{
	return alloc(size, flags);
}

static inline __alloc_size(1, 2) void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	return kmalloc(n * size, flags);
}

static __printf(3, 0)
int vprintk_buf(char *buf, size_t size, const char *fmt)
{
	return 0;
}

kprobe_opcode_t * __weak lookup_name(const char *name, unsigned int off)
{
	return NULL;
}

static u64 notrace enter_recur(struct bpf_prog *prog)
	__acquires(RCU)
{
	return 0;
}

static int __init __must_check setup(void)
{
	return helper(1);
}

int __attribute__((weak)) weak_fn(void)
{
	return 0;
}

static int helper(int a)
{
	return a + __alloc_size_check(a);
}

#ifdef CONFIG_A
static int branch_a(void)
{
	return 1;
}
#elif defined(CONFIG_B)
static int branch_b(void)
{
	return 2;
}
#else
static int branch_c(void)
{
	return 3;
}
#endif
