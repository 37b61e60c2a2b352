/* kernel_style.c: definitions written the way the Linux kernel writes them. */
#include <linux/init.h>

#define DRIVER_NAME "demo"

struct demo_device {
	int id;
	unsigned long flags;
	struct list_head list;
	union {
		void *ptr;
		long value;
	};
	void (*release)(struct demo_device *dev);
};

static LIST_HEAD(demo_list);
static DEFINE_MUTEX(demo_lock);

static inline int demo_is_ready(const struct demo_device *dev)
{
	return dev->flags & 1;
}

static int __init demo_init(void)
{
	return 0;
}

static void __exit demo_exit(void)
{
}

void __sched demo_schedule(void)
{
}

static int
demo_probe(struct demo_device *dev,
	   unsigned long flags)
{
	dev->flags = flags;
	return 0;
}

static struct demo_device *demo_find(int id)
{
	struct demo_device *dev;

	list_for_each_entry(dev, &demo_list, list) {
		if (dev->id == id)
			return dev;
	}
	return NULL;
}

#ifdef CONFIG_DEMO_DEBUG
static void demo_dump(struct demo_device *dev)
{
	pr_info("demo_dump: %d\n", dev->id);
}
#else
static void demo_dump(struct demo_device *dev) { }
#endif

SYSCALL_DEFINE2(demo_ctl, int, cmd, unsigned long, arg)
{
	return demo_probe(demo_find(cmd), arg);
}

int (*demo_hook(void))(int)
{
	return NULL;
}

__attribute__((weak)) int demo_weak(void)
{
	return 0;
}

typedef struct demo_config {
	int depth;
} demo_config_t;

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
